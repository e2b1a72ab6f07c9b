import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import { fileTypeStream } from "file-type/node";
import { ERROR_CODES } from "../shared/schemas/common";
import { AppError } from "./errors";
import type { Storage } from "./storage/storage";

export interface StoredFile {
  key: string;
  /** The name the person gave the file (shown back to them, never used as a path). */
  name: string;
  size: number;
  /** The MIME type found in the content, not the one the browser declared. */
  mime: string;
  ext: string;
}

export interface UploadRules {
  /** Extensions (as file-type names them) whose content is accepted. */
  accepted: ReadonlySet<string>;
  keyPrefix: string;
  messages: { tooLarge: string; badContent: string };
}

/** Content types recognised for the product's uploads: pdf, jpg, png, mp4, mov, avi, mkv. */
export const DOCUMENT_TYPES: ReadonlySet<string> = new Set(["pdf", "jpg", "png", "mp4", "mov", "avi", "mkv"]);

/**
 * Streams one multipart file into storage under `{keyPrefix}/{random}.{ext}`. The type is sniffed
 * from the first bytes (magic numbers), whatever the name or declared type says; the size limit is
 * enforced by @fastify/multipart while streaming. On any failure nothing is left in storage.
 */
export async function storeUpload(
  part: MultipartFile,
  storage: Storage,
  rules: UploadRules,
): Promise<StoredFile> {
  const typed = await fileTypeStream(part.file as Readable, { sampleSize: 4100 });
  const type = typed.fileType;
  if (!type || !rules.accepted.has(type.ext)) {
    typed.resume();
    await new Promise((resolve) => typed.once("end", resolve).once("error", resolve).once("close", resolve));
    throw new AppError(415, ERROR_CODES.unsupportedMediaType, rules.messages.badContent, {
      file: rules.messages.badContent,
    });
  }
  const key = `${rules.keyPrefix}/${randomUUID()}.${type.ext}`;
  let size: number;
  try {
    size = await storage.write(key, typed);
  } catch (error) {
    await storage.remove(key);
    if (isFileTooLarge(error) || part.file.truncated) throw tooLarge(rules);
    throw error;
  }
  if (part.file.truncated) {
    await storage.remove(key);
    throw tooLarge(rules);
  }
  return { key, name: cleanFileName(part.filename), size, mime: type.mime, ext: type.ext };
}

function tooLarge(rules: UploadRules) {
  return new AppError(413, ERROR_CODES.payloadTooLarge, rules.messages.tooLarge, {
    file: rules.messages.tooLarge,
  });
}

export function isFileTooLarge(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "FST_REQ_FILE_TOO_LARGE";
}

/** Keeps a display name: no path, no control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (cleaned || "fichier").slice(0, 200);
}
