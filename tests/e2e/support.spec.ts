import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import {
  answerAsTeam,
  expectPath,
  fileRequestViaApi,
  loginViaApi,
  open,
  openSupportInbox,
  signupUniquePatient,
  TINY_PNG,
  uniqueWord,
  writeToSupport,
} from "./helpers";

/**
 * Support for everyone, everywhere (issue 16, item 7): a patient opens the support chat from a
 * request page (the request is named in the first message), a dentist waiting for verification from
 * the dentist menu's 'Besoin d'aide ?'; the admin answers both from one inbox, live, in another browser context.
 * A patient also writes from the account menu's help page, with an image.
 */

test.describe("'Besoin d'aide ?' pour les patients et les dentistes", () => {
  test("un patient écrit à l'équipe avec une image ; l'administrateur voit le point rouge, ouvre, répond ; le patient voit la réponse sans recharger", async ({
    page,
    other: patientPage,
  }) => {
    const { account, lastName } = await signupUniquePatient(patientPage, "Lina");
    const question = `Comment joindre mon devis ? ${lastName}`;
    const answer = `Cliquez sur « Nouvelle demande ». ${lastName}`;

    // The admin has the page open before the patient writes.
    await openSupportInbox(page);
    await expect(page.getByRole("heading", { name: "Aucune conversation sélectionnée" })).toBeVisible();

    // The patient reaches the help page from the account menu and writes, with an image.
    await open(patientPage, "/patient/dashboard");
    await patientPage.getByRole("button", { name: /^Mon compte/ }).click();
    await patientPage.getByRole("menuitem", { name: "Besoin d'aide ?" }).click();
    await expectPath(patientPage, "/patient/help");
    await expect(patientPage.getByRole("heading", { level: 1, name: "Besoin d'aide ?" })).toBeVisible();
    await patientPage.getByLabel("Image à joindre").setInputFiles({
      name: "capture.png",
      mimeType: "image/png",
      buffer: TINY_PNG,
    });
    await expect(patientPage.getByRole("button", { name: "Retirer capture.png" })).toBeVisible();
    const thread = await writeToSupport(patientPage, question);
    await expect(thread.getByRole("img", { name: "capture.png" })).toBeVisible();

    // Live on the admin's page: the thread, with its red dot.
    const link = page.getByRole("link", { name: new RegExp(account.fullName) });
    await expect(link).toBeVisible();
    await expect(link).toContainText("1 message non lu");
    await expect(link.getByTestId("unread-dot")).toBeVisible();

    await link.click();
    await expect(page).toHaveURL(/\/admin\/chat-messages\?p=/);
    const conversation = page.getByRole("region", { name: `Conversation avec ${account.fullName}` });
    await expect(conversation.getByText(question)).toBeVisible();
    await expect(conversation.getByRole("img", { name: "capture.png" })).toBeVisible();
    await expect(link.getByTestId("unread-dot")).toHaveCount(0);
    await expect(link).not.toContainText("non lu");
    await expectNoSeriousA11yIssues(page);

    // Still read after a refresh of the list (the server has it read).
    await page.getByRole("button", { name: "Actualiser les conversations" }).click();
    await expect(link).toBeVisible();
    await expect(link.getByTestId("unread-dot")).toHaveCount(0);

    // The reply: the button waits for text.
    const send = conversation.getByRole("button", { name: "Envoyer" });
    await expect(send).toBeDisabled();
    await conversation.getByLabel(`Votre réponse à ${account.fullName}`).fill("   ");
    await expect(send).toBeDisabled();
    await answerAsTeam(page, account.fullName, answer);
    await expect(conversation.getByText(answer)).toBeVisible();

    // The patient sees it without reloading.
    await expect(thread.getByText(answer)).toBeVisible();
    await expect(thread.getByText("L'équipe Sourio")).toBeVisible();
  });

  test("un patient écrit depuis sa demande, l'équipe voit la demande et répond en direct", async ({
    page,
    other: patientPage,
  }) => {
    const { account, lastName } = await signupUniquePatient(patientPage, "Nora");
    const requestId = await fileRequestViaApi(patientPage.request);
    const question = `Un dentiste peut-il me rappeler ? ${lastName}`;
    const answer = `Nous lui transmettons votre demande. ${lastName}`;

    await openSupportInbox(page);

    // From the request page: the chat opens with the request named.
    await open(patientPage, `/patient/request/${requestId}`);
    await patientPage.getByRole("link", { name: /à propos de cette demande/ }).click();
    await expectPath(patientPage, "/patient/help");
    await expect(patientPage).toHaveURL(new RegExp(`request=${requestId}`));
    const about = patientPage.getByText(/^À propos de la demande Couronne du \d{2}\/\d{2}\/\d{4}$/);
    await expect(about).toBeVisible();
    await expectNoSeriousA11yIssues(patientPage);
    const thread = await writeToSupport(patientPage, question);
    await expect(thread.getByText(/^À propos de la demande Couronne du/)).toBeVisible();
    // Named once: the chip goes, and the address forgets it.
    await expect(
      patientPage.getByRole("button", { name: "Ne pas joindre la demande à ce message" }),
    ).toHaveCount(0);
    await expect(patientPage).not.toHaveURL(/request=/);

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
    await answerAsTeam(page, account.fullName, answer);

    // The patient sees it without reloading.
    await expect(thread.getByText(answer)).toBeVisible();
  });

  test("un dentiste en attente de vérification écrit depuis le menu 'Besoin d'aide ?', l'équipe le filtre et répond", async ({
    page,
    other: dentistPage,
  }) => {
    await loginViaApi(dentistPage, DEMO.unverifiedDentist);
    const { profile: me } = (await (await dentistPage.request.get("/api/me")).json()) as {
      profile: { full_name: string };
    };
    const word = uniqueWord("Verif");
    const question = `Où en est la vérification de mon compte ? ${word}`;
    const answer = `Elle est en cours, vous recevrez un e-mail. ${word}`;

    await openSupportInbox(page);
    await page.getByRole("button", { name: "Dentistes" }).click();
    await expect(page.getByRole("button", { name: "Dentistes" })).toHaveAttribute("aria-pressed", "true");

    // From the menu, as a dentist would: the header's 'Besoin d'aide ?' of the dentist area.
    await open(dentistPage, "/dentist/dashboard");
    await dentistPage.getByRole("banner").getByRole("link", { name: "Besoin d'aide ?" }).click();
    await expect(dentistPage).toHaveURL(/\/dentist\/help$/);
    await expect(dentistPage.getByRole("heading", { level: 1, name: "Besoin d'aide ?" })).toBeVisible();
    await expectNoSeriousA11yIssues(dentistPage);
    const thread = await writeToSupport(dentistPage, question);

    // Live in the admin's inbox, filtered to dentists.
    const link = page.getByRole("link", { name: new RegExp(me.full_name) });
    await expect(link).toBeVisible();
    await expect(link).toContainText("Dentiste");
    await expect(link).toContainText(question);
    await link.click();
    const conversation = page.getByRole("region", { name: `Conversation avec ${me.full_name}` });
    await expect(conversation.getByText(question)).toBeVisible();
    await answerAsTeam(page, me.full_name, answer);

    await expect(thread.getByText(answer)).toBeVisible();
  });
});
