import type { Page } from "@playwright/test";
import { generatedPassword } from "../../scripts/lib/generated-password.mjs";
import { DEMO, expect, expectNoSeriousA11yIssues, test, uniqueEmail } from "./fixtures";
import { acceptTerms, expectPath, loginViaApi, toast } from "./helpers";

interface PatientFields {
  firstName?: string;
  lastName?: string;
  email: string;
  password?: string;
  /** Ticks 'J'accepte les conditions d'utilisation…' (default). */
  acceptTerms?: boolean;
}

/** Fills the patient sign-up form of the page shown (Léa Moreau and a strong password by default). */
async function fillPatientForm(page: Page, fields: PatientFields) {
  await page.getByLabel(/^Prénom/).fill(fields.firstName ?? "Léa");
  await page.getByLabel(/^Nom/).fill(fields.lastName ?? "Moreau");
  await page.getByLabel(/^E-mail/).fill(fields.email);
  await page.getByLabel(/^Mot de passe/).fill(fields.password ?? "Sourire-Sain-2026");
  if (fields.acceptTerms ?? true) await acceptTerms(page);
}

/** The landing page's main call to action, 'Déposer mon devis'. */
async function clickDepositOnLanding(page: Page) {
  await page.goto("/");
  await page
    .getByRole("main")
    .getByRole("link", { name: /Déposer (mon|votre) devis|Télécharger votre devis/ })
    .first()
    .click();
}

test.describe("l'intention « déposer mon devis » traverse l'inscription", () => {
  test("un nouveau patient part du bouton principal de l'accueil et arrive sur le formulaire de dépôt", async ({
    page,
  }) => {
    await clickDepositOnLanding(page);
    await expectPath(page, "/signup");
    await expect(page).toHaveURL((url) => url.searchParams.get("next") === "/patient/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Créer un compte patient" })).toBeVisible();
    // The way to log in instead keeps the intent too.
    await expect(page.getByRole("main").getByRole("link", { name: "Se connecter" })).toHaveAttribute(
      "href",
      "/login?next=%2Fpatient%2Fupload",
    );
    await fillPatientForm(page, { firstName: "Inès", email: uniqueEmail("intent") });
    await expect(page.getByTestId("password-strength")).toContainText("Très robuste");
    await expectNoSeriousA11yIssues(page);
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    // Straight to the upload form: no role choice, no dashboard in between.
    await expectPath(page, "/patient/upload");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("un patient déjà connecté va directement au formulaire de dépôt", async ({ page }) => {
    await loginViaApi(page, DEMO.patient);
    await clickDepositOnLanding(page);
    await expectPath(page, "/patient/upload");
  });
});

test.describe("inscription patient (/signup)", () => {
  test("un patient s'inscrit et arrive sur son tableau de bord", async ({ page }) => {
    await page.goto("/signup");
    await expect(page.getByRole("heading", { level: 1, name: "Créer un compte patient" })).toBeVisible();
    await fillPatientForm(page, { email: uniqueEmail("signup") });
    await expect(page.getByText("Très robuste")).toBeVisible();
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    // The notice lasts 5 s from the answer: checked before the dashboard, which may load slowly.
    await expect(toast(page, "Inscription réussie\u202f!")).toBeVisible();
    await expectPath(page, "/patient/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Léa" })).toBeVisible();
  });

  test("un mot de passe de 128 caractères générés est estimé par un worker de la page puis accepté", async ({
    page,
  }) => {
    // zxcvbn needs about a second for it: in a worker on the page (and a thread on the server, ADR 070).
    await page.goto("/signup");
    const worker = page.waitForEvent("worker", { timeout: 15_000 });
    await fillPatientForm(page, {
      firstName: "Noé",
      email: uniqueEmail("long-password"),
      password: generatedPassword(128, 7),
    });
    expect((await worker).url()).toMatch(/\/assets\/password-estimate\.worker-[\w-]+\.js$/);
    await expect(page.getByTestId("password-strength")).toContainText("Très robuste");
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await expect(toast(page, "Inscription réussie\u202f!")).toBeVisible();
    await expectPath(page, "/patient/dashboard");
  });

  test("des noms faits d'espaces sont refusés", async ({ page }) => {
    await page.goto("/signup");
    await fillPatientForm(page, {
      firstName: "   ",
      lastName: "  ",
      email: uniqueEmail("blank"),
      acceptTerms: false,
    });
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    await expect(page.getByLabel(/^Prénom/)).toHaveAccessibleDescription("Veuillez remplir tous les champs");
    await expect(page.getByLabel(/^Nom/)).toHaveAccessibleDescription("Veuillez remplir tous les champs");
    await expect(page.getByText("Veuillez remplir tous les champs")).toHaveCount(2);
    await expectPath(page, "/signup");
  });

  test("un mot de passe de 7 caractères est refusé", async ({ page }) => {
    await page.goto("/signup");
    await fillPatientForm(page, { email: uniqueEmail("short"), password: "Ab1!cde" });
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    await expect(
      page.getByRole("main").getByText("Le mot de passe doit contenir au moins 8 caractères").first(),
    ).toBeVisible();
    await expect(page.getByLabel(/^Mot de passe/)).toHaveAttribute("aria-invalid", "true");
    await expectPath(page, "/signup");
  });

  test("un mot de passe courant est signalé par la jauge puis refusé par le serveur", async ({ page }) => {
    await page.goto("/signup");
    await fillPatientForm(page, { email: uniqueEmail("common"), password: "Password1!" });
    const common = /Ce mot de passe est trop courant ou trop facile à deviner/;
    await expect(page.getByTestId("password-strength")).toContainText("Trop faible");
    await expect(page.getByTestId("password-strength")).toContainText(common);
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await expect(page.getByLabel(/^Mot de passe/)).toHaveAttribute("aria-invalid", "true");
    await expectPath(page, "/signup");
    await expectNoSeriousA11yIssues(page);
  });

  test("sans accepter les conditions, le compte n'est pas créé", async ({ page }) => {
    await page.goto("/signup");
    await fillPatientForm(page, { email: uniqueEmail("terms"), acceptTerms: false });
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    const message =
      "Veuillez accepter les conditions d'utilisation et la politique de confidentialité pour créer votre compte";
    await expect(page.getByText(message)).toBeVisible();
    await expect(
      page.getByRole("checkbox", { name: /J'accepte les conditions d'utilisation/ }),
    ).toHaveAccessibleDescription(message);
    await expect(page.getByRole("link", { name: /politique de confidentialité/ })).toHaveAttribute(
      "target",
      "_blank",
    );
    await expectPath(page, "/signup");
  });

  test("une adresse déjà utilisée est signalée près du champ Email", async ({ page }) => {
    await page.goto("/signup");
    await fillPatientForm(page, { email: DEMO.patient });
    await page.getByRole("button", { name: "Créer mon compte" }).click();

    await expect(page.getByText("Cet e-mail est déjà utilisé")).toBeVisible();
    await expect(page.getByLabel(/^E-mail/)).toHaveAccessibleDescription("Cet e-mail est déjà utilisé");
    await expectPath(page, "/signup");
  });
});

test.describe("inscription dentiste (/dentist/signup)", () => {
  async function fillDentistForm(page: Page, confirmation = "Sourire-Sain-2026") {
    await page.goto("/dentist/signup");
    await expect(page.getByRole("heading", { level: 1, name: "Inscription Dentiste" })).toBeVisible();
    await page.getByLabel(/^Prénom/).fill("Hugo");
    await page.getByLabel(/^Nom/).fill("Lambert");
    await page.getByLabel(/^Ville/).fill("Lyon");
    await page.getByLabel(/^Téléphone/).fill("04 72 00 00 00");
    await page.getByLabel(/^E-mail/).fill(uniqueEmail("dentist"));
    await page.getByLabel(/^Mot de passe/).fill("Sourire-Sain-2026");
    await page.getByLabel(/^Confirmer le mot de passe/).fill(confirmation);
  }

  test("un dentiste s'inscrit et voit que son compte attend la vérification", async ({ page }) => {
    await fillDentistForm(page);
    await acceptTerms(page);
    await page.getByRole("button", { name: "Créer mon compte dentiste" }).click();

    await expectPath(page, "/dentist/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Hugo" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "En attente de vérification" })).toBeVisible();
    await expect(
      toast(
        page,
        "Inscription réussie\u202f! Renseignez votre numéro RPPS et votre cabinet dans votre profil, puis demandez la vérification de votre compte.",
      ),
    ).toBeVisible();
  });

  test("les champs côte à côte commencent à la même hauteur, qu'un texte d'aide suive l'un ou non", async ({
    page,
  }) => {
    // The default viewport (1280 px) puts two fields a row; a hint under one (the postcode's, the
    // password's gauge) must not push its neighbour's box down (FormField: content-start).
    await page.goto("/dentist/signup");
    const top = async (label: RegExp) => (await page.getByLabel(label).boundingBox())?.y;
    expect(await top(/^Ville/)).toBe(await top(/^Code postal du cabinet/));
    expect(await top(/^Confirmer le mot de passe/)).toBe(await top(/^Mot de passe/));
  });

  test("une confirmation différente du mot de passe est refusée", async ({ page }) => {
    await fillDentistForm(page, "Sourire-Sain-2027");
    await acceptTerms(page);
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
