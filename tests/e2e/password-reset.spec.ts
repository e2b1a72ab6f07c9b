import { ACCOUNT_MESSAGES } from "../../src/shared/schemas/account";
import { expect, expectNoSeriousA11yIssues, test, uniqueEmail } from "./fixtures";
import { expectPath, newestMailTo, signupPatientViaApi } from "./helpers";

test.describe("mot de passe oublié", () => {
  test("réinitialisation de bout en bout : e-mail, lien, nouveau mot de passe, connexion", async ({
    page,
    request,
    baseURL,
  }) => {
    const account = await signupPatientViaApi(request, { firstName: "Jade" });
    const newPassword = "nouveau-secret-42";

    await page.goto("/forgot-password");
    await expect(page.getByRole("heading", { level: 1, name: "Mot de passe oublié" })).toBeVisible();
    await page.getByLabel(/^E-mail/).fill(account.email);
    await page.getByRole("button", { name: "Envoyer le lien" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Demande envoyée" })).toContainText(
      ACCOUNT_MESSAGES.forgotSent,
    );

    await expect
      .poll(() => newestMailTo(account.email), { message: "e-mail de réinitialisation" })
      .toBeTruthy();
    const mail = newestMailTo(account.email) ?? "";
    const link = mail.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0];
    expect(link, "lien de réinitialisation dans l'e-mail").toBeTruthy();
    expect(link?.startsWith(`${baseURL}/reset-password?token=`)).toBe(true);

    await page.goto(link ?? "");
    await expect(page.getByRole("heading", { level: 1, name: "Nouveau mot de passe" })).toBeVisible();
    // The link is checked as the page opens: a live one shows the form (the a11y pages scan a void one).
    await expect(page.getByLabel(/^Nouveau mot de passe/)).toBeVisible();
    await expectNoSeriousA11yIssues(page);
    // A common password passes the length and class rule but not the dictionary check: the meter
    // says so, and the server refuses it beside the field (the link stays valid).
    await page.getByLabel(/^Nouveau mot de passe/).fill("Azerty123");
    await page.getByLabel(/^Confirmer le mot de passe/).fill("Azerty123");
    await expect(page.getByTestId("password-strength")).toContainText("Trop faible");
    await page.getByRole("button", { name: "Modifier le mot de passe" }).click();
    await expect(page.getByLabel(/^Nouveau mot de passe/)).toHaveAccessibleDescription(
      /trop courant ou trop facile à deviner/,
    );
    await page.getByLabel(/^Nouveau mot de passe/).fill(newPassword);
    await page.getByLabel(/^Confirmer le mot de passe/).fill(newPassword);
    await page.getByRole("button", { name: "Modifier le mot de passe" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Mot de passe modifié" })).toBeVisible();

    await page.getByRole("link", { name: "Se connecter" }).click();
    await expectPath(page, "/login");
    await page.getByLabel(/^E-mail/).fill(account.email);
    await page.getByLabel(/^Mot de passe/).fill(newPassword);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expectPath(page, "/patient/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Jade" })).toBeVisible();

    const oldPassword = await request.post("/api/account/login", {
      data: { email: account.email, password: account.password, remember_me: false },
    });
    expect(oldPassword.status(), "l'ancien mot de passe ne fonctionne plus").toBe(401);

    // Used, the link says so as soon as it is opened again, before any password is typed.
    await page.goto(link ?? "");
    await expect(page.getByRole("alert").filter({ hasText: "Lien invalide" })).toContainText(
      ACCOUNT_MESSAGES.resetInvalid,
    );
    await expect(page.getByLabel(/^Nouveau mot de passe/)).toHaveCount(0);
  });

  test("une adresse inconnue reçoit le même message neutre (/dentist/forgot-password)", async ({ page }) => {
    const unknown = uniqueEmail("inconnu");
    await page.goto("/dentist/forgot-password");
    await page.getByLabel(/^E-mail/).fill(unknown);
    await page.getByRole("button", { name: "Envoyer le lien" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Demande envoyée" })).toContainText(
      ACCOUNT_MESSAGES.forgotSent,
    );
    expect(newestMailTo(unknown)).toBeUndefined();
  });
});
