import { totpCode, wrongTotpCode } from "../../src/server/testing/totp";
import { TWO_FACTOR_MESSAGES } from "../../src/shared/schemas/twoFactor";
import { DEMO, expect, expectNoSeriousA11yIssues, outbox, test } from "./fixtures";
import { expectPath, loginViaApi, signupPatientViaApi, toast, uniqueWord } from "./helpers";

/**
 * Two-step sign-in (ADR 098) in the built app: a patient turns it on in « Sécurité » (her password,
 * the QR code drawn in the page, the app's first code, her recovery codes), signs out, and signs in
 * again with her app's code, then with a recovery code on a browser she has remembered, then has the
 * code asked again there; she turns it off.
 */
test("une patiente active la double authentification, se reconnecte avec le code de son application, puis la désactive", async ({
  page,
}) => {
  const account = await signupPatientViaApi(page.request, { firstName: "Inès" });
  /** From the account's menu, then the login page's first step. */
  const signOutThenPassword = async () => {
    await page.getByRole("button", { name: `Mon compte : ${account.fullName}` }).click();
    await page.getByRole("menuitem", { name: "Déconnexion" }).click();
    await expect(toast(page, "Déconnexion réussie")).toBeVisible();
    await page.goto("/login");
    await page.getByLabel(/^E-mail/).fill(account.email);
    await page.getByLabel(/^Mot de passe/).fill(account.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
  };
  await page.goto("/patient/profile#securite");
  const card = page.getByRole("region", { name: "Sécurité" });
  await expect(card.getByText("Désactivée", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Activer la double authentification" }).click();

  const dialog = page.getByRole("dialog", { name: "Activer la double authentification" });
  await dialog.getByLabel(/^Mot de passe/).fill("pas-le-bon");
  await dialog.getByRole("button", { name: "Continuer" }).click();
  await expect(dialog.getByText(TWO_FACTOR_MESSAGES.passwordWrong)).toBeVisible();
  await dialog.getByLabel(/^Mot de passe/).fill(account.password);
  await dialog.getByRole("button", { name: "Continuer" }).click();

  // The QR code, drawn in the browser (a data: image the page's CSP admits), and the same address
  // behind « Ouvrir dans mon application »: the test's authenticator reads it there.
  const qr = dialog.getByRole("img", { name: "QR code à scanner avec votre application d'authentification" });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const uri =
    (await dialog.getByRole("link", { name: "Ouvrir dans mon application" }).getAttribute("href")) ?? "";
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  await expectNoSeriousA11yIssues(page);
  await dialog.getByLabel(/^Code affiché par l'application/).fill(totpCode(uri));
  await dialog.getByRole("button", { name: "Activer", exact: true }).click();

  // The recovery codes, once; « Terminer » only after the box.
  const codes = dialog.getByRole("list", { name: "Codes de secours" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent())?.trim() ?? "";
  expect(recovery).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
  await expect(dialog.getByRole("button", { name: "Terminer" })).toBeDisabled();
  await dialog.getByRole("checkbox", { name: "J'ai mis ces codes en lieu sûr" }).check();
  await dialog.getByRole("button", { name: "Terminer" }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText("Activée", { exact: true })).toBeVisible();
  await expect
    .poll(
      () =>
        outbox().filter((m) => m.includes(`To: ${account.email}`) && m.includes("vous sera demandé")).length,
    )
    .toBe(1);

  // Signed out, she signs in: the password, then the code of her app.
  await signOutThenPassword();
  const code = page.getByLabel(/^Code de vérification/);
  await expect(code).toBeFocused();
  expect((await page.request.get("/api/me")).status()).toBe(401);
  await expectNoSeriousA11yIssues(page);
  await code.fill(wrongTotpCode(uri));
  await page.getByRole("button", { name: "Valider" }).click();
  await expect(page.getByText(TWO_FACTOR_MESSAGES.codeWrong)).toBeVisible();
  await code.fill(totpCode(uri));
  await page.getByRole("button", { name: "Valider" }).click();
  await expect(toast(page, "Connexion réussie")).toBeVisible();
  await expectPath(page, "/patient/dashboard");

  // Once more, with a recovery code (her phone left at home).
  await signOutThenPassword();
  await page.getByRole("button", { name: "Utiliser un code de secours" }).click();
  await page.getByLabel(/^Code de secours/).fill(recovery.toLowerCase());
  // This browser is remembered: « Sécurité » counts it, and she has the code asked again.
  await page.getByLabel("Ne plus demander de code sur cet appareil pendant 30 jours").check();
  await page.getByRole("button", { name: "Valider" }).click();
  await expectPath(page, "/patient/dashboard");
  await page.goto("/patient/profile#securite");
  await expect(card.getByText(/^1 appareil ne vous demande plus de code/)).toBeVisible();
  await card.getByRole("button", { name: "Redemander le code sur ces appareils" }).click();
  const forget = page.getByRole("dialog", { name: "Redemander le code sur ces appareils\u202f?" });
  await expectNoSeriousA11yIssues(page);
  await forget.getByRole("button", { name: "Redemander le code" }).click();
  await expect(toast(page, TWO_FACTOR_MESSAGES.devicesForgotten)).toBeVisible();
  await expect(card.getByText(/ne vous demande plus de code/)).toBeHidden();

  // She turns it off: her password alone signs in again.
  await card.getByRole("button", { name: "Désactiver", exact: true }).click();
  const off = page.getByRole("dialog", { name: "Désactiver la double authentification\u202f?" });
  await off.getByLabel(/^Mot de passe/).fill(account.password);
  await off.getByRole("button", { name: "Désactiver", exact: true }).click();
  await expect(off).toBeHidden();
  await expect(card.getByText("Désactivée", { exact: true })).toBeVisible();
  const again = await page.request.post("/api/account/login", {
    data: { email: account.email, password: account.password },
  });
  expect(again.status()).toBe(200);
});

test("l'équipe retire la double authentification d'une patiente qui a perdu son téléphone et ses codes", async ({
  page,
  other: patient,
}) => {
  const account = await signupPatientViaApi(patient.request, { lastName: uniqueWord("Sanstel") });
  const setup = await patient.request.post("/api/account/two-factor/setup", {
    data: { password: account.password },
  });
  const uri = ((await setup.json()) as { totp_uri: string }).totp_uri;
  const confirmed = await patient.request.post("/api/account/two-factor/confirm", {
    data: { code: totpCode(uri) },
  });
  expect(confirmed.status()).toBe(200);
  const login = () =>
    patient.request.post("/api/account/login", {
      data: { email: account.email, password: account.password },
    });
  expect((await login()).status()).toBe(202);

  await loginViaApi(page, DEMO.admin);
  await page.goto("/admin/dashboard");
  await page.getByLabel("Rechercher un patient").fill(account.email);
  const row = page.getByRole("table", { name: "Patients inscrits" }).getByRole("row").filter({
    hasText: account.email,
  });
  await expect(row).toHaveCount(1);
  await expect(row.getByText("Double authentification", { exact: true })).toBeVisible();
  await row
    .getByRole("button", { name: `Retirer la double authentification de ${account.fullName}` })
    .click();
  const dialog = page.getByRole("dialog", { name: /^Retirer la double authentification de/ });
  await expect(dialog).toContainText("après avoir vérifié que c'est bien elle");
  await expectNoSeriousA11yIssues(page);
  await dialog.getByRole("button", { name: "Retirer la double authentification" }).click();
  await expect(toast(page, "Double authentification retirée")).toBeVisible();
  await expect(row.getByRole("button", { name: /^Retirer la double authentification/ })).toHaveCount(0);

  // Her password alone signs her in again, and she was told.
  expect((await login()).status()).toBe(200);
  await expect
    .poll(
      () =>
        outbox().filter((m) => m.includes(`To: ${account.email}`) && m.includes("notre équipe a retiré"))
          .length,
    )
    .toBe(1);
});
