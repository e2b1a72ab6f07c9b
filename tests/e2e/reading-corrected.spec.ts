import { devisScan, makeDevis } from "../../src/server/testing/devis-corpus";
import { QUOTE_MESSAGES } from "../../src/shared/schemas/quotes";
import { READING_MESSAGES } from "../../src/shared/schemas/reading";
import { expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { pdfFile, postRequestViaApi, signupPatientViaApi, toast } from "./helpers";

/**
 * Issue 34 (ADR 043 addenda) in a real browser, on a phone: a scanned devis whose figures OCR reads a
 * digit short where the devis itself proves it — the reading corrects them, flagged, with the value read
 * beside each; the patient keeps the values read (« Garder la valeur lue »), tries the undo from the
 * keyboard, and saves. The server keeps her choice, saves the fee she kept, and computes the reste à
 * charge with the table's BR.
 */

const PHONE = { width: 375, height: 800 };
/** OCR of a scanned page takes seconds, behind whatever the queue already holds. */
const READ_TIMEOUT = 120_000;

test.describe("un montant corrigé par la lecture (issue 34)", () => {
  test("la patiente garde la valeur lue sur le devis, l'annule au clavier, puis enregistre", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    // Seed 3, a devis of 6 January 2026: HBLD245 on the 13 (2 295,45 €, BR 90,00 €, AMO 54,00 €) and
    // HBLD491 on the 15 (566,50 €, BR 120,00 €). Printed a digit short, as OCR often reads them: the
    // BR of the first line "9,00" (its AMO 54,00 € and the table prove 90,00 €) and the fee of the second
    // "56,65" (the printed total, 2 861,95 €, proves 566,50 €).
    const devis = makeDevis(3);
    const [first, second] = devis.lines as [(typeof devis.lines)[number], (typeof devis.lines)[number]];
    expect([devis.day, first.code, first.tooth, first.br_cents, first.amo_cents]).toEqual([
      "2026-01-06",
      "HBLD245",
      13,
      90_00,
      54_00,
    ]);
    expect([second.code, second.fee_cents, devis.total_cents]).toEqual(["HBLD491", 566_50, 2_861_95]);
    devis.lines = [
      { ...first, br_cents: 9_00 },
      { ...second, fee_cents: 56_65 },
    ];
    const scan = await devisScan(devis);

    await signupPatientViaApi(page.request, { firstName: "Léa", lastName: "Scan" });
    const requestId = await postRequestViaApi(
      page.request,
      { treatment_type: "crown", description: "Deux couronnes, devis scanné.", budget: "", quote_amount: "" },
      [pdfFile("devis-scanne.pdf", "quote", scan)],
    );

    await page.goto(`/patient/request/${requestId}`);
    const card = page.getByRole("region", { name: "Mon devis" });
    await expect(card.getByRole("status")).toContainText(READING_MESSAGES.done, { timeout: READ_TIMEOUT });
    const line = (n: number) =>
      card.getByRole("listitem").filter({ has: page.getByRole("group", { name: `Acte ${n}` }) });
    const fee = card.getByRole("group", { name: "Acte 2" }).getByRole("textbox", { name: /^Honoraires/ });

    await test.step("chaque montant corrigé est montré avec la valeur lue, « À vérifier »", async () => {
      await expect(line(1)).toContainText(
        /Base de remboursement\s*À vérifier\s*90,00\s€ — Corrigé d'après le devis \(lu\s:\s9,00\s€\)/,
      );
      await expect(line(2)).toContainText(
        /Honoraires\s*À vérifier\s*566,50\s€ — Corrigé d'après le devis \(lu\s:\s56,65\s€\)/,
      );
      await expect(fee).toHaveValue("566,50");
      await expect(fee).toHaveAccessibleName(/^Honoraires \(€\)\s*À vérifier$/);
      await expectNoSeriousA11yIssues(page);
    });

    await test.step("au clavier : elle garde les honoraires lus, annule, puis les garde", async () => {
      const keepFee = line(2).getByRole("button", {
        name: /^Garder la valeur lue pour les honoraires de l'acte 2\s:\s56,65\s€$/,
      });
      // The field's outline as before any choice (a ring: the amber one, drawn as a box-shadow).
      const outline = await fee.evaluate((el) => getComputedStyle(el).boxShadow);
      expect(outline).toMatch(/0px 0px 0px 3px/);
      await keepFee.focus();
      await page.keyboard.press("Enter");
      await expect(fee).toHaveValue("56,65");
      // Her choice: no longer to check.
      await expect(fee).toHaveAccessibleName(/^Honoraires \(€\)$/);
      await expect(fee).not.toHaveCSS("box-shadow", outline);
      await expect(line(2)).toContainText(/Valeur lue retenue\s:\s56,65\s€/);
      // The same button, its words changed: the focus stayed on it, and shows.
      const undo = line(2).getByRole("button", {
        name: /^Garder la valeur corrigée pour les honoraires de l'acte 2\s:\s566,50\s€$/,
      });
      await expect(undo).toBeFocused();
      await expect(undo).toHaveCSS("outline-style", "solid");
      await page.keyboard.press("Enter");
      await expect(fee).toHaveValue("566,50");
      await expect(line(2)).not.toContainText("Valeur lue retenue");
      // Undone: the field as before the choice, outlined and « À vérifier ».
      await expect(fee).toHaveAccessibleName(/^Honoraires \(€\)\s*À vérifier$/);
      await expect(fee).toHaveCSS("box-shadow", outline);
      await expect(keepFee).toBeFocused();
      await page.keyboard.press("Space");
      await expect(fee).toHaveValue("56,65");
    });

    await test.step("elle garde la base de remboursement lue : gardée avec la lecture, le tarif reste celui du jour", async () => {
      await line(1)
        .getByRole("button", {
          name: /^Garder la valeur lue pour la base de remboursement de l'acte 1\s:\s9,00\s€$/,
        })
        .click();
      await expect(line(1)).toContainText(/Valeur lue retenue\s:\s9,00\s€/);
      await expect(line(1)).toContainText(/le reste à charge reste estimé avec le tarif/);
      // Nothing runs off a 375 px screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await expectNoSeriousA11yIssues(page);
    });

    await test.step("elle enregistre : le serveur garde son choix et calcule le reste à charge", async () => {
      const saved = page.waitForResponse(
        (r) => r.url().endsWith(`/requests/${requestId}/quote`) && r.request().method() === "PUT",
      );
      await card.getByRole("button", { name: "Enregistrer ces lignes" }).click();
      const response = await saved;
      expect(response.status(), await response.text()).toBe(200);
      expect(response.request().postDataJSON()).toMatchObject({
        reading_choices: [{ line: 0, field: "br_cents", use: "read" }],
        lines: [
          { code: "HBLD245", tooth: 13, fee_cents: 2_295_45, br_cents: null },
          { code: "HBLD491", fee_cents: 56_65 },
        ],
      });
      // The server's lines: the fee kept, the table's BR for the act whatever was read.
      expect(
        ((await response.json()) as { lines: { br_cents: number; fee_cents: number }[] }).lines.map((l) => [
          l.fee_cents,
          l.br_cents,
        ]),
      ).toEqual([
        [2_295_45, 90_00],
        [56_65, 120_00],
      ]);
      await expect(toast(page, QUOTE_MESSAGES.saved)).toBeVisible();
      // 2 295,45 − 54,00 (60 % of the table's 90,00 €) + 56,65 − 56,65 (the AMO, no more than the fee)
      // = 2 241,45 € left to pay.
      const lines = card.getByRole("list", { name: "Actes de votre devis" });
      await expect(lines).toContainText(/56,65\s€/);
      await expect(card).toContainText(/2\s241,45\s€/);
      const reading = await page.request.get(`/api/patient/requests/${requestId}/reading`);
      expect(((await reading.json()) as { reading: { choices: unknown } }).reading.choices).toEqual([
        { line: 0, field: "br_cents", use: "read" },
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      await expectNoSeriousA11yIssues(page);
    });
  });
});
