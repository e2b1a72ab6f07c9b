import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import { fileTypeFromBuffer } from "file-type/node";
import { ACCEPTED_CONTENT_TYPES } from "../../shared/domain/files";
import { ERROR_CODES } from "../../shared/schemas/common";
import { AppError } from "../errors";
import { servedFileName } from "../files/names";
import type { Storage } from "../storage/storage";

export interface StoredFile {
  key: string;
  /**
   * The name the person gave the file, as served (servedFileName: no control or bidi characters,
   * the extension of the sniffed type); shown back to them, never used as a path.
   */
  name: string;
  size: number;
  /** The MIME type found in the content, not the one the browser declared. */
  mime: string;
  ext: string;
}

/** A file part as @fastify/multipart gives it: its name and its stream (truncated once too large). */
export type UploadPart = Pick<MultipartFile, "filename"> & { file: Readable & { truncated: boolean } };

export interface UploadRules {
  /** Extensions (as file-type names them) whose content is accepted. */
  accepted: ReadonlySet<string>;
  keyPrefix: string;
  messages: { tooLarge: string; badContent: string };
  /** The form field named in a refusal ("file" unless said). */
  field?: string;
}

/** The contents accepted for documents, attachments and the contact form (shared with the client). */
export const UPLOAD_CONTENT_TYPES: ReadonlySet<string> = new Set(ACCEPTED_CONTENT_TYPES);

/**
 * Streams one multipart file into storage under `{keyPrefix}/{random}.{ext}`. The type is sniffed
 * from the first bytes (magic numbers), whatever the name or declared type says; the size limit is
 * enforced by @fastify/multipart while streaming. On any failure nothing is left in storage.
 */
export async function storeUpload(
  part: UploadPart,
  storage: Storage,
  rules: UploadRules,
): Promise<StoredFile> {
  const { head, rest, drain } = await peek(part.file, SAMPLE_SIZE);
  const type = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
  if (!type || !rules.accepted.has(type.ext)) {
    // Read the rest so the multipart parser moves on to the next part.
    await drain();
    if (part.file.truncated) throw tooLarge(rules);
    throw new AppError(415, ERROR_CODES.unsupportedMediaType, rules.messages.badContent, {
      [rules.field ?? "file"]: rules.messages.badContent,
    });
  }
  const key = `${rules.keyPrefix}/${randomUUID()}.${type.ext}`;
  let size: number;
  try {
    size = await storage.write(key, rest);
  } catch (error) {
    await storage.remove(key);
    if (isFileTooLarge(error) || part.file.truncated) throw tooLarge(rules);
    throw error;
  }
  if (part.file.truncated) {
    await storage.remove(key);
    throw tooLarge(rules);
  }
  return { key, name: servedFileName(part.filename, type.mime), size, mime: type.mime, ext: type.ext };
}

/** Enough of the start of a file for every signature file-type knows. */
const SAMPLE_SIZE = 4100;

/**
 * Reads the first `size` bytes of a stream (fewer if it is shorter, none if empty) and gives back a
 * stream of the whole content, head included, or a way to discard the rest.
 */
async function peek(source: Readable, size: number) {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < size) {
    const { value, done } = await iterator.next();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    length += value.length;
  }
  const head = Buffer.concat(chunks);
  async function* whole() {
    yield head;
    if (ended) return;
    for (;;) {
      const { value, done } = await iterator.next();
      if (done) return;
      yield value;
    }
  }
  const drain = async () => {
    if (ended) return;
    try {
      for (;;) if ((await iterator.next()).done) return;
    } catch {
      // A size-limit error while discarding: the caller reports the refusal it already knows.
    }
  };
  return { head, rest: Readable.from(whole()), drain };
}

function tooLarge(rules: UploadRules) {
  return new AppError(413, ERROR_CODES.payloadTooLarge, rules.messages.tooLarge, {
    [rules.field ?? "file"]: rules.messages.tooLarge,
  });
}

export function isFileTooLarge(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "FST_REQ_FILE_TOO_LARGE";
}
