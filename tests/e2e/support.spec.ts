import type { Browser, Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { expectPath, fileRequestViaApi, loginViaApi, signupPatientViaApi, toast } from "./helpers";

/**
 * Support for everyone, everywhere (issue 16, item 7): a patient opens the support chat from a
 * request page (the request is named in the first message), a dentist waiting for verification from
 * the dentist menu's 'Besoin d'aide ?'; the admin answers both from one inbox, live, in another browser context.
 */

async function newPerson(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
  const page = await context.newPage();
  return { context, page };
}

/** `page.goto` of the fixtures (waits for the app to be ready), for pages of other contexts. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
}

/** Letters only, different on every run (the demo database is shared by every journey). */
function uniqueWord(prefix: string): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let suffix = "";
  let n = Date.now() * 100 + Math.floor(Math.random() * 100);
  while (n > 0) {
    suffix += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return `${prefix}${suffix}`;
}

test.describe("'Besoin d'aide ?' pour les patients et les dentistes", () => {
  test("un patient écrit depuis sa demande, l'équipe voit la demande et répond en direct", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const patient = await newPerson(browser, baseURL);
    const lastName = uniqueWord("Aide");
    const account = await signupPatientViaApi(patient.page.request, { firstName: "Nora", lastName });
    const requestId = await fileRequestViaApi(patient.page.request);
    const question = `Un dentiste peut-il me rappeler ? ${lastName}`;
    const answer = `Nous lui transmettons votre demande. ${lastName}`;

    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/chat-messages");
    await expect(page.getByRole("heading", { level: 1, name: "Support" })).toBeVisible();

    // From the request page: the chat opens with the request named.
    await open(patient.page, `/patient/request/${requestId}`);
    await patient.page.getByRole("link", { name: /à propos de cette demande/ }).click();
    await expectPath(patient.page, "/patient/help");
    await expect(patient.page).toHaveURL(new RegExp(`request=${requestId}`));
    const about = patient.page.getByText(/^À propos de la demande Couronne du \d{2}\/\d{2}\/\d{4}$/);
    await expect(about).toBeVisible();
    await expectNoSeriousA11yIssues(patient.page);
    await patient.page.getByLabel("Votre message à l'équipe").fill(question);
    await patient.page.getByLabel("Votre message à l'équipe").press("Enter");
    await expect(toast(patient.page, "Votre message a été envoyé à l'équipe")).toBeVisible();
    const thread = patient.page.getByRole("list", { name: "Messages" });
    await expect(thread.getByText(question)).toBeVisible();
    await expect(thread.getByText(/^À propos de la demande Couronne du/)).toBeVisible();
    // Named once: the chip goes, and the address forgets it.
    await expect(
      patient.page.getByRole("button", { name: "Ne pas joindre la demande à ce message" }),
    ).toHaveCount(0);
    await expect(patient.page).not.toHaveURL(/request=/);

    // The admin: live in the inbox, as a patient, with the request named.
    await page.getByRole("button", { name: "Patients" }).click();
    const link = page.getByRole("link", { name: new RegExp(account.fullName) });
    await expect(link).toBeVisible();
    await expect(link).toContainText("Patient");
    await link.click();
    const conversation = page.getByRole("region", { name: `Conversation avec ${account.fullName}` });
    await expect(conversation.getByText(question)).toBeVisible();
    await expect(conversation.getByText(/^À propos de la demande Couronne du/)).toBeVisible();
    await expectNoSeriousA11yIssues(page);
    await conversation.getByLabel(`Votre réponse à ${account.fullName}`).fill(answer);
    await conversation.getByRole("button", { name: "Envoyer" }).click();
    await expect(toast(page, "Réponse envoyée")).toBeVisible();

    // The patient sees it without reloading.
    await expect(thread.getByText(answer)).toBeVisible();
    await patient.context.close();
  });

  test("un dentiste en attente de vérification écrit depuis le menu 'Besoin d'aide ?', l'équipe le filtre et répond", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const dentist = await newPerson(browser, baseURL);
    await loginViaApi(dentist.page, DEMO.unverifiedDentist);
    const { profile: me } = (await (await dentist.page.request.get("/api/me")).json()) as {
      profile: { full_name: string };
    };
    const word = uniqueWord("Verif");
    const question = `Où en est la vérification de mon compte ? ${word}`;
    const answer = `Elle est en cours, vous recevrez un e-mail. ${word}`;

    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/chat-messages");
    await expect(page.getByRole("heading", { level: 1, name: "Support" })).toBeVisible();
    await page.getByRole("button", { name: "Dentistes" }).click();
    await expect(page.getByRole("button", { name: "Dentistes" })).toHaveAttribute("aria-pressed", "true");

    // From the menu, as a dentist would: the header's 'Besoin d'aide ?' of the dentist area.
    await open(dentist.page, "/dentist/dashboard");
    await dentist.page.getByRole("banner").getByRole("link", { name: "Besoin d'aide ?" }).click();
    await expect(dentist.page).toHaveURL(/\/dentist\/help$/);
    await expect(dentist.page.getByRole("heading", { level: 1, name: "Besoin d'aide ?" })).toBeVisible();
    await expectNoSeriousA11yIssues(dentist.page);
    await dentist.page.getByLabel("Votre message à l'équipe").fill(question);
    await dentist.page.getByLabel("Votre message à l'équipe").press("Enter");
    await expect(toast(dentist.page, "Votre message a été envoyé à l'équipe")).toBeVisible();
    const thread = dentist.page.getByRole("list", { name: "Messages" });
    await expect(thread.getByText(question)).toBeVisible();

    // Live in the admin's inbox, filtered to dentists.
    const link = page.getByRole("link", { name: new RegExp(me.full_name) });
    await expect(link).toBeVisible();
    await expect(link).toContainText("Dentiste");
    await expect(link).toContainText(question);
    await link.click();
    const conversation = page.getByRole("region", { name: `Conversation avec ${me.full_name}` });
    await expect(conversation.getByText(question)).toBeVisible();
    await conversation.getByLabel(`Votre réponse à ${me.full_name}`).fill(answer);
    await conversation.getByRole("button", { name: "Envoyer" }).click();
    await expect(toast(page, "Réponse envoyée")).toBeVisible();

    await expect(thread.getByText(answer)).toBeVisible();
    await dentist.context.close();
  });
});
