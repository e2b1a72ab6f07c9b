import type { Page } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, expect, test } from "./fixtures";
import { expectPath, signupPatientViaApi, toast } from "./helpers";

async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel(/^E-mail/).fill(email);
  await page.getByLabel(/^Mot de passe/).fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}

/** Opens a sign-in page, checks its title, and signs in there as a demo account. */
async function signInOn(page: Page, path: string, title: string, email: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await submitLogin(page, email, DEMO_PASSWORD);
}

test.describe("connexion", () => {
  test("l'administratrice se connecte sur /admin/login", async ({ page }) => {
    await signInOn(page, "/admin/login", "Connexion Administration", DEMO.admin);

    // The notice shows for 5 s from the answer to the login: checked first, it is never gone
    // because the dashboard took long to load on a busy machine.
    await expect(toast(page, "Connexion réussie")).toBeVisible();
    await expectPath(page, "/admin/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
  });

  test("un dentiste vérifié se connecte sur /dentist/login", async ({ page }) => {
    await signInOn(page, "/dentist/login", "Connexion Dentiste", DEMO.dentist);

    await expectPath(page, "/dentist/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: /^Bonjour / })).toBeVisible();
    await expect(page.getByText("Cabinet vérifié")).toBeVisible();
    await expect(page.getByText("En attente de vérification")).toHaveCount(0);
  });

  test("la patiente de démonstration se connecte sur /login", async ({ page }) => {
    await signInOn(page, "/login", "Connexion", DEMO.patient);

    await expect(toast(page, "Connexion réussie")).toBeVisible();
    await expectPath(page, "/patient/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: /^Bonjour / })).toBeVisible();
  });

  test("un mauvais mot de passe est refusé avec un message et une notification", async ({
    page,
    request,
  }) => {
    // A throwaway account (signed up with its own cookie jar): the page stays signed out, and the
    // per-account lockout never touches an account other tests use.
    const account = await signupPatientViaApi(request);
    await page.goto("/login");
    await submitLogin(page, account.email, "pas-le-bon-mot-de-passe");

    await expect(
      page.getByRole("alert").filter({ hasText: "E-mail ou mot de passe incorrect" }),
    ).toBeVisible();
    const failure = toast(page, "Échec de connexion");
    await expect(failure).toBeVisible();
    await expect(failure).toContainText("Vérifiez vos identifiants et réessayez.");
    await expectPath(page, "/login");
    expect((await page.request.get("/api/me")).status()).toBe(401);
  });
});

test("déconnexion depuis le menu du compte", async ({ page }) => {
  const account = await signupPatientViaApi(page.request, { firstName: "Inès", lastName: "Roux" });
  await page.goto("/patient/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Bonjour Inès" })).toBeVisible();

  await page.getByRole("button", { name: `Mon compte : ${account.fullName}` }).click();
  await page.getByRole("menuitem", { name: "Déconnexion" }).click();

  await expect(toast(page, "Déconnexion réussie")).toBeVisible();
  await expectPath(page, "/");
  await page.goto("/patient/dashboard");
  await expectPath(page, "/login");
});

test("une session qui prend fin pendant l'écriture : le mot de passe par-dessus la page, puis le message part tel qu'écrit", async ({
  page,
}) => {
  const account = await signupPatientViaApi(page.request);
  await page.goto("/patient/help");
  const box = page.getByLabel("Votre message à l'équipe");
  await box.fill("Ma question écrite avant la fin de ma session");
  // Signed out meanwhile (another tab, or the session expired): the page does not know yet.
  expect((await page.request.post("/api/account/logout")).ok()).toBe(true);
  await box.press("Enter");

  const dialog = page.getByRole("dialog", { name: "Votre session a pris fin" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(/^E-mail/)).toHaveValue(account.email);
  await dialog.getByLabel(/^Mot de passe/).fill(account.password);
  await dialog.getByRole("button", { name: "Se reconnecter" }).click();
  await expect(toast(page, "Connexion rétablie")).toBeVisible();
  await expect(dialog).toBeHidden();

  await expectPath(page, "/patient/help");
  await expect(box).toHaveValue("Ma question écrite avant la fin de ma session");
  await box.press("Enter");
  await expect(toast(page, "Votre message a été envoyé à l'équipe")).toBeVisible();
});
