import { expect, test } from "./fixtures";
import { acceptTerms, expectPath, signupPatientViaApi } from "./helpers";

test.describe("redirections des espaces", () => {
  test("un patient connecté est renvoyé vers / hors de son espace, et de /login vers son tableau de bord", async ({
    page,
  }) => {
    await signupPatientViaApi(page.request, { firstName: "Noé" });

    await page.goto("/dentist/dashboard");
    await expectPath(page, "/");
    await page.goto("/admin/dashboard");
    await expectPath(page, "/");

    await page.goto("/login");
    await expectPath(page, "/patient/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Noé" })).toBeVisible();

    await page.goto("/patient");
    await expectPath(page, "/patient/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Noé" })).toBeVisible();
  });

  test("un visiteur non connecté est renvoyé vers la page de connexion de l'espace", async ({ page }) => {
    await page.goto("/admin/dashboard");
    await expectPath(page, "/admin/login");
    await expect(page).toHaveURL((url) => url.searchParams.get("next") === "/admin/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Connexion Administration" })).toBeVisible();

    await page.goto("/dentist/quote-requests");
    await expectPath(page, "/dentist/login");
    await expect(page).toHaveURL((url) => url.searchParams.get("next") === "/dentist/quote-requests");
    await expect(page.getByRole("heading", { level: 1, name: "Connexion Dentiste" })).toBeVisible();

    await page.goto("/patient/requests");
    await expectPath(page, "/login");
    await expect(page).toHaveURL((url) => url.searchParams.get("next") === "/patient/requests");
    await expect(page.getByRole("heading", { level: 1, name: "Connexion" })).toBeVisible();
  });

  test("/index renvoie un visiteur non connecté vers l'accueil", async ({ page }) => {
    await page.goto("/index");
    await expectPath(page, "/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});

test.describe("redirections après l'inscription (?next=)", () => {
  test("une adresse externe dans ?next= est ignorée : le nouveau patient arrive sur son tableau de bord", async ({
    page,
  }) => {
    await page.goto("/signup?next=%2F%2Fevil.example%2Fpatient%2Fupload");
    await page.getByLabel(/^Prénom/).fill("Noa");
    await page.getByLabel(/^Nom/).fill("Petit");
    await page.getByLabel(/^E-mail/).fill(`next.${Date.now()}@example.com`);
    await page.getByLabel(/^Mot de passe/).fill("Sourire-Sain-2026");
    await acceptTerms(page);
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await expectPath(page, "/patient/dashboard");
    expect(new URL(page.url()).host).not.toContain("evil.example");
  });

  test("un patient connecté qui ouvre l'inscription avec une intention va directement au dépôt", async ({
    page,
  }) => {
    await signupPatientViaApi(page.request, { firstName: "Lina" });
    await page.goto("/signup?next=%2Fpatient%2Fupload");
    await expectPath(page, "/patient/upload");
  });
});
