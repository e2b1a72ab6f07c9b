import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { CONTACT_MESSAGES, CONTACT_NAME_MAX_LENGTH } from "../../../shared/schemas/contact";
import { fakeExe, multipart, pdfOfSize, tinyPdf, tinyPng } from "../../testing/files";
import { createTestContext, type TestContext } from "../../testing/harness";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { CONTACT_RATE_LIMIT_PER_HOUR: "1000" } });
});
afterAll(async () => ctx?.close());

const valid = {
  name: "Jeanne Martin",
  email: "jeanne@example.com",
  treatment_type: "implant",
  message: "Bonjour",
};
type Upload = { field: string; name: string; type: string; content: Buffer };
const send = (fields: Record<string, string>, files: Upload[] = []) => {
  const body = multipart(fields, files);
  return ctx.app.inject({ method: "POST", url: "/api/contact", ...body });
};
// On the disk or, in TEST_S3 runs, in the bucket.
const storedFiles = () =>
  ctx
    .storedKeys()
    .filter((key) => key.startsWith("contact/"))
    .map((key) => key.slice("contact/".length));
const rows = () => ctx.app.db.selectFrom("contact_submissions").selectAll().execute();

describe("contact form", () => {
  it("stores a message with a PDF whose type is read from its content", async () => {
    const response = await send(valid, [
      { field: "file", name: "mon devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toBe("Votre message a été envoyé avec succès !");
    const row = (await rows()).find((r) => r.id === response.json().id);
    expect(row).toMatchObject({
      name: "Jeanne Martin",
      email: "jeanne@example.com",
      treatment_type: "implant",
      file_name: "mon devis.pdf",
      file_type: "application/pdf",
    });
    expect(row?.file_key).toMatch(/^contact\/[0-9a-f-]{36}\.pdf$/);
    expect(await ctx.app.storage.size(row?.file_key ?? "")).toBe(tinyPdf().length);
  });

  it("accepts a message without a file, and a PNG", async () => {
    expect((await send({ name: "A", email: "a@example.com", message: "Bonjour" })).statusCode).toBe(201);
    const png = await send(valid, [
      { field: "file", name: "photo.png", type: "image/png", content: tinyPng() },
    ]);
    expect(png.statusCode).toBe(201);
  });

  it.each([
    [{ ...valid, name: "  " }, "name"],
    [{ ...valid, email: "" }, "email"],
  ])("requires name and email: %o", async (fields, field) => {
    const response = await send(fields);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe("Veuillez remplir tous les champs obligatoires");
    expect(response.json().error.fields[field]).toBeDefined();
  });

  it("says the name's limit when the name is too long, and takes a name at the limit", async () => {
    const response = await send({ ...valid, name: "a".repeat(400) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe("Le nom ne peut pas dépasser 200 caractères");
    expect(response.json().error.fields).toEqual({ name: "Le nom ne peut pas dépasser 200 caractères" });
    const atLimit = await send({ ...valid, name: "a".repeat(CONTACT_NAME_MAX_LENGTH) });
    expect(atLimit.statusCode).toBe(201);
  });

  it("requires a message or a file: name and e-mail alone are refused, a file alone is taken", async () => {
    const count = (await rows()).length;
    for (const message of [undefined, "", "   "]) {
      const fields: Record<string, string> = { name: "Jeanne Martin", email: "jeanne@example.com" };
      if (message !== undefined) fields.message = message;
      const response = await send(fields);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ message: CONTACT_MESSAGES.messageOrFile });
      expect(response.json().error.message).toBe("Veuillez écrire un message ou joindre un fichier");
    }
    expect(await rows()).toHaveLength(count);

    const fileAlone = await send({ name: "Jeanne Martin", email: "jeanne@example.com", message: " " }, [
      { field: "file", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    expect(fileAlone.statusCode).toBe(201);
    const row = (await rows()).find((r) => r.id === fileAlone.json().id);
    expect(row).toMatchObject({ message: "", file_name: "devis.pdf" });
  });

  it("names every refused field at once, the missing message with the others", async () => {
    const response = await send({ name: "", email: "pas-un-email" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      name: CONTACT_MESSAGES.required,
      email: CONTACT_MESSAGES.emailInvalid,
      message: CONTACT_MESSAGES.messageOrFile,
    });
  });

  it("refuses a renamed executable by its content, keeps nothing", async () => {
    const before = storedFiles().length;
    const count = (await rows()).length;
    const response = await send(valid, [
      { field: "file", name: "devis.pdf", type: "application/pdf", content: fakeExe() },
    ]);
    expect(response.statusCode).toBe(415);
    expect(response.json().error.message).toMatch(/ne correspond pas à un format accepté/);
    expect(storedFiles()).toHaveLength(before);
    expect(await rows()).toHaveLength(count);
  });

  it("refuses a file over 10 MB while streaming, keeps nothing", async () => {
    const before = storedFiles().length;
    const count = (await rows()).length;
    const response = await send(valid, [
      { field: "file", name: "gros.pdf", type: "application/pdf", content: pdfOfSize(MAX_FILE_SIZE + 1024) },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe("Le fichier est trop volumineux (max 10MB)");
    expect(storedFiles()).toHaveLength(before);
    expect(await rows()).toHaveLength(count);
  });

  it("accepts a file of exactly 10 MB", async () => {
    const response = await send(valid, [
      { field: "file", name: "juste.pdf", type: "application/pdf", content: pdfOfSize(MAX_FILE_SIZE) },
    ]);
    expect(response.statusCode).toBe(201);
  });

  it("removes the stored file when the fields are invalid", async () => {
    const before = storedFiles().length;
    const response = await send({ ...valid, email: "pas-un-email" }, [
      { field: "file", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    expect(response.statusCode).toBe(400);
    expect(storedFiles()).toHaveLength(before);
  });

  it("answers success to a filled honeypot but stores nothing", async () => {
    const count = (await rows()).length;
    const response = await send({ ...valid, website: "http://spam.example" });
    expect(response.statusCode).toBe(201);
    expect(await rows()).toHaveLength(count);
  });

  it("answers success to a filled honeypot with a file, and keeps neither the message nor the file", async () => {
    const count = (await rows()).length;
    const before = storedFiles().length;
    const response = await send({ ...valid, website: "http://spam.example" }, [
      { field: "file", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    expect(response.statusCode).toBe(201);
    expect(await rows()).toHaveLength(count);
    expect(storedFiles()).toHaveLength(before);
  });

  it("refuses a second file with a French 413 and keeps neither the message nor the first file", async () => {
    const count = (await rows()).length;
    const before = storedFiles().length;
    const response = await send(valid, [
      { field: "file", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
      { field: "file", name: "photo.png", type: "image/png", content: tinyPng() },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.fields.file).toBe("Un seul fichier peut être joint au message.");
    expect(await rows()).toHaveLength(count);
    expect(storedFiles()).toHaveLength(before);
  });

  it("refuses a JSON body", async () => {
    const response = await ctx.app.inject({ method: "POST", url: "/api/contact", payload: valid });
    expect(response.statusCode).toBe(415);
  });
});

describe("contact rate limit", () => {
  it("answers 429 with a French message past the hourly limit per IP", async () => {
    const limited = await createTestContext({ env: { CONTACT_RATE_LIMIT_PER_HOUR: "2" } });
    try {
      const post = () => limited.app.inject({ method: "POST", url: "/api/contact", ...multipart(valid) });
      expect((await post()).statusCode).toBe(201);
      expect((await post()).statusCode).toBe(201);
      const blocked = await post();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.message).toMatch(/réessayer dans une heure/);
    } finally {
      await limited.close();
    }
  });
});
