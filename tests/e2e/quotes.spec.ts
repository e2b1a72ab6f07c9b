import type { Locator, Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import {
  loginViaApi,
  offerAsDentist,
  pdfFile,
  postRequestViaApi,
  signupPatientViaApi,
  TINY_PDF,
  toast,
} from "./helpers";

/**
 * Issue 15 in a real browser: the patient enters a two-line devis with the tooth chart and sets 'Ma
 * mutuelle'; a dentist answers from the patient's lines with the 100 % Santé alternative; a second
 * dentist sends a zirconia crown; the patient compares both restes à charge and the saving, tooth by
 * tooth. Each new screen is checked with axe at 1280 px and at 375 px.
 */

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** axe at both widths, then back to the desktop. */
async function axeAtBothWidths(page: Page) {
  await expectNoSeriousA11yIssues(page);
  await page.setViewportSize(PHONE);
  await expectNoSeriousA11yIssues(page);
  // Nothing wider than the phone's screen but what scrolls on purpose (tables).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "pas de défilement horizontal de la page à 375 px").toBeLessThanOrEqual(1);
  await page.setViewportSize(DESKTOP);
}

/** Chooses a tooth on the chart of a line, then an act by plain words, then types the fee. */
async function fillLine(line: Locator, page: Page, tooth: number, words: string, code: RegExp, fee: string) {
  await line
    .getByRole("button", { name: /^Dent / })
    .first()
    .click();
  await line.getByRole("button", { name: new RegExp(`^Dent ${tooth} `) }).click();
  await line.getByRole("combobox", { name: "Acte" }).fill(words);
  await page.getByRole("option", { name: code }).click();
  await line.getByRole("textbox", { name: "Honoraires (€)" }).fill(fee);
}

test.describe("devis structurés et reste à charge (issue 15)", () => {
  test("devis ligne par ligne, mutuelle, réponse 100 % Santé reprise du devis, comparaison par reste à charge", async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signupPatientViaApi(page.request, { firstName: "Inès", lastName: "Reste" });

    await test.step("la patiente renseigne sa mutuelle : 200 % de la BR, RO inclus", async () => {
      await page.goto("/patient/profile");
      const form = page.getByRole("form", { name: "Ma mutuelle" });
      await form.getByLabel(/Remboursement des prothèses dentaires/).fill("200");
      await expect(form.getByRole("radio", { name: /RO inclus/ })).toBeChecked();
      await form.getByRole("button", { name: "Enregistrer ma mutuelle" }).click();
      await expect(toast(page, "Votre mutuelle a été enregistrée")).toBeVisible();
      await axeAtBothWidths(page);
    });

    let requestId = "";
    await test.step("elle dépose son devis et le détaille avec le schéma dentaire", async () => {
      await page.goto("/patient/upload");
      await page
        .getByLabel("Choisir des fichiers")
        .setInputFiles([{ name: "devis-couronne-36.pdf", mimeType: "application/pdf", buffer: TINY_PDF }]);
      await page.getByRole("combobox", { name: /Type de traitement/ }).click();
      await page.getByRole("option", { name: "Couronne" }).click();
      await page.getByLabel("Description").fill("Couronne sur la 36 avec inlay-core.");

      await page.getByRole("button", { name: "Ajouter un acte" }).click();
      const crown = page.getByRole("group", { name: "Acte 1" });
      await fillLine(crown, page, 36, "couronne céramique molaire", /HBLD734/, "750");
      await page.getByRole("button", { name: "Ajouter un acte" }).click();
      const core = page.getByRole("group", { name: "Acte 2" });
      await fillLine(core, page, 36, "inlay", /HBLD090/, "250");
      // Her dentist's inlay-core is above its 100 % Santé ceiling: said, not refused.
      await expect(core).toContainText(/au-dessus du plafond 100\s% Santé \(180,25\s€\)/);
      await axeAtBothWidths(page);

      await page.getByRole("checkbox", { name: /J'accepte que mes documents soient consultés/ }).click();
      const answer = page.waitForResponse(
        (r) => r.url().endsWith("/api/patient/requests") && r.request().method() === "POST",
      );
      await page.getByRole("button", { name: "Envoyer ma demande" }).click();
      const created = await answer;
      expect(created.status(), await created.text()).toBe(201);
      requestId = ((await created.json()) as { id: string }).id;
    });

    await test.step("le Dr Martin reprend les actes du devis et propose l'alternative 100 % Santé", async () => {
      const context = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
      const dentist = await context.newPage();
      await dentist.setViewportSize(DESKTOP);
      await loginViaApi(dentist, DEMO.dentist, DEMO_PASSWORD);
      await dentist.goto(`/dentist/quote-request/${requestId}`);
      const devis = dentist.getByRole("list", { name: "Actes du devis du patient" });
      await expect(devis).toContainText("HBLD734");
      await dentist.getByRole("button", { name: "Reprendre les actes du devis" }).click();

      const crown = dentist.getByRole("group", { name: "Acte 1" });
      await expect(crown.getByRole("combobox", { name: "Acte" })).toHaveValue(/Couronne céramo-métallique/);
      // His own fee for this crown, from his last offer naming it (the demo's, 620 €), not her dentist's 750 € (ADR 097).
      await expect(crown.getByRole("textbox", { name: "Honoraires (€)" })).toHaveValue("620,00");
      await expect(dentist.getByText(/Vos derniers honoraires pour cet acte\s:\s620,00\s€/)).toBeVisible();
      await expect(crown).toContainText("Alternative 100 % Santé pour la dent 36");
      // On a molar since 1 January 2026, the 100 % Santé crown is the zirconia one (HBLD073).
      await crown.getByRole("button", { name: "Remplacer l'acte 1" }).click();
      await expect(crown).toContainText("HBLD073");
      await crown.getByRole("textbox", { name: "Honoraires (€)" }).fill("450");
      // The inlay-core at the patient's 250 € is refused on an offer: above its ceiling.
      const core = dentist.getByRole("group", { name: "Acte 2" });
      await expect(core).toContainText(/plafond 100\s% Santé \(180,25\s€\)/);
      await core.getByRole("textbox", { name: "Honoraires (€)" }).fill("180");
      await expect(dentist.getByLabel("Montant de la proposition (€)")).toHaveValue("630");
      await axeAtBothWidths(dentist);
      await dentist.getByRole("button", { name: "Envoyer la proposition" }).click();
      await expect(toast(dentist, "Votre proposition a été envoyée au patient")).toBeVisible();
      await context.close();
    });

    await test.step("la Dr Leroy propose une couronne céramo-métallique moins chère (par l'API) : la page ouverte de la patiente la montre sans rechargement", async () => {
      // The page's live channel open (its 'ready' frame) before the offer, so that its event is not missed.
      const ready = page
        .waitForEvent("websocket", (ws) => ws.url().includes("/api/realtime"))
        .then((ws) => ws.waitForEvent("framereceived", (frame) => String(frame.payload).includes('"ready"')));
      await page.goto(`/patient/request/${requestId}`);
      await ready;
      const main = page.getByRole("main");
      await expect(main.getByText("1 proposition à comparer")).toBeVisible();
      // 600 + 200 = 800 €, tarifs libres.
      await offerAsDentist(browser, baseURL, DEMO.dentist2, requestId, "La même couronne, moins chère.", [
        { code: "HBLD734", act: "Couronne céramo-métallique", tooth: 36, fee_cents: 60_000 },
        { code: "HBLD245", act: "Inlay-core", tooth: 36, fee_cents: 20_000 },
      ]);
      await expect(main.getByText("2 propositions à comparer")).toBeVisible();
      await expect(main.getByText("Dr Sophie Leroy").first()).toBeVisible();
    });

    await test.step("la patiente compare les deux restes à charge et l'économie, dent par dent", async () => {
      await page.goto(`/patient/request/${requestId}`);
      // Her devis at 200 % BR RO inclus: crown 750 − 72 − 168 = 510 €; inlay-core 250 − 180,25 = 69,75 €.
      await expect(page.getByText(/579,75\s€/).first()).toBeVisible();
      await axeAtBothWidths(page);

      await page.goto(`/patient/request/${requestId}/compare`);
      const table = page.getByRole("table", { name: /^Comparaison des propositions/ });
      await expect(table).toBeVisible();
      // The 100 % Santé zirconia offer costs her nothing: the whole 579,75 € saved; the ceramo-metal one
      // 600 − 240 + 200 − 180 = 380 €, 199,75 € saved.
      await expect(page.getByText(/Reste à charge estimé/).first()).toBeVisible();
      await expect(page.locator("main")).toContainText(/0,00\s€/);
      await expect(page.locator("main")).toContainText(/380,00\s€/);
      await expect(page.locator("main")).toContainText(/579,75\s€/);
      await expect(page.locator("main")).toContainText(/199,75\s€/);
      await expect(page.locator("main")).toContainText("100 % Santé");
      const byTooth = page.getByRole("table", { name: "Votre devis et les propositions, dent par dent" });
      await expect(byTooth).toContainText("matériau différent");
      await axeAtBothWidths(page);
    });
  });

  test("un acte hors table repris du devis garde la BR que le devis indique (ADR 038) : aperçu du dentiste et reste à charge de la patiente", async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signupPatientViaApi(page.request, { firstName: "Aude", lastName: "Base" });
    // Her devis, as the reading or the form keep an act outside the table: its code in the free line's
    // text, the BR printed on the devis (40 €). No mutuelle: 90 − 24 = 66 € left to pay.
    const requestId = await postRequestViaApi(
      page.request,
      {
        treatment_type: "crown",
        description: "Restauration sur la 36.",
        quote_lines: JSON.stringify([
          { code: null, act: "HBMD038 · Restauration 2 faces", tooth: 36, fee_cents: 9_000, br_cents: 4_000 },
        ]),
      },
      [pdfFile("devis-restauration.pdf")],
    );

    const context = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
    const dentist = await context.newPage();
    await dentist.setViewportSize(DESKTOP);
    await loginViaApi(dentist, DEMO.dentist2, DEMO_PASSWORD);
    await dentist.goto(`/dentist/quote-request/${requestId}`);
    await dentist.getByRole("button", { name: "Reprendre les actes du devis" }).click();
    const line = dentist.getByRole("group", { name: "Acte 1" });
    await expect(line.getByRole("combobox", { name: "Acte" })).toHaveValue("HBMD038 · Restauration 2 faces");
    await line.getByRole("textbox", { name: "Honoraires (€)" }).fill("80");
    const refund = line.getByRole("list", { name: /remboursement$/ });
    await expect(refund).toContainText(/BR 40,00\s€ \(selon le devis du patient\)/);
    await expect(refund).toContainText(/Assurance Maladie 60\s%\s:\s24,00\s€/);
    await dentist.getByRole("button", { name: "Envoyer la proposition" }).click();
    await expect(toast(dentist, "Votre proposition a été envoyée au patient")).toBeVisible();
    await context.close();

    // Her request page: 80 − 24 = 56 € left (not 80 €), 10 € saved on her 66 €.
    await page.goto(`/patient/request/${requestId}`);
    const main = page.getByRole("main");
    await expect(main).toContainText(/56,00\s€/);
    await expect(main).toContainText(/Économie estimée sur votre reste à charge\s:\s10,00\s€/);
  });
});
