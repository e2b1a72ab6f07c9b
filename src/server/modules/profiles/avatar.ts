import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import { fileTypeFromBuffer } from "file-type/node";
import sharp from "sharp";
import { PROFILE_MESSAGES } from "../../../shared/schemas/profile";
import { AppError } from "../../errors";
import type { Storage } from "../../storage/storage";

export const AVATAR_PIXELS = 256;

/**
 * Reads an uploaded avatar (JPG or PNG by content, 5 MB at most, enforced while streaming), squares
 * and resizes it to 256 px WebP (metadata such as GPS position is dropped) and stores it under a
 * new random key. Returns the key.
 */
export async function storeAvatar(part: MultipartFile, storage: Storage, userId: string): Promise<string> {
  let input: Buffer;
  try {
    input = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
      throw new AppError(413, "PAYLOAD_TOO_LARGE", PROFILE_MESSAGES.avatarTooLarge, {
        avatar: PROFILE_MESSAGES.avatarTooLarge,
      });
    }
    throw error;
  }
  const type = await fileTypeFromBuffer(input);
  if (!type || !["jpg", "png"].includes(type.ext)) {
    throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", PROFILE_MESSAGES.avatarType, {
      avatar: PROFILE_MESSAGES.avatarType,
    });
  }
  let output: Buffer;
  try {
    output = await sharp(input, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize(AVATAR_PIXELS, AVATAR_PIXELS, { fit: "cover" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", PROFILE_MESSAGES.avatarType, {
      avatar: PROFILE_MESSAGES.avatarType,
    });
  }
  const key = `avatars/${userId}/${randomUUID()}.webp`;
  await storage.write(key, Readable.from(output));
  return key;
}

/** The public address of an avatar key ("avatars/{user}/{file}" → "/api/avatars/{user}/{file}"). */
export function avatarUrl(key: string): string {
  return `/api/${key}`;
}
