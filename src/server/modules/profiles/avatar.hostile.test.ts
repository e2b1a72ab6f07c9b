import type { MultipartFile } from "@fastify/multipart";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { PROFILE_MESSAGES } from "../../../shared/schemas/profile";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { AppError } from "../../errors";
import { MAX_AVATAR_PIXELS } from "../../files/avatar-image";
import type { Storage } from "../../storage/storage";
import { multipart, tinyPng } from "../../testing/files";
import { appPerFile, signUpPatient } from "../../testing/harness";
import { bigJpeg, heavyImage, jpegBomb, pngBomb } from "../../testing/hostile-files";
import { expectServerUnaffected, whileProbing } from "../../testing/probe";
import { ReadingError } from "../reading/types";
import { type ResizeAvatar, storeAvatar } from "./avatar";

/**
 * Hostile profile photos (issue 32): pixel bombs and huge real images, sent as an avatar through the
 * real app. A photo above MAX_AVATAR_PIXELS is refused from its header (French 413 on the field), one
 * within it is decoded in the preview's own process; meanwhile the server keeps answering /api/health
 * and its memory grows by less than 150 MB. A refusal leaves neither a file nor a new avatar.
 */

const ctx = appPerFile();
let cookie: string;
let userId: string;

beforeAll(async () => {
  cookie = (await signUpPatient(ctx.app)).cookie;
  const me = await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  userId = me.json().profile.id as string;
  // The preview's process started beforehand: its start is not the photo's doing.
  await ctx.app.readings.previewSandbox.warm();
});

const upload = (content: Buffer, name: string, type: string) => {
  const body = multipart({}, [{ field: "avatar", name, type, content }]);
  return ctx.app.inject({
    method: "POST",
    url: "/api/me/avatar",
    payload: body.payload,
    headers: { ...body.headers, cookie },
  });
};

const storedAvatars = () => ctx.storedKeys().filter((key) => key.startsWith(`avatars/${userId}/`));
const currentAvatar = async () =>
  (await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).json().profile.avatar_url as
    | string
    | null;

describe("hostile avatars", () => {
  it.each([
    ["a 16 000 × 16 000 PNG of zeros", "moi.png", "image/png", pngBomb],
    ["a JPEG whose header claims 60 000 × 60 000", "moi.jpg", "image/jpeg", jpegBomb],
    ["a real 12 000 × 12 000 JPEG", "moi.jpg", "image/jpeg", bigJpeg],
    [
      "a real 7 000 × 7 000 interlaced PNG (49 M pixels)",
      "moi.png",
      "image/png",
      () => heavyImage("png", 7000),
    ],
    ["a real 7 000 × 7 000 progressive JPEG", "moi.jpg", "image/jpeg", () => heavyImage("jpeg", 7000)],
  ] as const)(
    "%s: refused from its header (413, in French), the server unaffected",
    async (name, file, type, make) => {
      const content = await make();
      expect(content.length).toBeLessThan(1_000_000);
      const before = { avatar: await currentAvatar(), files: storedAvatars() };
      const measured = await whileProbing(ctx.app, () => upload(content, file, type));
      expectServerUnaffected(name, measured);
      const response = measured.value;
      expect(response.statusCode, response.body).toBe(413);
      expect(response.json().error).toMatchObject({
        message: PROFILE_MESSAGES.avatarPixels,
        fields: { avatar: PROFILE_MESSAGES.avatarPixels },
      });
      expect(await currentAvatar()).toBe(before.avatar);
      expect(storedAvatars()).toEqual(before.files);
    },
  );

  it.each([
    ["a 5 000 × 5 000 interlaced PNG (25 M pixels)", "moi.png", "image/png", "png"],
    ["a 5 000 × 5 000 progressive JPEG", "moi.jpg", "image/jpeg", "jpeg"],
  ] as const)(
    "%s: within the cap, decoded out of the server's process into a 256 px avatar",
    async (name, file, type, format) => {
      const content = await heavyImage(format, 5000);
      expect(5000 * 5000).toBeLessThanOrEqual(MAX_AVATAR_PIXELS);
      const measured = await whileProbing(ctx.app, () => upload(content, file, type));
      expectServerUnaffected(name, measured);
      // Its decoding (~75 to ~110 MB when done in the server's process) is the preview process's cost.
      expect(measured.rssGrowthMb, `${name}: server RSS growth`).toBeLessThan(40);
      expect(measured.value.statusCode, measured.value.body).toBe(200);
      const url = measured.value.json().profile.avatar_url as string;
      const image = await ctx.app.inject({ method: "GET", url });
      const meta = await sharp(image.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", 256, 256]);
      expect(storedAvatars()).toHaveLength(1);
    },
  );
});

describe("an avatar stopped in its process", () => {
  const part = (content: Buffer) => ({ toBuffer: async () => content }) as unknown as MultipartFile;
  const refusal = async (resize: ResizeAvatar) => {
    const error = await storeAvatar(part(tinyPng(40, 40)), {} as Storage, userId, resize).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    return { status: error.statusCode, message: error.message, fields: error.fields };
  };

  it("past its time or memory limit: refused as too large (413, in French), never a 500", async () => {
    for (const message of [READING_MESSAGES.timeout, READING_MESSAGES.failed])
      expect(
        await refusal(async () => {
          throw new ReadingError(message);
        }),
      ).toEqual({
        status: 413,
        message: PROFILE_MESSAGES.avatarPixels,
        fields: { avatar: PROFILE_MESSAGES.avatarPixels },
      });
  });

  it("an image its process cannot decode: refused as not a JPG or PNG (415)", async () => {
    expect(
      await refusal(async () => {
        throw new Error("lecture impossible");
      }),
    ).toMatchObject({ status: 415, message: PROFILE_MESSAGES.avatarType });
  });
});
