import { isAcceptedFile, isTooLarge } from "../../../shared/domain/files";
import { CHAT_MESSAGES, MESSAGE_MAX_FILES } from "../../../shared/schemas/conversations";
import { UPLOAD_MESSAGES } from "../../../shared/schemas/requests";

/** A file chosen for a message, with a stable key for its chip. */
export interface AttachedFile {
  key: string;
  file: File;
}

let counter = 0;

const sameFile = (a: File, b: File) =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/**
 * Adds files to a message: the same types and 10 MB limit as uploads, at most MESSAGE_MAX_FILES
 * per message, a file already chosen is not added twice, an empty one or one that is not the PDF,
 * JPEG or PNG its name says (`wrongContentOf`) is refused. Refusals use the server's French texts.
 */
export function attachFiles(
  current: AttachedFile[],
  incoming: File[],
  wrongContent: ReadonlySet<File> = new Set(),
): { files: AttachedFile[]; errors: string[] } {
  const errors: string[] = [];
  const kept: AttachedFile[] = [];
  let full = false;
  for (const file of incoming) {
    if (isTooLarge(file)) errors.push(CHAT_MESSAGES.fileTooLarge(file.name));
    else if (!isAcceptedFile(file)) errors.push(CHAT_MESSAGES.fileContent(file.name));
    else if (file.size === 0) errors.push(UPLOAD_MESSAGES.fileEmpty(file.name));
    else if (wrongContent.has(file)) errors.push(CHAT_MESSAGES.fileContent(file.name));
    else if ([...current, ...kept].some((c) => sameFile(c.file, file))) continue;
    else if (current.length + kept.length >= MESSAGE_MAX_FILES) full = true;
    else {
      counter += 1;
      kept.push({ key: `attachment-${counter}`, file });
    }
  }
  if (full) errors.push(CHAT_MESSAGES.tooManyFiles);
  return { files: [...current, ...kept], errors };
}
