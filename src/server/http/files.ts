import type { FastifyBaseLogger, FastifyReply } from "fastify";
import { servedFileName } from "../files/names";
import type { Storage } from "../storage/storage";

/**
 * How the API answers with a private file (a patient's document, an attachment, an archive, a
 * calendar entry): the one place for the headers every such answer carries. A file is streamed
 * through an authorised route, never from a public URL (ADR 005).
 */

/** A file the browser may open in place runs nothing: only the browser's own viewers. */
export const VIEWER_CSP =
  "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";

/** The same for an answer that can only be an image. */
export const IMAGE_CSP = "default-src 'none'; img-src 'self'; frame-ancestors 'self'";

export interface PrivateFile {
  /** The content type (as sniffed at upload, or of what the server generates). */
  type: string;
  /** The name offered to the browser; served as servedFileName gives it for `type`. */
  name: string;
  disposition: "inline" | "attachment";
  /** Bytes, when known beforehand (a stored file); a generated archive streams without it. */
  size?: number;
  /** Content-Security-Policy, for a file the browser may open in place (VIEWER_CSP, IMAGE_CSP). */
  csp?: string;
}

/** Sends a private file: never cached, never type-sniffed by the browser, named per RFC 6266. */
export function sendPrivateFile(
  reply: FastifyReply,
  body: NodeJS.ReadableStream | Buffer | string,
  file: PrivateFile,
) {
  reply.header("content-type", file.type);
  if (file.size !== undefined) reply.header("content-length", file.size);
  reply
    .header("content-disposition", contentDisposition(file.disposition, file.name, mimeOf(file.type)))
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff");
  if (file.csp) reply.header("content-security-policy", file.csp);
  return reply.send(body as never);
}

/**
 * The size of a stored file. A row whose file is missing from storage is logged (ids only, never a
 * name) and answered with `missing()` (a 404), as if the row did not exist.
 */
export async function storedFileSize(
  storage: Storage,
  key: string,
  log: FastifyBaseLogger,
  ids: Record<string, string>,
  missing: () => Error,
): Promise<number> {
  const size = await storage.size(key);
  if (size === null) {
    log.error(ids, "fichier absent du stockage");
    throw missing();
  }
  return size;
}

/**
 * RFC 6266 Content-Disposition with a UTF-8 file name and an ASCII fallback; the name is the
 * served name of `fileName` for the content type `mime` (servedFileName).
 */
export function contentDisposition(
  kind: "inline" | "attachment",
  fileName: string,
  mime: string | null | undefined,
): string {
  const name = servedFileName(fileName, mime);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** "text/calendar; charset=utf-8" → "text/calendar". */
function mimeOf(type: string): string {
  return type.split(";")[0]?.trim() ?? type;
}

/** encodeURIComponent, plus the characters RFC 5987 does not allow unencoded (' ( ) *). */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
