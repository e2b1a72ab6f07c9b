import type { Browser, Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { loginViaApi, open, TINY_PNG } from "./helpers";

interface Summary {
  id: string;
  treatment_type: string;
  other: { full_name: string };
  unread_count: number;
}

/** A word nobody else writes: the demo database is shared by every journey. */
function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

/** A second person in their own browser context (own cookies), signed in through the API. */
async function otherPerson(browser: Browser, baseURL: string | undefined, email: string) {
  const context = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  await loginViaApi(page, email);
  return { context, page };
}

/** The demo conversation of Marie Dupont and Dr Martin about the implant request. */
async function implantConversation(page: Page): Promise<Summary> {
  const response = await page.request.get("/api/conversations?search=Martin&limit=50");
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: Summary[] };
  const found = items.find((c) => c.treatment_type === "implant" && /Martin/.test(c.other.full_name));
  expect(found, "la conversation de démonstration sur l'implant").toBeDefined();
  return found as Summary;
}

async function unreadTotal(page: Page): Promise<number> {
  const response = await page.request.get("/api/conversations?limit=1");
  return ((await response.json()) as { unread_total: number }).unread_total;
}

const unreadText = (n: number) => (n > 1 ? `${n} messages non lus` : "1 message non lu");

/** The 'Messages' entry of the area's navigation (its unread count is its description). */
function messagesNav(page: Page, area: "patient" | "dentist") {
  return page
    .getByRole("navigation", { name: area === "patient" ? "Espace patient" : "Espace dentiste" })
    .getByRole("link", { name: "Messages", exact: true });
}

/** One message of the open thread, found by its (unique) text. */
function messageItem(page: Page, text: string) {
  return page
    .getByRole("region", { name: /^Messages avec / })
    .getByRole("listitem")
    .filter({ hasText: text });
}

test.describe("messagerie en direct (issue 6)", () => {
  test("un patient et un dentiste échangent des messages et une image sans recharger la page", async ({
    page,
    browser,
    baseURL,
  }) => {
    const patientPage = page;
    await loginViaApi(patientPage, DEMO.patient);
    const conversation = await implantConversation(patientPage);
    const dentist = await otherPerson(browser, baseURL, DEMO.dentist);
    const dentistPage = dentist.page;

    try {
      const patientLink = patientPage.locator(`a[href*="c=${conversation.id}"]`);
      const dentistLink = dentistPage.locator(`a[href^="/dentist/messages/${conversation.id}"]`);

      await test.step("le dentiste lit la conversation, puis revient à sa liste", async () => {
        await open(dentistPage, `/dentist/messages/${conversation.id}`);
        await expect(dentistPage.getByRole("textbox", { name: /^Votre message (?:à|au) / })).toBeVisible();
        await expect(dentistLink).not.toContainText("non lu");
        await dentistPage
          .getByRole("navigation", { name: "Espace dentiste" })
          .getByRole("link", { name: "Messages", exact: true })
          .click();
        await expect(
          dentistPage.getByText("Sélectionnez une conversation pour commencer à discuter"),
        ).toBeVisible();
      });
      const dentistUnreadBefore = await unreadTotal(dentistPage);

      const first = unique("Bonjour docteur");
      await test.step("le patient écrit : Maj+Entrée va à la ligne, Entrée envoie", async () => {
        await open(patientPage, `/patient/messages?c=${conversation.id}`);
        const box = patientPage.getByRole("textbox", { name: /^Votre message (?:à|au) / });
        await expect(box).toBeVisible();
        await box.click();
        await box.pressSequentially("Première ligne");
        await box.press("Shift+Enter");
        await box.pressSequentially(first);
        await expect(box).toHaveValue(`Première ligne\n${first}`);
        await expect(messageItem(patientPage, first)).toHaveCount(0);
        await box.press("Enter");
        await expect(box).toHaveValue("");
        await expect(messageItem(patientPage, first)).toContainText("Envoyé");
      });

      await test.step("le dentiste le voit arriver dans sa liste, avec le compteur de non-lus", async () => {
        await expect(dentistLink).toContainText(first);
        await expect(dentistLink).toContainText("1 message non lu");
        await expect(messagesNav(dentistPage, "dentist")).toHaveAccessibleDescription(
          unreadText(dentistUnreadBefore + 1),
        );
      });

      await test.step("le dentiste ouvre la conversation : le patient voit 'Lu'", async () => {
        await dentistLink.click();
        await expect(messageItem(dentistPage, first)).toBeVisible();
        await expect(messageItem(patientPage, first)).toContainText("Lu");
        await expect(dentistLink).not.toContainText("non lu");
        if (dentistUnreadBefore === 0)
          await expect(messagesNav(dentistPage, "dentist")).not.toHaveAttribute("aria-describedby");
      });

      const reply = unique("Voici une photo");
      const imageName = `${unique("sourire")}.png`;
      await test.step("le dentiste répond avec une image ; le patient la voit aussitôt", async () => {
        await dentistPage.getByLabel("Fichiers à joindre").setInputFiles({
          name: imageName,
          mimeType: "image/png",
          buffer: TINY_PNG,
        });
        await expect(dentistPage.getByRole("list", { name: "Fichiers joints" })).toContainText(imageName);
        const box = dentistPage.getByRole("textbox", { name: /^Votre message (?:à|au) / });
        await box.fill(reply);
        await dentistPage.getByRole("button", { name: "Envoyer", exact: true }).click();
        await expect(messageItem(dentistPage, reply)).toBeVisible();
        await expect(dentistPage.getByRole("list", { name: "Fichiers joints" })).toHaveCount(0);

        const image = messageItem(patientPage, reply).getByRole("img", { name: imageName });
        await expect(image).toBeVisible();
        await expect(image).toHaveAttribute("loading", "lazy");
        // The private file is served to the other party.
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
        // Open and visible on the patient's side: read at once.
        await expect(messageItem(dentistPage, reply)).toContainText("Lu");
      });

      await test.step("axe sur les deux pages, une conversation ouverte", async () => {
        await expectNoSeriousA11yIssues(patientPage);
        await expectNoSeriousA11yIssues(dentistPage);
      });

      await test.step("le patient quitte la messagerie : son compteur monte au message suivant", async () => {
        await patientPage
          .getByRole("navigation", { name: "Espace patient" })
          .getByRole("link", { name: "Accueil", exact: true })
          .click();
        await expect(patientPage.getByRole("heading", { level: 1, name: /^Bonjour/ })).toBeVisible();
        const before = await unreadTotal(patientPage);
        const next = unique("Rendez-vous");
        const box = dentistPage.getByRole("textbox", { name: /^Votre message (?:à|au) / });
        await box.fill(next);
        await box.press("Enter");
        await expect(messageItem(dentistPage, next)).toContainText("Envoyé");
        await expect(messagesNav(patientPage, "patient")).toHaveAccessibleDescription(unreadText(before + 1));

        // Back to the conversation: the count goes down again, and the dentist sees 'Lu'.
        await messagesNav(patientPage, "patient").click();
        await patientLink.click();
        await expect(messageItem(patientPage, next)).toBeVisible();
        await expect(messageItem(dentistPage, next)).toContainText("Lu");
        if (before === 0)
          await expect(messagesNav(patientPage, "patient")).not.toHaveAttribute("aria-describedby");
      });
    } finally {
      await dentist.context.close();
    }
  });

  test("la recherche filtre les conversations, côté patient et côté dentiste", async ({
    page,
    browser,
    baseURL,
  }) => {
    await loginViaApi(page, DEMO.patient);
    await open(page, "/patient/messages");
    const list = page.getByRole("region", { name: "Conversations" });
    await expect(list.getByRole("link", { name: /Martin/ }).first()).toBeVisible();
    await expect(list.getByRole("link", { name: /Leroy/ }).first()).toBeVisible();

    const search = page.getByRole("searchbox", { name: "Rechercher une conversation" });
    await expect(search).toHaveAttribute("placeholder", "Rechercher une conversation...");
    await search.fill("Leroy");
    await expect(list.getByRole("link", { name: /Martin/ })).toHaveCount(0);
    await expect(list.getByRole("link", { name: /Leroy/ }).first()).toBeVisible();
    await expect(page).toHaveURL(/[?&]q=Leroy/);
    await search.fill(unique("personne"));
    await expect(list.getByText("Aucune conversation trouvée.")).toBeVisible();
    await search.fill("");
    await expect(list.getByRole("link", { name: /Martin/ }).first()).toBeVisible();

    const dentist = await otherPerson(browser, baseURL, DEMO.dentist);
    try {
      await open(dentist.page, "/dentist/messages");
      const dentistList = dentist.page.getByRole("region", { name: "Conversations" });
      const dentistSearch = dentist.page.getByRole("searchbox", { name: "Rechercher un patient" });
      await expect(dentistSearch).toHaveAttribute("placeholder", "Rechercher un patient...");
      await expect(dentistList.getByRole("link", { name: /Marie Dupont/ }).first()).toBeVisible();
      await dentistSearch.fill("Dupont");
      await expect(dentistList.getByRole("link", { name: /Marie Dupont/ }).first()).toBeVisible();
      await expect(dentistList.getByRole("link").filter({ hasNotText: "Dupont" })).toHaveCount(0);
      await dentistSearch.fill(unique("personne"));
      await expect(dentistList.getByText("Aucun patient trouvé.")).toBeVisible();
      await expectNoSeriousA11yIssues(dentist.page);
    } finally {
      await dentist.context.close();
    }
  });

  test.describe("sur un téléphone (375 px)", () => {
    test.use({ viewport: { width: 375, height: 812 } });

    test("la liste puis la conversation, avec un bouton de retour", async ({ page }) => {
      await loginViaApi(page, DEMO.patient);
      const conversation = await implantConversation(page);
      await open(page, "/patient/messages");
      const link = page.locator(`a[href*="c=${conversation.id}"]`);
      await expect(link).toBeVisible();
      await expect(page.getByText("Sélectionnez une conversation pour commencer à discuter")).toBeHidden();

      await link.click();
      await expect(page.getByRole("textbox", { name: /^Votre message (?:à|au) / })).toBeVisible();
      await expect(link).toBeHidden();

      await page.getByRole("link", { name: "Retour aux conversations" }).click();
      await expect(link).toBeVisible();
      await expect(page.getByRole("textbox", { name: /^Votre message (?:à|au) / })).toHaveCount(0);
      await expectNoSeriousA11yIssues(page);
    });
  });
});
