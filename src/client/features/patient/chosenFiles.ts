import { isAcceptedFile, isTooLarge } from "../../../shared/domain/files";
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
  /** The files `wrongContentOf` found not to be what their name says (empty ones included). */
  wrongContent: ReadonlySet<File> = new Set(),
): AddFilesResult {
  const errors: string[] = [];
  const tooLarge: string[] = [];
  const fitting: File[] = [];
  for (const file of incoming) {
    if (isTooLarge(file)) tooLarge.push(file.name);
    else if (!isAcceptedFile(file)) errors.push(UPLOAD_MESSAGES.fileType(file.name));
    else if (file.size === 0) errors.push(UPLOAD_MESSAGES.fileEmpty(file.name));
    else if (wrongContent.has(file)) errors.push(UPLOAD_MESSAGES.fileContent(file.name));
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
