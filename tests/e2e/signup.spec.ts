import type { Page } from "@playwright/test";
import { DEMO, expect, test, uniqueEmail } from "./fixtures";
import { expectPath, toast } from "./helpers";

test.describe("inscription patient (/signup)", () => {
  test("un patient s'inscrit et arrive sur son tableau de bord", async ({ page }) => {
    await page.goto("/signup");
    await expect(page.getByRole("heading", { level: 1, name: "Créer un compte patient" })).toBeVisible();
    await page.getByLabel(/^Prénom/).fill("Léa");
    await page.getByLabel(/^Nom/).fill("Moreau");
    await page.getByLabel(/^E-mail/).fill(uniqueEmail("signup"));
    await page.getByLabel(/^Mot de passe/).fill("secret-123");
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    await expectPath(page, "/patient/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Léa" })).toBeVisible();
    await expect(toast(page, "Inscription réussie !")).toBeVisible();
  });

  test("des noms faits d'espaces sont refusés", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel(/^Prénom/).fill("   ");
    await page.getByLabel(/^Nom/).fill("  ");
    await page.getByLabel(/^E-mail/).fill(uniqueEmail("blank"));
    await page.getByLabel(/^Mot de passe/).fill("secret-123");
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    await expect(page.getByLabel(/^Prénom/)).toHaveAccessibleDescription("Veuillez remplir tous les champs");
    await expect(page.getByLabel(/^Nom/)).toHaveAccessibleDescription("Veuillez remplir tous les champs");
    await expect(page.getByText("Veuillez remplir tous les champs")).toHaveCount(2);
    await expectPath(page, "/signup");
  });

  test("un mot de passe de 5 caractères est refusé", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel(/^Prénom/).fill("Léa");
    await page.getByLabel(/^Nom/).fill("Moreau");
    await page.getByLabel(/^E-mail/).fill(uniqueEmail("short"));
    await page.getByLabel(/^Mot de passe/).fill("12345");
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    await expect(page.getByText("Le mot de passe doit contenir au moins 6 caractères")).toBeVisible();
    await expect(page.getByLabel(/^Mot de passe/)).toHaveAttribute("aria-invalid", "true");
    await expectPath(page, "/signup");
  });

  test("une adresse déjà utilisée est signalée près du champ Email", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel(/^Prénom/).fill("Léa");
    await page.getByLabel(/^Nom/).fill("Moreau");
    await page.getByLabel(/^E-mail/).fill(DEMO.patient);
    await page.getByLabel(/^Mot de passe/).fill("secret-123");
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    await expect(page.getByText("Cet e-mail est déjà utilisé")).toBeVisible();
    await expect(page.getByLabel(/^E-mail/)).toHaveAccessibleDescription("Cet e-mail est déjà utilisé");
    await expectPath(page, "/signup");
  });
});

test.describe("inscription dentiste (/dentist/signup)", () => {
  async function fillDentistForm(page: Page, confirmation = "secret-123") {
    await page.goto("/dentist/signup");
    await expect(page.getByRole("heading", { level: 1, name: "Inscription Dentiste" })).toBeVisible();
    await page.getByLabel(/^Prénom/).fill("Hugo");
    await page.getByLabel(/^Nom/).fill("Lambert");
    await page.getByLabel(/^Ville/).fill("Lyon");
    await page.getByLabel(/^Téléphone/).fill("04 72 00 00 00");
    await page.getByLabel(/^E-mail/).fill(uniqueEmail("dentist"));
    await page.getByLabel(/^Mot de passe/).fill("secret-123");
    await page.getByLabel(/^Confirmer le mot de passe/).fill(confirmation);
  }

  test("un dentiste s'inscrit et voit que son compte attend la vérification", async ({ page }) => {
    await fillDentistForm(page);
    await page.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ }).check();
    await page.getByRole("button", { name: "Créer mon compte dentiste" }).click();

    await expectPath(page, "/dentist/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Hugo" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "En attente de vérification" })).toBeVisible();
    await expect(toast(page, "Inscription réussie ! Votre compte sera vérifié prochainement.")).toBeVisible();
  });

  test("une confirmation différente du mot de passe est refusée", async ({ page }) => {
    await fillDentistForm(page, "secret-456");
    await page.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ }).check();
    await page.getByRole("button", { name: "Créer mon compte dentiste" }).click();

    await expect(page.getByText("Les mots de passe ne correspondent pas")).toBeVisible();
    await expect(page.getByLabel(/^Confirmer le mot de passe/)).toHaveAccessibleDescription(
      "Les mots de passe ne correspondent pas",
    );
    await expectPath(page, "/dentist/signup");
  });

  test("les conditions d'utilisation doivent être acceptées", async ({ page }) => {
    await fillDentistForm(page);
    await page.getByRole("button", { name: "Créer mon compte dentiste" }).click();

    await expect(page.getByText("Vous devez accepter les conditions d'utilisation")).toBeVisible();
    await expect(
      page.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ }),
    ).toHaveAccessibleDescription("Vous devez accepter les conditions d'utilisation");
    await expectPath(page, "/dentist/signup");
  });
});
