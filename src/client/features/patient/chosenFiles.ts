import {
  claimedPictureOrPdf,
  isAcceptedFile,
  isTooLarge,
  pictureOrPdfOf,
} from "../../../shared/domain/files";
import { type DocumentType, guessDocumentType, MAX_FILES_PER_REQUEST } from "../../../shared/domain/requests";
import { UPLOAD_MESSAGES } from "../../../shared/schemas/requests";

/** A file chosen for an upload, with its document type (guessed, then chosen by the patient). */
export interface ChosenFile {
  key: string;
  file: File;
  type: DocumentType;
}

let counter = 0;
const keyOf = () => {
  counter += 1;
  return `file-${counter}`;
};

const sameFile = (a: File, b: File) =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

export interface AddFilesResult {
  files: ChosenFile[];
  /** The files actually added (for the '<n> fichiers ajoutés' toast). */
  added: number;
  /** The refusals, in French, one per rule broken. */
  errors: string[];
}

/**
 * Each added file must be at most 10 MB — one refused file gives 'Le fichier <name> est
 * trop volumineux (max 10 Mo)', several added at once give 'Fichier(s) trop volumineux: <names>.
 * La taille maximale est de 10 Mo.' and the files that fit are kept; a type that is not accepted
 * gives 'Le type de fichier <name> n'est pas accepté'. A request holds at most
 * MAX_FILES_PER_REQUEST files; a file already in the list is not added twice. Each kept file's type
 * is guessed from its name and MIME type.
 */
export function addFiles(
  current: ChosenFile[],
  incoming: File[],
  notWhatTheySay: ReadonlySet<File> = new Set(),
): AddFilesResult {
  const errors: string[] = [];
  const tooLarge: string[] = [];
  const fitting: File[] = [];
  for (const file of incoming) {
    if (isTooLarge(file)) tooLarge.push(file.name);
    else if (!isAcceptedFile(file)) errors.push(UPLOAD_MESSAGES.fileType(file.name));
    else if (file.size === 0) errors.push(UPLOAD_MESSAGES.fileEmpty(file.name));
    else if (notWhatTheySay.has(file)) errors.push(UPLOAD_MESSAGES.fileContent(file.name));
    else if (!current.some((c) => sameFile(c.file, file)) && !fitting.some((f) => sameFile(f, file)))
      fitting.push(file);
  }
  if (tooLarge.length > 0) {
    errors.unshift(
      incoming.length === 1 && tooLarge[0] !== undefined
        ? UPLOAD_MESSAGES.fileTooLarge(tooLarge[0])
        : UPLOAD_MESSAGES.filesTooLarge(tooLarge),
    );
  }
  const room = Math.max(0, MAX_FILES_PER_REQUEST - current.length);
  if (fitting.length > room) errors.push(UPLOAD_MESSAGES.tooManyFiles(MAX_FILES_PER_REQUEST));
  const kept = fitting.slice(0, room).map((file) => ({ key: keyOf(), file, type: guessDocumentType(file) }));
  return { files: [...current, ...kept], added: kept.length, errors };
}

/**
 * The files whose first bytes are not the PDF, JPEG or PNG their name says (a text file renamed
 * « devis.pdf »): refused when chosen, all at once, rather than by the server one sending at a time.
 * Videos and unreadable files are left to the server, which checks every file's content.
 */
export async function notWhatTheySay(files: File[]): Promise<Set<File>> {
  const wrong = new Set<File>();
  await Promise.all(
    files.map(async (file) => {
      const claimed = claimedPictureOrPdf(file.name);
      if (!claimed || file.size === 0) return;
      try {
        const start = new Uint8Array(await file.slice(0, 8).arrayBuffer());
        if (pictureOrPdfOf(start) !== claimed) wrong.add(file);
      } catch {
        // Unreadable here: the server decides.
      }
    }),
  );
  return wrong;
}
