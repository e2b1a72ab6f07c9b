import { MAX_FILE_SIZE } from "./limits";

/** Accepted extensions for the contact form and patient uploads. */
export const ACCEPTED_EXTENSIONS = ["pdf", "jpg", "jpeg", "png", "mp4", "mov", "avi", "mkv"] as const;

/**
 * The same formats as the server finds them in a file's content (file-type's names): what an
 * upload's bytes must be, whatever its name says.
 */
export const ACCEPTED_CONTENT_TYPES = ["pdf", "jpg", "png", "mp4", "mov", "avi", "mkv"] as const;

/** Accepted MIME types, as browsers declare them. */
export const ACCEPTED_MIME_TYPES = [
  "image/jpeg",
  "image/png",
  "application/pdf",
  "video/mp4",
  "video/quicktime",
  "video/x-msvideo",
  "video/x-matroska",
] as const;

/** The `accept` attribute of file inputs. */
export const ACCEPT_ATTRIBUTE = [...ACCEPTED_EXTENSIONS.map((e) => `.${e}`), ...ACCEPTED_MIME_TYPES].join(
  ",",
);

/** The upload hint: the accepted formats (ACCEPTED_EXTENSIONS) and MAX_FILE_SIZE, a rule the upload enforces. */
export const FILE_RECOMMENDATION = "PDF, JPG, PNG ou vidéo (MP4, MOV, AVI, MKV), 10 Mo au plus par fichier.";

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** What the browser can check before sending; the server checks the content itself. */
export function isAcceptedFile(file: { name: string; type: string }): boolean {
  const ext = extensionOf(file.name);
  return (
    (ACCEPTED_EXTENSIONS as readonly string[]).includes(ext) ||
    (ACCEPTED_MIME_TYPES as readonly string[]).includes(file.type)
  );
}

/**
 * What the first bytes of a file say it is, for the formats a browser can recognise at once: a PDF
 * ("%PDF-"), a JPEG (FF D8 FF), a PNG (its 8-byte signature); null for anything else (videos, whose
 * containers vary, are left to the server, which checks every file's content).
 */
export function pictureOrPdfOf(start: Uint8Array): "pdf" | "jpg" | "png" | null {
  const begins = (bytes: readonly number[]) => bytes.every((byte, i) => start[i] === byte);
  if (begins([0x25, 0x50, 0x44, 0x46, 0x2d])) return "pdf";
  if (begins([0xff, 0xd8, 0xff])) return "jpg";
  if (begins([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  return null;
}

/** The format a file's name claims among PDF, JPEG and PNG (what `pictureOrPdfOf` can check). */
export function claimedPictureOrPdf(name: string): "pdf" | "jpg" | "png" | null {
  const ext = extensionOf(name);
  if (ext === "pdf") return "pdf";
  if (ext === "jpg" || ext === "jpeg") return "jpg";
  if (ext === "png") return "png";
  return null;
}

export function isTooLarge(file: { size: number }): boolean {
  return file.size > MAX_FILE_SIZE;
}
