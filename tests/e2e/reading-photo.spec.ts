import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { devisPdf, devisPhoto, makeDevis } from "../../src/server/testing/devis-corpus";
import { QUOTE_MESSAGES } from "../../src/shared/schemas/quotes";
import { READING_MESSAGES } from "../../src/shared/schemas/reading";
import { expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { signupPatientViaApi } from "./helpers";

/**
 * Issue 34 in a real browser: a patient photographs her devis with her phone and uploads it as the form
 * types it, "Photo" (the file is named photo-1.jpg), without typing its lines. The server classifies
 * the photo in its reading queue, recognises a devis, reads it, and the request page offers its lines
 * for review with "Nous avons reconnu un devis dans photo-1.jpg". And a devis printing a BR other than
 * the act table's on its date: the review shows both, and the patient chooses.
 */

const DESKTOP = { width: 1280, height: 900 };
/** OCR of a photo takes seconds, behind whatever the queue already holds. */
const READ_TIMEOUT = 120_000;

let dir = "";
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sourio-e2e-photo-"));
});
test.afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

test.describe("une photo de devis envoyée comme « Photo » (issue 34)", () => {
  test("est reconnue comme un devis, lue, et ses lignes sont proposées à la vérification", async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    // Seed 3: a devis of 6 January 2026, HBLD245 and HBLD491, photographed (tilted, blurred, JPEG).
    const devis = makeDevis(3);
    expect(devis.lines.map((l) => l.code)).toEqual(["HBLD245", "HBLD491"]);
    const file = path.join(dir, "photo-1.jpg");
    writeFileSync(file, await devisPhoto(devis));

    await signupPatientViaApi(page.request, { firstName: "Inès", lastName: "Photo" });
    let requestId = "";
    await test.step("elle envoie la photo telle que le formulaire la type : « Photo »", async () => {
      await page.goto("/patient/upload");
      await page.getByLabel("Choisir des fichiers").setInputFiles(file);
      await expect(page.getByRole("combobox", { name: "Type de document pour photo-1.jpg" })).toHaveText(
        "Photo",
      );
      await page.getByRole("combobox", { name: /Type de traitement/ }).click();
      await page.getByRole("option", { name: "Couronne" }).click();
      await page.getByRole("checkbox", { name: /J'accepte que mes documents soient consultés/ }).click();
      const answer = page.waitForResponse(
        (r) => r.url().endsWith("/api/patient/requests") && r.request().method() === "POST",
      );
      await page.getByRole("button", { name: "Envoyer ma demande" }).click();
      const created = await answer;
      expect(created.status(), await created.text()).toBe(201);
      requestId = ((await created.json()) as { id: string }).id;
    });

    await test.step("la demande propose les lignes lues : « Nous avons reconnu un devis dans photo-1.jpg »", async () => {
      await page.goto(`/patient/request/${requestId}`);
      const card = page.getByRole("region", { name: "Mon devis" });
      // Nothing is said while the photo is classified; the live event brings the lines read.
      await expect(card.getByRole("status")).toContainText(READING_MESSAGES.recognised("photo-1.jpg"), {
        timeout: READ_TIMEOUT,
      });
      await expect(card.getByRole("status")).toContainText(READING_MESSAGES.done);
      await expect(
        card.getByRole("heading", { name: "Vérifiez les lignes lues sur votre devis" }),
      ).toBeVisible();
      await expect(card.getByRole("group", { name: /^Acte \d$/ })).toHaveCount(2);
      await expect(
        card.getByRole("group", { name: "Acte 1" }).getByRole("list", { name: "Acte 1 : remboursement" }),
      ).toContainText("HBLD245");
      await expect(
        card.getByRole("group", { name: "Acte 2" }).getByRole("list", { name: "Acte 2 : remboursement" }),
      ).toContainText("HBLD491");
      // The document keeps the type she gave it, and can be corrected from the request page.
      await expect(page.getByRole("combobox", { name: "Type de document pour photo-1.jpg" })).toHaveText(
        "Photo",
      );
      await expectNoSeriousA11yIssues(page);
    });
  });
});

test.describe("un montant imprimé qui contredit le tarif (issue 34)", () => {
  test("est gardé tel que lu, montré à côté du tarif du jour du devis, et le patient choisit", async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    // Seed 3, a devis of 6 January 2026: HBLD245 (BR 90,00 €) printed with an outdated 77,50 € (AMO 46,50 €).
    const devis = makeDevis(3);
    const first = devis.lines[0] as (typeof devis.lines)[number];
    expect([devis.day, first.code, first.br_cents]).toEqual(["2026-01-06", "HBLD245", 90_00]);
    devis.lines[0] = { ...first, br_cents: 77_50, amo_cents: 46_50 };
    const file = path.join(dir, "devis-ancien-tarif.pdf");
    writeFileSync(file, await devisPdf(devis));

    await signupPatientViaApi(page.request, { firstName: "Paul", lastName: "Tarif" });
    await page.goto("/patient/upload");
    await page.getByLabel("Choisir des fichiers").setInputFiles(file);
    await expect(
      page.getByRole("combobox", { name: "Type de document pour devis-ancien-tarif.pdf" }),
    ).toHaveText("Devis");
    await page.getByRole("combobox", { name: /Type de traitement/ }).click();
    await page.getByRole("option", { name: "Couronne" }).click();
    await page.getByRole("checkbox", { name: /J'accepte que mes documents soient consultés/ }).click();
    const answer = page.waitForResponse(
      (r) => r.url().endsWith("/api/patient/requests") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Envoyer ma demande" }).click();
    const created = await answer;
    expect(created.status(), await created.text()).toBe(201);
    const requestId = ((await created.json()) as { id: string }).id;

    await page.goto(`/patient/request/${requestId}`);
    const card = page.getByRole("region", { name: "Mon devis" });
    await expect(card.getByRole("status")).toContainText(READING_MESSAGES.done, { timeout: READ_TIMEOUT });
    const line = card.getByRole("listitem").filter({ has: page.getByRole("group", { name: "Acte 1" }) });
    await expect(line).toContainText(
      /Lu sur le devis\s:\s77,50\s€\s·\sTarif de l'Assurance Maladie au 6 janvier 2026\s:\s90,00\s€/,
    );
    await expect(line).toContainText(
      /Lu sur le devis\s:\s46,50\s€\s·\sTarif de l'Assurance Maladie au 6 janvier 2026\s:\s54,00\s€/,
    );
    await expectNoSeriousA11yIssues(page);

    const saved = page.waitForRequest(
      (r) => r.url().endsWith(`/requests/${requestId}/quote`) && r.method() === "PUT",
    );
    await line.getByRole("button", { name: /^Utiliser le tarif\s: Base de remboursement, ligne 1$/ }).click();
    await expect(line).toContainText("Tarif retenu");
    await card.getByRole("button", { name: "Enregistrer ces lignes" }).click();
    expect((await saved).postDataJSON()).toMatchObject({
      reading_choices: [
        { line: 0, field: "br_cents", use: "table" },
        { line: 0, field: "amo_cents", use: "read" },
      ],
    });
    await expect(page.getByText(QUOTE_MESSAGES.saved).first()).toBeVisible();
    await expect(card.getByRole("list", { name: "Actes de votre devis" })).toContainText("HBLD245");
  });
});
