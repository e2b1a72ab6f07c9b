import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { devisPdf, devisPhoto, makeDevis } from "../../src/server/testing/devis-corpus";
import { QUOTE_MESSAGES } from "../../src/shared/schemas/quotes";
import { READING_MESSAGES } from "../../src/shared/schemas/reading";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { offerAsDentist, postRequestViaApi, signupPatientViaApi, toast } from "./helpers";

/**
 * Issue 17 in a real browser: a patient uploads the devis PDF her dentist gave her (a generated devis
 * normalisé, typed 'Devis', no line typed); the request page says it is reading it, then shows the
 * lines read, live; she corrects a fee and saves the lines; 'Mon devis' then holds the structured
 * quote, and a dentist's offer shows its reste à charge against it. A damaged file says so plainly
 * and the lines are typed by hand.
 */

const DESKTOP = { width: 1280, height: 900 };
/** Reading waits behind the queue (one devis at a time per instance): OCR of a photo takes seconds. */
const READ_TIMEOUT = 120_000;

let dir = "";
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sourio-e2e-devis-"));
});
test.afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Another patient's request with a photo of a devis, through the API (its own cookie jar): the
 * server reads one devis at a time, so a devis uploaded right after it waits, and its page shows
 * "Lecture du devis…" until the reading arrives.
 */
async function queuePhotoDevis(api: APIRequestContext, photo: Buffer): Promise<void> {
  await postRequestViaApi(api, { treatment_type: "crown" }, [
    { bytes: photo, name: "photo-devis.jpg", type: "image/jpeg", documentType: "quote" },
  ]);
}

/**
 * Uploads one file through the form (its type guessed 'Devis'), for a crown; `beforeSending` runs
 * just before the form is sent. Returns the request's id.
 */
async function uploadDevis(page: Page, file: string, beforeSending?: () => Promise<void>): Promise<string> {
  await page.goto("/patient/upload");
  await page.getByLabel("Choisir des fichiers").setInputFiles(file);
  await expect(
    page.getByRole("combobox", { name: `Type de document pour ${path.basename(file)}` }),
  ).toHaveText("Devis");
  await page.getByRole("combobox", { name: /Type de traitement/ }).click();
  await page.getByRole("option", { name: "Couronne" }).click();
  await page.getByRole("checkbox", { name: /J'accepte que mes documents soient consultés/ }).click();
  await beforeSending?.();
  const answer = page.waitForResponse(
    (r) => r.url().endsWith("/api/patient/requests") && r.request().method() === "POST",
  );
  await page.getByRole("button", { name: "Envoyer ma demande" }).click();
  const created = await answer;
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** 'Mon devis' on the request page. */
const myQuote = (page: Page): Locator => page.getByRole("region", { name: "Mon devis" });

test.describe("lecture du devis déposé (issue 17)", () => {
  test("le devis PDF est lu en direct, la patiente corrige des honoraires et enregistre les lignes ; la proposition d'un dentiste montre son reste à charge", async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    await page.setViewportSize(DESKTOP);
    // Seed 191, a devis of 12 February 2026: HBLD418 on the 27 (2 405,00 €, BR 107,50 €, Assurance
    // Maladie 64,50 €) and HBLD403 on the 13 (1 350,00 €, BR 120 €, Assurance Maladie 72 €), 'tarifs libres'.
    const devis = makeDevis(191);
    expect(devis.day).toBe("2026-02-12");
    expect(devis.lines.map((l) => [l.tooth, l.code, l.fee_cents])).toEqual([
      [27, "HBLD418", 240_500],
      [13, "HBLD403", 135_000],
    ]);
    const file = path.join(dir, "devis-dupont.pdf");
    writeFileSync(file, await devisPdf(devis));

    // Two photos of another patient's devis, queued just before hers: she sees her devis wait.
    await signupPatientViaApi(request, { firstName: "Zoé", lastName: "Attente" });
    const photos = [await devisPhoto(makeDevis(5)), await devisPhoto(makeDevis(6))];

    await signupPatientViaApi(page.request, { firstName: "Léa", lastName: "Lecture" });
    let requestId = "";
    await test.step("elle dépose son devis PDF sans en saisir les lignes", async () => {
      requestId = await uploadDevis(page, file, async () => {
        for (const photo of photos) await queuePhotoDevis(request, photo);
      });
    });

    const card = myQuote(page);
    await test.step("la demande dit « Lecture du devis… », puis les lignes lues arrivent en direct", async () => {
      await page.goto(`/patient/request/${requestId}`);
      await expect(card.getByRole("status")).toContainText(READING_MESSAGES.pending);
      await expectNoSeriousA11yIssues(page);
      // No reload: the realtime event (or the page's own refresh) brings the reading.
      await expect(card.getByRole("status")).toContainText(READING_MESSAGES.done, { timeout: READ_TIMEOUT });
      await expect(
        card.getByRole("heading", { name: "Vérifiez les lignes lues sur votre devis" }),
      ).toBeVisible();
      await expect(card.getByRole("group", { name: /^Acte \d$/ })).toHaveCount(2);
      const first = card.getByRole("group", { name: "Acte 1" });
      const second = card.getByRole("group", { name: "Acte 2" });
      await expect(first.getByRole("button", { name: /^Dent 27/ }).first()).toBeVisible();
      await expect(first.getByRole("combobox", { name: "Acte" })).toHaveValue(/HBLD418|[Cc]ouronne/);
      await expect(first.getByRole("textbox", { name: /^Honoraires \(€\)/ })).toHaveValue("2 405,00");
      await expect(second.getByRole("button", { name: /^Dent 13/ }).first()).toBeVisible();
      await expect(second.getByRole("textbox", { name: /^Honoraires \(€\)/ })).toHaveValue("1 350,00");
      await expect(second.getByRole("list", { name: "Acte 2 : remboursement" })).toContainText("HBLD403");
      // The date printed on the devis is read: its tariffs are the ones applied.
      await expect(card.getByLabel("Date du devis")).toHaveValue("2026-02-12");
      // The page itself is shown beside the lines.
      await expect(card.getByRole("img", { name: /devis-dupont\.pdf/ }).first()).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });

    await test.step("elle corrige les honoraires de la 13 et enregistre ces lignes", async () => {
      await card
        .getByRole("group", { name: "Acte 2" })
        .getByRole("textbox", { name: /^Honoraires \(€\)/ })
        .fill("1250");
      await card.getByRole("button", { name: "Enregistrer ces lignes" }).click();
      await expect(toast(page, QUOTE_MESSAGES.saved)).toBeVisible();
      // 'Mon devis' now holds the structured quote: 2 405 + 1 250 − 64,50 − 72 = 3 518,50 € left to pay.
      const lines = card.getByRole("list", { name: "Actes de votre devis" });
      await expect(lines).toContainText("HBLD418");
      await expect(lines).toContainText("HBLD403");
      await expect(lines).toContainText(/1\s250,00\s€/);
      await expect(card).toContainText(/3\s518,50\s€/);
      await expect(card.getByRole("button", { name: "Enregistrer ces lignes" })).toHaveCount(0);
      await expectNoSeriousA11yIssues(page);
      // Saved, not only shown: a reload shows the same lines, and no reading to check any more.
      await page.reload();
      await expect(myQuote(page).getByRole("list", { name: "Actes de votre devis" })).toContainText(
        /1\s250,00\s€/,
      );
      await expect(myQuote(page).getByText(READING_MESSAGES.done)).toHaveCount(0);
    });

    await test.step("le Dr Martin répond : le reste à charge de sa proposition et l'économie", async () => {
      // 2 000 + 1 100 = 3 100 €.
      await offerAsDentist(browser, baseURL, DEMO.dentist, requestId, "Mêmes actes, prix du cabinet.", [
        { code: "HBLD418", act: "Couronne sur implant", tooth: 27, fee_cents: 200_000 },
        { code: "HBLD403", act: "Couronne céramique", tooth: 13, fee_cents: 110_000 },
      ]);

      // 3 100 − 64,50 − 72 = 2 963,50 € left to pay; 3 518,50 − 2 963,50 = 555 € saved.
      await page.goto(`/patient/request/${requestId}`);
      const offer = page.getByRole("list", { name: "Propositions reçues" }).getByRole("listitem", {
        name: /^Proposition du Dr /,
      });
      await expect(offer).toContainText("Reste à charge estimé");
      await expect(offer).toContainText(/2\s963,50\s€/);
      await expect(offer).toContainText(/Économie estimée sur votre reste à charge\s:\s555,00\s€/);
      await expectNoSeriousA11yIssues(page);
    });
  });

  test("un devis illisible le dit simplement, et les lignes se saisissent à la main", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signupPatientViaApi(page.request, { firstName: "Hugo", lastName: "Illisible" });
    // A PDF by its first bytes (the upload accepts it), then garbage: nothing pdf.js can open.
    const garbage = Buffer.alloc(4096);
    for (let i = 0; i < garbage.length; i += 1) garbage[i] = (i * 73 + 41) & 0xff;
    const file = path.join(dir, "devis-abime.pdf");
    writeFileSync(file, Buffer.concat([Buffer.from("%PDF-1.7\n"), garbage]));

    const requestId = await uploadDevis(page, file);
    await page.goto(`/patient/request/${requestId}`);
    const card = myQuote(page);
    await expect(card.getByRole("status")).toContainText(READING_MESSAGES.failed, { timeout: READ_TIMEOUT });
    await expect(card.getByRole("status")).toContainText(READING_MESSAGES.damaged);
    await expect(card.getByRole("status")).toContainText("devis-abime.pdf");
    await expectNoSeriousA11yIssues(page);

    await card.getByRole("button", { name: "Saisir mon devis ligne par ligne" }).click();
    const line = card.getByRole("group", { name: "Acte 1" });
    await line
      .getByRole("button", { name: /^Dent / })
      .first()
      .click();
    await line.getByRole("button", { name: /^Dent 36 / }).click();
    await line.getByRole("combobox", { name: "Acte" }).fill("couronne céramique molaire");
    await page.getByRole("option", { name: /HBLD734/ }).click();
    await line.getByRole("textbox", { name: "Honoraires (€)" }).fill("750");
    await card.getByRole("button", { name: "Enregistrer mon devis" }).click();
    await expect(toast(page, QUOTE_MESSAGES.saved)).toBeVisible();
    await expect(card.getByRole("list", { name: "Actes de votre devis" })).toContainText("HBLD734");
    await expect(card.getByRole("list", { name: "Actes de votre devis" })).toContainText(/750,00\s€/);
    await expect(card.getByText(READING_MESSAGES.failed)).toHaveCount(0);
  });
});
