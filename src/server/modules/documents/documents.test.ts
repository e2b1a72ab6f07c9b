import { beforeAll, describe, expect, it } from "vitest";
import { tinyPdf, tinyPng, zipEntries } from "../../testing/files";
import { appPerFile, newRequestId, radioPng, type UploadFile } from "../../testing/harness";
import { api, dentist as signUpDentist, patient as signUpPatient, type Who } from "../../testing/people";

/** Issue 13, item 6: a download's name follows the type found in the content, never the uploader's. */

const ctx = appPerFile({ env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent" } });
const { get } = api(ctx);
let patient: Who;
let dentist: Who;

beforeAll(async () => {
  patient = await signUpPatient(ctx.app);
  dentist = await signUpDentist(ctx.app);
});

/** A PDF that is also an HTML page: what `devis.hta` held in the report. */
const polyglot = () =>
  Buffer.concat([
    tinyPdf(),
    Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>"),
  ]);

async function createRequest(files: UploadFile[]) {
  const id = await newRequestId(ctx.app, patient.cookie, files);
  const detail = (await get(`/api/patient/requests/${id}`, patient)).json();
  return { id, documents: detail.documents as Array<{ id: string; file_name: string }> };
}

describe("served file names", () => {
  it("stores and serves a file under the extension of its content, without bidi characters", async () => {
    const { documents } = await createRequest([
      { name: "devis.hta", type: "application/hta", content: polyglot() },
      { name: "radio.svg", type: "image/svg+xml", content: tinyPng() },
      { name: "devis\u202egnp.exe", type: "image/png", content: tinyPng() },
    ]);
    expect(documents.map((d) => d.file_name)).toEqual(["devis.pdf", "radio.png", "devisgnp.png"]);

    const expected = [
      ["application/pdf", "devis.pdf"],
      ["image/png", "radio.png"],
      ["image/png", "devisgnp.png"],
    ];
    for (const [i, document] of documents.entries()) {
      const [type, name] = expected[i] as [string, string];
      for (const disposition of ["attachment", "inline"]) {
        const file = await get(`/api/documents/${document.id}/file?disposition=${disposition}`, patient);
        expect(file.statusCode).toBe(200);
        expect(file.headers["content-type"]).toBe(type);
        expect(file.headers["x-content-type-options"]).toBe("nosniff");
        expect(file.headers["content-disposition"]).toBe(
          `${disposition}; filename="${name}"; filename*=UTF-8''${name}`,
        );
      }
    }
  });

  it("serves rows stored before the rule under their served name, in the zip too", async () => {
    const { id, documents } = await createRequest([
      { name: "devis.pdf", type: "application/pdf", content: polyglot() },
      radioPng(),
      { name: "photo.png", type: "image/png", content: tinyPng() },
    ]);
    // Names as an earlier version kept them: the uploader's extension, bidi controls included.
    const oldNames = ["devis.hta", "radio.svg", "photo\u202egnp.exe"];
    for (const [i, document] of documents.entries())
      await ctx.app.db
        .updateTable("documents")
        .set({ file_name: oldNames[i] as string })
        .where("id", "=", document.id)
        .execute();

    const served = [];
    for (const document of documents) {
      const file = await get(`/api/documents/${document.id}/file`, dentist);
      expect(file.statusCode).toBe(200);
      served.push(file.headers["content-disposition"]);
    }
    expect(served).toEqual([
      `attachment; filename="devis.pdf"; filename*=UTF-8''devis.pdf`,
      `attachment; filename="radio.png"; filename*=UTF-8''radio.png`,
      `attachment; filename="photognp.png"; filename*=UTF-8''photognp.png`,
    ]);

    const zip = await get(`/api/dentist/requests/${id}/documents.zip`, dentist);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers["content-type"]).toBe("application/zip");
    expect(zip.headers["x-content-type-options"]).toBe("nosniff");
    expect(zip.headers["content-disposition"]).toMatch(/^attachment; filename="documents-[0-9a-f]{8}\.zip"/);
    expect((await zipEntries(zip.rawPayload)).map((entry) => entry.name)).toEqual([
      "devis.pdf",
      "radio.png",
      "photognp.png",
    ]);
  });
});
