import type { Locator, Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { fileRequestViaApi, loginViaApi, signupPatientViaApi } from "./helpers";

/**
 * A dentist's work in one place (issue 16, item 2): 'Demandes' in the menu with its counter, the
 * dashboard's "À faire" first, its counters following a patient's new request live (no reload).
 */

/** The number in a counter (the menu's "Demandes, 3 à traiter", the group's "Demandes à traiter 3"). */
async function countIn(locator: Locator, pattern: RegExp): Promise<number> {
  const name = (await locator.textContent()) ?? "";
  const found = name.match(pattern);
  return found ? Number(found[1]) : 0;
}

const requestsGroup = (page: Page) => page.getByRole("region", { name: /^Demandes à traiter/ });
const todoCount = (page: Page) => countIn(requestsGroup(page).getByRole("heading"), /(\d+)\s*$/);
const menuLink = (page: Page) =>
  page.getByRole("navigation", { name: "Espace dentiste" }).getByRole("link", { name: /^Demandes/ });

test.describe("le travail du dentiste en un lieu", () => {
  test("« À faire » d'abord ; ses compteurs et celui du menu suivent en direct la demande d'un patient", async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await loginViaApi(page, DEMO.dentist2);
    await page.goto("/dentist/dashboard");

    await test.step("« À faire » est le premier bloc, avec ses trois compteurs et ses boutons", async () => {
      const first = page.getByRole("main").getByRole("heading", { level: 2 }).first();
      await expect(first).toHaveText("À faire");
      await expect(requestsGroup(page)).toBeVisible();
      await expect(page.getByRole("region", { name: /^Rendez-vous à confirmer/ })).toBeVisible();
      await expect(page.getByRole("region", { name: /^Conversations non lues/ })).toBeVisible();
      // 'Demandes' right after 'Accueil' in the menu.
      const links = page.getByRole("navigation", { name: "Espace dentiste" }).getByRole("link");
      await expect(links.nth(0)).toHaveText("Accueil");
      await expect(links.nth(1)).toHaveAttribute("href", "/dentist/quote-requests");
      await expectNoSeriousA11yIssues(page);
    });

    const before = await todoCount(page);
    const menuBefore = await countIn(menuLink(page), /(\d+)/);
    expect(menuBefore).toBe(before);

    // The patient, in their own browser: signs up and sends a request to every verified dentist.
    const patientContext = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    try {
      const patientPage = await patientContext.newPage();
      const patient = await signupPatientViaApi(patientPage.request, {
        firstName: "Nora",
        lastName: "Direct",
      });
      await fileRequestViaApi(patientPage.request);

      await test.step("le compteur et la ligne arrivent sans recharger la page", async () => {
        await expect.poll(() => todoCount(page)).toBeGreaterThan(before);
        await expect(menuLink(page)).toHaveAccessibleName(/^Demandes, \d+ à traiter$/);
        await expect.poll(() => countIn(menuLink(page), /(\d+)/)).toBeGreaterThan(menuBefore);
        const reply = requestsGroup(page).getByRole("link", {
          name: `Répondre à ${patient.fullName} (Couronne)`,
        });
        await expect(reply).toBeVisible();
        // The patient's devis amount is on the row.
        await expect(
          requestsGroup(page)
            .getByText(/devis 1\s500,00\s€/)
            .first(),
        ).toBeVisible();
        await reply.click();
        await expect(page).toHaveURL(/\/dentist\/patient-submission\//);
        await expect(page.getByText(/1\s500,00\s€/).first()).toBeVisible();
      });
    } finally {
      await patientContext.close();
    }
  });

  test("au téléphone (375 px), 'Demandes' et son compteur sont dans le menu ; rien ne déborde", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await loginViaApi(page, DEMO.dentist);
    await page.goto("/dentist/dashboard");
    await expect(requestsGroup(page)).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yIssues(page);

    // Read before the drawer opens (a modal hides the page from the accessibility tree).
    const count = await todoCount(page);
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Espace dentiste" });
    const link = drawer.getByRole("link", { name: /^Demandes(, \d+ à traiter)?$/ });
    await expect(link).toBeVisible();
    await expect(link).toHaveAccessibleName(count > 0 ? `Demandes, ${count} à traiter` : "Demandes");
    await link.click();
    await expect(page).toHaveURL(/\/dentist\/quote-requests$/);
    // The cards of the phone list carry the patient's devis amount.
    await expect(
      page.getByRole("list", { name: "Demandes de devis" }).getByText("Devis du patient").first(),
    ).toBeVisible();
    const listWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(listWidth).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yIssues(page);
  });

  test("écarter une demande qu'il ne suivra pas, depuis la liste, puis la remettre (ADR 091)", async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // A patient, in her own browser, sends a request to every verified dentist.
    const patientContext = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    let fullName: string;
    try {
      const patientPage = await patientContext.newPage();
      ({ fullName } = await signupPatientViaApi(patientPage.request, {
        firstName: "Nadia",
        lastName: "Loin",
      }));
      await fileRequestViaApi(patientPage.request);
    } finally {
      await patientContext.close();
    }

    await loginViaApi(page, DEMO.dentist2);
    await page.goto("/dentist/quote-requests?status=pending");
    const table = page.getByRole("table", { name: "Demandes de devis" });
    const row = table.getByRole("row").filter({ hasText: fullName });
    await expect(row).toBeVisible();

    await test.step("« Écarter » : la ligne quitte « En attente », sans ouvrir la demande", async () => {
      await row
        .getByRole("button", {
          name: `Écarter la demande de ${fullName} (Couronne)\u202f: ne pas donner suite`,
        })
        .press("Enter");
      await expect(
        page.getByText(/^Demande écartée\s: elle ne compte plus dans vos demandes à traiter\.$/),
      ).toBeVisible();
      await expect(row).toHaveCount(0);
      await expect(page).toHaveURL(/\/dentist\/quote-requests\?status=pending$/);
      // At the keyboard, the focus moved on (the next row, or the page's title), not to the page's top.
      await expect
        .poll(() =>
          page.evaluate(() => document.activeElement?.closest("main tr, main h1")?.tagName ?? "none"),
        )
        .not.toBe("none");
    });

    await test.step("elle est dans « Écartées », marquée, et se remet d'un clic", async () => {
      await page.getByRole("combobox", { name: "Statut" }).click();
      await page.getByRole("option", { name: "Écartées" }).click();
      await expect(page).toHaveURL(/status=set_aside/);
      await expect(row).toBeVisible();
      await expect(row.getByText("Écartée", { exact: true })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
      await row
        .getByRole("button", {
          name: `Remettre la demande de ${fullName} (Couronne) dans mes demandes à traiter`,
        })
        .click();
      await expect(page.getByText("Demande remise dans vos demandes à traiter.")).toBeVisible();
      await expect(row).toHaveCount(0);
    });

    await test.step("de retour dans « En attente », à répondre", async () => {
      await page.goto("/dentist/quote-requests?status=pending");
      await expect(
        row.getByRole("link", { name: new RegExp(`^Répondre à la demande de ${fullName}`) }),
      ).toBeVisible();
    });

    await test.step("plusieurs à la fois : cochée, « Écarter la sélection », puis « Annuler » (ADR 091, addendum)", async () => {
      const bar = page.getByRole("group", { name: "Sélection de demandes" });
      await row
        .getByRole("checkbox", { name: new RegExp(`^Sélectionner la demande de ${fullName} \\(Couronne, `) })
        .check();
      await expect(bar).toContainText("1 demande sélectionnée");
      await expectNoSeriousA11yIssues(page);
      await bar.getByRole("button", { name: "Écarter la sélection (1)" }).click();
      await expect(
        page.getByText(/^1 demande écartée\s: elle ne compte plus dans vos demandes à traiter\.$/),
      ).toBeVisible();
      await expect(row).toHaveCount(0);
      await expect(bar).toContainText("Aucune demande sélectionnée");
      await page.getByRole("button", { name: "Annuler" }).click();
      await expect(page.getByText("1 demande remise dans vos demandes à traiter.")).toBeVisible();
      await expect(row).toBeVisible();
    });
  });
});
