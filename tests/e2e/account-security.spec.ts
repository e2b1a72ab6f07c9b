import { SECURITY_MESSAGES } from "../../src/shared/schemas/account";
import { expect, expectNoSeriousA11yIssues, outbox, test, uniqueEmail } from "./fixtures";
import { expectPath, signupPatientViaApi, toast } from "./helpers";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

test.describe("sécurité du compte", () => {
  test("changer son mot de passe déconnecte l'autre appareil ; on s'y reconnecte avec le nouveau, puis on le déconnecte d'ici", async ({
    page,
    browser,
    baseURL,
  }) => {
    const account = await signupPatientViaApi(page.request, { firstName: "Inès" });
    const newPassword = "nouveau-secret-42";

    // A second device (its own cookies), signed in as the same patient.
    const phone = await browser.newContext({
      baseURL,
      locale: "fr-FR",
      timezoneId: "Europe/Paris",
      userAgent: IPHONE,
      viewport: { width: 390, height: 844 },
    });
    try {
      const phonePage = await phone.newPage();
      const login = await phonePage.request.post("/api/account/login", {
        data: { email: account.email, password: account.password, remember_me: true },
      });
      expect(login.status()).toBe(200);
      await phonePage.goto("/patient/profile");
      await expect(phonePage.getByRole("heading", { level: 1, name: "Mon profil" })).toBeVisible();

      // The phone had never signed into this account: she is told by e-mail (ADR 082), with the
      // link to the section where she can end that session.
      const newSignIn = () =>
        outbox()
          .filter((m) => m.includes(`To: ${account.email}`) && m.includes("appareil qui ne s'y était pas"))
          .at(-1);
      await expect
        .poll(newSignIn, { message: "e-mail de nouvelle connexion" })
        .toContain("Safari sur iPhone");
      const link = new URL(newSignIn()?.match(/http\S+#securite/)?.[0] ?? "", baseURL);
      expect(`${link.pathname}${link.hash}`).toBe("/patient/profile#securite");

      // This computer, by that link: the 'Sécurité' section lists both devices.
      await page.goto(`${link.pathname}${link.hash}`);
      await expect(page.getByRole("heading", { level: 2, name: "Sécurité" })).toBeInViewport();
      const devices = page.getByRole("list", { name: "Appareils connectés" });
      await expect(devices.getByRole("listitem")).toHaveCount(2);
      const phoneRow = devices.getByRole("listitem").filter({ hasText: "Safari sur iPhone" });
      await expect(phoneRow.getByRole("button", { name: "Se déconnecter de cet appareil" })).toBeVisible();
      const thisRow = devices
        .getByRole("listitem")
        .filter({ has: page.getByText("Cet appareil", { exact: true }) });
      await expect(thisRow).toHaveCount(1);
      await expect(thisRow.getByRole("button")).toHaveCount(0);
      await expectNoSeriousA11yIssues(page);

      // A wrong current password is refused beside the field.
      const form = page.getByRole("form", { name: "Changer mon mot de passe" });
      // The strength meter under the new password: a short one is 'Trop faible', in words.
      await form.getByLabel(/^Nouveau mot de passe/).fill("abc");
      await expect(form.getByTestId("password-strength")).toContainText("Trop faible");
      await form.getByLabel(/^Mot de passe actuel/).fill("pas-le-bon");
      await form.getByLabel(/^Nouveau mot de passe/).fill(newPassword);
      await expect(form.getByTestId("password-strength")).not.toContainText("Trop faible");
      await form.getByLabel(/^Confirmer le nouveau mot de passe/).fill(newPassword);
      await form.getByRole("button", { name: "Changer mon mot de passe" }).click();
      await expect(form.getByText(SECURITY_MESSAGES.currentPasswordWrong)).toBeVisible();
      await expect(form.getByLabel(/^Mot de passe actuel/)).toHaveAttribute("aria-invalid", "true");

      // The right one: changed, this computer stays signed in, the phone is signed out.
      await form.getByLabel(/^Mot de passe actuel/).fill(account.password);
      await form.getByRole("button", { name: "Changer mon mot de passe" }).click();
      await expect(toast(page, "Mot de passe modifié")).toBeVisible();
      await expect(form.getByLabel(/^Mot de passe actuel/)).toHaveValue("");
      await expect(devices.getByRole("listitem")).toHaveCount(1);
      await expect(devices.getByText("Cet appareil", { exact: true })).toBeVisible();

      await phonePage.reload();
      await expectPath(phonePage, "/login");
      const mail = outbox()
        .filter((m) => m.includes(`To: ${account.email}`))
        .at(-1);
      expect(mail, "e-mail 'mot de passe modifié'").toContain("a été modifié le");
      expect(mail).not.toContain(newPassword);

      // The old password no longer opens the account; the new one does, on the phone.
      await phonePage.getByLabel(/^E-mail/).fill(account.email);
      await phonePage.getByLabel(/^Mot de passe/).fill(account.password);
      await phonePage.getByRole("button", { name: "Se connecter" }).click();
      await expect(phonePage.getByText("E-mail ou mot de passe incorrect")).toBeVisible();
      await phonePage.getByLabel(/^Mot de passe/).fill(newPassword);
      await phonePage.getByRole("button", { name: "Se connecter" }).click();
      await expectPath(phonePage, "/patient/profile");

      // From the computer, sign the phone out again, after confirming.
      await page.reload();
      await expect(devices.getByRole("listitem")).toHaveCount(2);
      await phoneRow.getByRole("button", { name: "Se déconnecter de cet appareil" }).click();
      const dialog = page.getByRole("dialog", { name: "Déconnecter cet appareil ?" });
      await expect(dialog).toContainText("Safari sur iPhone");
      await expectNoSeriousA11yIssues(page);
      await dialog.getByRole("button", { name: "Déconnecter l'appareil" }).click();
      await expect(toast(page, "Appareil déconnecté")).toBeVisible();
      await expect(devices.getByRole("listitem")).toHaveCount(1);

      await phonePage.reload();
      await expectPath(phonePage, "/login");
      await page.reload();
      await expect(page.getByRole("heading", { level: 1, name: "Mon profil" })).toBeVisible();
    } finally {
      await phone.close();
    }
  });

  test("changer son adresse e-mail : le lien reçu à la nouvelle, confirmé sur un autre appareil, puis on se connecte avec elle", async ({
    page,
    browser,
    baseURL,
  }) => {
    const account = await signupPatientViaApi(page.request, { firstName: "Inès" });
    const next = uniqueEmail("nouvelle");
    await page.goto("/patient/profile");
    const form = page.getByRole("form", { name: "Changer d'adresse" });
    await expect(form).toContainText(account.email);
    await form.getByLabel(/^Nouvelle adresse/).fill(next);
    await form.getByLabel(/^Mot de passe actuel/).fill("pas-le-bon");
    await form.getByRole("button", { name: "Recevoir le lien de confirmation" }).click();
    await expect(form.getByLabel(/^Mot de passe actuel/)).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel(/^Mot de passe actuel/).fill(account.password);
    await form.getByRole("button", { name: "Recevoir le lien de confirmation" }).click();
    await expect(form.getByText(`Un lien de confirmation a été envoyé à ${next}`)).toBeVisible();
    await expectNoSeriousA11yIssues(page);

    // The link, opened on a phone that is not signed in.
    const mail = () =>
      outbox()
        .filter((m) => m.includes(`To: ${next}`))
        .at(-1);
    await expect.poll(mail, { message: "lien de confirmation" }).toContain("/confirm-email?token=");
    const link = new URL(mail()?.match(/http\S+confirm-email\?token=[\w-]+/)?.[0] ?? "", baseURL);
    const phone = await browser.newContext({ baseURL, locale: "fr-FR", timezoneId: "Europe/Paris" });
    try {
      const phonePage = await phone.newPage();
      await phonePage.goto(`${link.pathname}${link.search}`);
      await expect(phonePage.getByRole("heading", { name: "Nouvelle adresse e-mail" })).toBeVisible();
      await expectNoSeriousA11yIssues(phonePage);
      await phonePage.getByRole("button", { name: "Confirmer ma nouvelle adresse" }).click();
      await expect(phonePage.getByText("Adresse e-mail modifiée")).toBeVisible();

      // The former address is told; the new one signs in, on the phone.
      expect(
        outbox().some((m) => m.includes(`To: ${account.email}`) && m.includes(`est devenue ${next}`)),
      ).toBe(true);
      await phonePage.goto("/login");
      await phonePage.getByLabel(/^E-mail/).fill(next);
      await phonePage.getByLabel(/^Mot de passe/).fill(account.password);
      await phonePage.getByRole("button", { name: "Se connecter" }).click();
      await expectPath(phonePage, "/patient/dashboard");
    } finally {
      await phone.close();
    }

    // The computer, still signed in, shows the new address.
    await page.reload();
    await expect(page.getByLabel("E-mail")).toHaveValue(next);
  });
});
