import { PROFILE_MESSAGES } from "../../src/shared/schemas/profile";
import { expect, expectNoSeriousA11yIssues, test, uniqueEmail } from "./fixtures";
import { rppsWithKey, toast } from "./helpers";

test.describe("profil du dentiste", () => {
  test("RPPS, cabinet, spécialités gardés après rechargement ; demande de vérification", async ({ page }) => {
    const valid = rppsWithKey("1000345678");
    const invalid = `${valid.slice(0, 10)}${(Number(valid[10]) + 1) % 10}`;

    const signup = await page.request.post("/api/account/signup", {
      data: {
        role: "dentist",
        first_name: "Hugo",
        last_name: "Lefèvre",
        city: "Nantes",
        phone_number: "0240000001",
        email: uniqueEmail("dentiste"),
        password: "mot-de-passe-1",
        password_confirmation: "mot-de-passe-1",
        accept_terms: true,
      },
    });
    expect(signup.status()).toBe(201);

    await page.goto("/dentist/profile");
    await expect(page.getByRole("heading", { level: 1, name: "Mon profil" })).toBeVisible();
    const status = page.getByRole("region", { name: "Statut du compte" });
    await expect(status.getByText("En attente de vérification")).toBeVisible();
    const requestButton = page.getByRole("button", { name: "Demander une vérification" });
    await expect(requestButton).toBeDisabled();
    await expect(status).toContainText("renseignez et enregistrez votre numéro RPPS");
    await expect(page.getByLabel("E-mail")).toHaveAttribute("readonly", "");
    await expect(page.getByText(PROFILE_MESSAGES.emailReadOnly)).toBeVisible();
    await expect(
      page.getByText("Répertoire partagé des professionnels de santé : votre identifiant à 11 chiffres"),
    ).toBeVisible();

    // A wrong Luhn key is refused in French, beside the field.
    const rpps = page.getByLabel("Numéro RPPS");
    await rpps.fill(invalid);
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect(rpps).toHaveAttribute("aria-invalid", "true");
    await expect(
      page
        .getByRole("form", { name: "Mon profil de dentiste" })
        .getByText("Le numéro RPPS doit comporter 11 chiffres valides."),
    ).toBeVisible();
    await expect(toast(page, "Erreur de mise à jour du profil")).toBeVisible();

    // A valid number, the practice, a biography; saved.
    await rpps.fill(valid);
    await page.getByLabel("Adresse du cabinet").fill("3 place Royale");
    await page.getByRole("form", { name: "Mon profil de dentiste" }).getByLabel("Code postal").fill("44000");
    await page.getByLabel("Biographie (optionnelle)").fill("Soins conservateurs et prothèses.");
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/api/me") && r.request().method() === "PATCH",
    );
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    expect((await saved).status()).toBe(200);
    await expect(toast(page, "Profil mis à jour avec succès")).toBeVisible();
    await expect(requestButton).toBeEnabled();

    // Specialties: 'Ajouter' disabled while blank, a free one, a toggle from the common list.
    const addButton = page.getByRole("button", { name: "Ajouter", exact: true });
    await expect(addButton).toBeDisabled();
    await page.getByLabel("Ajouter une spécialité").fill("Occlusodontie");
    await addButton.click();
    await page.getByRole("button", { name: "Orthodontie", exact: true }).click();
    await expect(page.getByRole("button", { name: "Orthodontie", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const again = page.waitForResponse(
      (r) => r.url().endsWith("/api/me") && r.request().method() === "PATCH",
    );
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    expect((await again).status()).toBe(200);

    // Everything is kept after a reload.
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await expect(page.getByLabel("Numéro RPPS")).toHaveValue(valid);
    await expect(page.getByLabel("Adresse du cabinet")).toHaveValue("3 place Royale");
    await expect(
      page.getByRole("form", { name: "Mon profil de dentiste" }).getByLabel("Code postal"),
    ).toHaveValue("44000");
    await expect(page.getByLabel("Biographie (optionnelle)")).toHaveValue(
      "Soins conservateurs et prothèses.",
    );
    await expect(page.getByRole("button", { name: "Retirer Occlusodontie" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Orthodontie", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expectNoSeriousA11yIssues(page);

    // The verification request: pending, with its date; it stays after a reload.
    await page.getByRole("button", { name: "Demander une vérification" }).click();
    await expect(toast(page, "Demande de vérification envoyée")).toBeVisible();
    await expect(status).toContainText(/Votre demande de vérification a été envoyée le \d{1,2} \S+ \d{4}\./);
    await expect(status).toContainText(
      "Notre équipe vérifie votre numéro RPPS et votre cabinet ; vous recevrez un e-mail.",
    );
    await expect(page.getByRole("button", { name: "Demander une vérification" })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("region", { name: "Statut du compte" })).toContainText(
      "Votre demande de vérification a été envoyée le",
    );
    await expectNoSeriousA11yIssues(page);
  });
});
