import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import { fileTypeFromBuffer } from "file-type/node";
import { PROFILE_MESSAGES } from "../../../shared/schemas/profile";
import { AppError } from "../../errors";
import { AVATAR_TOO_LARGE, avatarPixelsOf, MAX_AVATAR_PIXELS } from "../../files/avatar-image";
import type { Storage } from "../../storage/storage";

export { AVATAR_PIXELS, MAX_AVATAR_PIXELS } from "../../files/avatar-image";

/** Squares and resizes a photo out of the server's process (the reading's preview child, ADR 037). */
export type ResizeAvatar = (data: Uint8Array) => Promise<Buffer>;

const refusal = (status: 413 | 415, message: string) =>
  new AppError(status, status === 413 ? "PAYLOAD_TOO_LARGE" : "UNSUPPORTED_MEDIA_TYPE", message, {
    avatar: message,
  });

/**
 * Reads an uploaded avatar (JPG or PNG by content, 5 MB at most, enforced while streaming), refuses it
 * from its header above MAX_AVATAR_PIXELS, has `resize` square and resize it to 256 px WebP in a bounded
 * process of its own (metadata such as GPS position is dropped) and stores it under a new random key.
 * Returns the key.
 */
export async function storeAvatar(
  part: MultipartFile,
  storage: Storage,
  userId: string,
  resize: ResizeAvatar,
): Promise<string> {
  let input: Buffer;
  try {
    input = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw refusal(413, PROFILE_MESSAGES.avatarTooLarge);
    throw error;
  }
  const type = await fileTypeFromBuffer(input);
  if (!type || !["jpg", "png"].includes(type.ext)) throw refusal(415, PROFILE_MESSAGES.avatarType);
  // The header alone, before anything is decoded: a pixel bomb never reaches a decoder.
  const pixels = await avatarPixelsOf(input);
  if (pixels === null) throw refusal(415, PROFILE_MESSAGES.avatarType);
  if (pixels > MAX_AVATAR_PIXELS) throw refusal(413, PROFILE_MESSAGES.avatarPixels);
  let output: Buffer;
  try {
    output = await resize(input);
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    // Above the pixels, or stopped by the process's time or memory limit (ReadingError).
    if (name === AVATAR_TOO_LARGE || name === "ReadingError")
      throw refusal(413, PROFILE_MESSAGES.avatarPixels);
    throw refusal(415, PROFILE_MESSAGES.avatarType);
  }
  const key = `avatars/${userId}/${randomUUID()}.webp`;
  await storage.write(key, Readable.from(output));
  return key;
}

/** The public address of an avatar key ("avatars/{user}/{file}" → "/api/avatars/{user}/{file}"). */
export function avatarUrl(key: string): string {
  return `/api/${key}`;
}
