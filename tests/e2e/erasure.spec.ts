import { ACCOUNT_MESSAGES, ERASURE_MESSAGES } from "../../src/shared/schemas/account";
import { expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { downloadFrom, expectPath, fileRequestViaApi, signupPatientViaApi, toast } from "./helpers";

test("un patient télécharge ses données puis supprime son compte ; il ne peut plus se connecter", async ({
  page,
}) => {
  const account = await signupPatientViaApi(page.request, { firstName: "Noé", lastName: "Lambert" });
  const requestId = await fileRequestViaApi(page.request);

  await page.goto("/patient/profile");
  const data = page.getByRole("region", { name: "Mes données" });
  await expect(data).toBeVisible();

  // The export first, as the card suggests.
  const archive = await downloadFrom(
    data.getByRole("link", { name: "Télécharger mes données" }),
    /^sourio-mes-donnees-\d{4}-\d{2}-\d{2}\.zip$/,
  );
  expect(archive.length).toBeGreaterThan(0);
  expect(archive.subarray(0, 2).toString("latin1")).toBe("PK");

  // What goes and what stays is said before anything is asked.
  await expect(data.getByRole("heading", { level: 3, name: "Supprimer mon compte" })).toBeVisible();
  await expect(data).toContainText("Ce qui est effacé");
  await expect(data).toContainText("Ce qui est conservé, sans votre nom");
  await data.getByRole("button", { name: "Supprimer mon compte" }).click();
  const dialog = page.getByRole("dialog", { name: "Supprimer définitivement votre compte ?" });
  await expect(dialog).toBeVisible();
  const password = dialog.getByLabel(/^Mot de passe/);
  await expect(password).toHaveAttribute("autocomplete", "current-password");
  await expectNoSeriousA11yIssues(page);

  // A wrong password: refused under the field, nothing erased.
  await password.fill("pas-le-bon-mot-de-passe");
  await dialog.getByRole("button", { name: "Supprimer mon compte" }).click();
  await expect(dialog.getByText(ERASURE_MESSAGES.passwordWrong)).toBeVisible();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expectPath(page, "/patient/profile");
  expect((await page.request.get(`/api/patient/requests/${requestId}`)).status()).toBe(200);

  // The right one: erased, signed out, on the home page.
  await password.fill(account.password);
  await dialog.getByRole("button", { name: "Supprimer mon compte" }).click();
  await expect(toast(page, ERASURE_MESSAGES.erased)).toBeVisible();
  await expectPath(page, "/");
  await expect(page.getByRole("link", { name: "Connexion" }).first()).toBeVisible();
  expect((await page.request.get("/api/me")).status()).toBe(401);

  // Signing in again with the same e-mail and password fails as for any wrong credentials.
  await page.goto("/login");
  await page.getByLabel(/^E-mail/).fill(account.email);
  await page.getByLabel(/^Mot de passe/).fill(account.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: ACCOUNT_MESSAGES.invalidCredentials }),
  ).toBeVisible();
  await expectPath(page, "/login");
  expect((await page.request.get("/api/me")).status()).toBe(401);
});
