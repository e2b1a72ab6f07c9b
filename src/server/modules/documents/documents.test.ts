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

describe("a document's address opened by the browser as a page", () => {
  const open = (url: string, headers: Record<string, string>, as?: Who) =>
    ctx.app.inject({ method: "GET", url, headers: { ...headers, ...(as ? { cookie: as.cookie } : {}) } });
  const page = { "sec-fetch-dest": "document", accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

  it("answers a refusal as a French page with a way back, and the app's own calls in JSON", async () => {
    const { documents } = await createRequest([
      { name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    const url = `/api/documents/${documents[0]?.id}/file?disposition=inline`;

    // Not hers to read (as for a dentist once the request closed): no JSON in her new tab.
    const other = await signUpPatient(ctx.app);
    const refused = await open(url, page, other);
    expect(refused.statusCode).toBe(404);
    expect(refused.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(refused.body).toContain('<html lang="fr">');
    expect(refused.body).toContain("<h1>Document indisponible</h1>");
    expect(refused.body).toContain("<p>Document introuvable.</p>");
    expect(refused.body).toContain('<a href="/">Retour à l\'accueil</a>');

    // Signed out (the session ended): said, with the two sign-in pages.
    const signedOut = await open(url, page);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.body).toContain("<h1>Connexion nécessaire</h1>");
    expect(signedOut.body).toContain('<a href="/login">Connexion patient</a>');
    expect(signedOut.body).toContain('<a href="/dentist/login">Connexion dentiste</a>');

    // A browser without Sec-Fetch-* asking for HTML: the same page.
    const older = await open(url, { accept: "text/html" }, other);
    expect(older.headers["content-type"]).toBe("text/html; charset=utf-8");

    // The app's calls (fetch: Sec-Fetch-Dest empty, or JSON asked): the one error shape.
    const calls: Record<string, string>[] = [
      { "sec-fetch-dest": "empty", accept: "*/*" },
      { accept: "application/json" },
      {},
    ];
    for (const headers of calls) {
      const call = await open(url, headers, other);
      expect(call.statusCode).toBe(404);
      expect(call.json()).toEqual({ error: { code: "NOT_FOUND", message: "Document introuvable." } });
    }

    // Its owner opening it as a page gets the file.
    const own = await open(url, page, patient);
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("application/pdf");
  });
});
