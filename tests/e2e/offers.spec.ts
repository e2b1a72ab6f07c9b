import type { Page } from "@playwright/test";
import { addDays, parisToday } from "../../src/shared/policies/offers";
import { ageOn } from "../../src/shared/schemas/profile";
import { DEMO, DEMO_PASSWORD, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import {
  downloadFrom,
  expectDentistRequestNotFound,
  expectPath,
  loginViaApi,
  pdfFile,
  postRequestViaApi,
  signupPatientViaApi,
  toast,
} from "./helpers";

const BIRTH_DATE = "1988-04-15";
const SENT = "Votre proposition a été envoyée au patient";

/** Signs the browser in as someone else (the previous session's cookie is dropped first). */
async function switchTo(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.context().clearCookies();
  await loginViaApi(page, email, password);
}

/** "5 décembre 2026" for a 'YYYY-MM-DD' day. */
function frenchDay(day: string): string {
  return new Intl.DateTimeFormat("fr-FR", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "Europe/Paris",
  }).format(new Date(`${day}T12:00:00Z`));
}

test.describe("propositions des dentistes (ADR 008)", () => {
  test("un patient dépose une demande ; un dentiste répond, un autre envoie une proposition ; le patient voit les deux", async ({
    page,
    request,
  }) => {
    // The patient (own cookie jar): a birth date, then a request to every verified dentist with
    // the amount of the quote they already have (for the saving).
    const patient = await signupPatientViaApi(request, { firstName: "Léa", lastName: "Propositions" });
    const patched = await request.patch("/api/me", {
      data: { full_name: patient.fullName, birth_date: BIRTH_DATE },
    });
    expect(patched.status(), "date de naissance enregistrée").toBe(200);
    const id = await postRequestViaApi(
      request,
      {
        treatment_type: "crown",
        description: "Couronne sur la 36, devis de 1 500 € reçu.",
        budget: "",
        quote_amount: "1500",
      },
      [pdfFile("devis-couronne.pdf"), pdfFile("radio-panoramique.pdf", "xray")],
    );

    // Dentist A replies with text.
    const reply = "Bonjour, je peux vous recevoir la semaine prochaine pour un examen.";
    await test.step("le Dr Martin répond par un message", async () => {
      await switchTo(page, DEMO.dentist);
      await page.goto(`/dentist/patient-submission/${id}`);
      await page.getByLabel("Votre réponse au patient").fill(reply);
      await page.getByRole("button", { name: "Envoyer la réponse" }).click();
      await expect(toast(page, "Réponse envoyée avec succès")).toBeVisible();
    });

    // Dentist B opens the proposal page.
    const slotDay = addDays(parisToday(new Date()), 14);
    const validUntil = addDays(parisToday(new Date()), 30);
    await test.step("la Dr Leroy voit la demande, ses documents et le patient (sans son e-mail)", async () => {
      await switchTo(page, DEMO.dentist2);
      await page.goto(`/dentist/patient-submission/${id}`);
      await page.getByRole("link", { name: "Proposer un devis" }).click();
      await expectPath(page, `/dentist/quote-request/${id}`);
      await expect(page.getByRole("heading", { level: 1, name: "Proposer un devis" })).toBeVisible();

      const age = ageOn(BIRTH_DATE, parisToday(new Date()));
      await expect(page.getByText(`${age} ans`)).toBeVisible();
      await expect(page.getByText("Non spécifié")).toBeVisible();
      // A dentist talks to the patient in the product's conversations, never by e-mail.
      await expect(page.getByText(patient.email)).toHaveCount(0);

      await expect(page.getByRole("tab", { name: "Tous (2)" })).toHaveAttribute("aria-selected", "true");
      await page.getByRole("tab", { name: "Radiographies (1)" }).click();
      const panel = page.getByRole("tabpanel");
      await expect(panel.getByText("radio-panoramique.pdf")).toBeVisible();
      await expect(panel.getByText("devis-couronne.pdf")).toHaveCount(0);
      await page.getByRole("tab", { name: "Photos (0)" }).click();
      await expect(page.getByText("Aucune photo pour cette demande.")).toBeVisible();
      await page.getByRole("tab", { name: "Tous (2)" }).click();
    });

    await test.step("'Tout télécharger' donne un zip des documents", async () => {
      const zip = await downloadFrom(page.getByRole("button", { name: "Tout télécharger" }), /\.zip$/);
      expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");
      expect(zip.includes("devis-couronne.pdf")).toBe(true);
      expect(zip.includes("radio-panoramique.pdf")).toBe(true);
      await expect(toast(page, "Téléchargement des documents terminé")).toBeVisible();
    });

    await test.step("la Dr Leroy remplit et envoie sa proposition", async () => {
      // Never silently disabled (issue 16): a click says what is missing beside the field.
      const send = page.getByRole("button", { name: "Envoyer la proposition" });
      await expect(send).toBeEnabled();
      await send.click();
      await expect(page.getByText("Veuillez indiquer le montant de votre proposition.")).toBeVisible();
      await expect(page.getByLabel("Montant de la proposition (€)")).toBeFocused();
      await page.getByLabel("Montant de la proposition (€)").fill("1 000");
      await page.getByLabel("Commentaire (optionnel)").fill("Couronne céramique, deux rendez-vous.");

      // A line from the act table, on a tooth of the chart: the amount follows the lines' total.
      await page.getByRole("button", { name: "Ajouter un acte" }).click();
      const line = page.getByRole("group", { name: "Acte 1" });
      await line.getByRole("button", { name: "Dent Sans dent" }).click();
      await line.getByRole("button", { name: "Dent 36 (molaire)" }).click();
      await line.getByRole("combobox", { name: "Acte" }).fill("couronne céramique molaire");
      await page.getByRole("option", { name: /HBLD734/ }).click();
      await line.getByRole("textbox", { name: "Honoraires (€)" }).fill("1 200");
      await expect(page.getByLabel("Montant de la proposition (€)")).toHaveValue("1200");
      // Tarifs libres: the form suggests the 100 % Santé alternative for the tooth (devis normalisé).
      await expect(line).toContainText("Alternative 100 % Santé pour la dent 36");

      await page.getByLabel("Valable jusqu'au (optionnel)").fill(validUntil);
      await page.getByRole("button", { name: "Ajouter un créneau" }).click();
      await page.getByLabel("Date du créneau 1").fill(slotDay);
      await page.getByLabel("Heure du créneau 1").fill("10:30");
      await expectNoSeriousA11yIssues(page);

      await send.click();
      await expect(toast(page, SENT)).toBeVisible();
      await expect(page.locator("main").getByRole("status").filter({ hasText: SENT })).toBeVisible();
      await expect(page.getByRole("button", { name: "Envoyer la proposition" })).toHaveCount(0);
      await expect(page.getByText("Envoyée", { exact: true })).toBeVisible();
      await expect(page.getByText(/1\s200,00\s€/).first()).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });

    await test.step("la proposition reste en lecture seule", async () => {
      await page.reload();
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      await expect(page.getByRole("heading", { name: "Votre proposition" })).toBeVisible();
      await expect(page.getByText("Couronne céramique, deux rendez-vous.")).toBeVisible();
      await expect(page.getByLabel("Montant de la proposition (€)")).toHaveCount(0);
      await page.goto(`/dentist/patient-submission/${id}`);
      await expect(page.getByRole("link", { name: "Voir ma proposition" })).toBeVisible();
    });

    await test.step("le patient voit la réponse et la proposition", async () => {
      await switchTo(page, patient.email, patient.password);
      await page.goto(`/patient/request/${id}`);
      await expect(page.getByRole("heading", { name: "Réponses des dentistes" })).toBeVisible();
      await expect(page.getByText(reply)).toBeVisible();
      await expect(page.getByRole("list", { name: "Réponses reçues" })).toContainText("Dr Julien Martin");
      // He opened the request to answer it: the patient's record names him with his title.
      await expect(
        page
          .getByRole("table", { name: "Consultations de mes documents" })
          .getByRole("cell", { name: "Dr Julien Martin" })
          .first(),
      ).toBeVisible();

      const offer = page.getByRole("listitem", { name: "Proposition du Dr Sophie Leroy" });
      await expect(offer).toBeVisible();
      await expect(offer).toContainText(/1\s200,00\s€/);
      await expect(offer).toContainText(/Économie estimée sur le prix\s: 300,00\s€ \(20\s%\)/);
      await expect(offer).toContainText("Vérifié");
      await expect(offer).toContainText("Bordeaux");
      // Still open: no state badge, it can be accepted.
      await expect(offer.getByRole("button", { name: /^Accepter cette proposition/ })).toBeVisible();
      await expect(offer).toContainText(`Valable jusqu'au ${frenchDay(validUntil)}`);
      await expect(offer).toContainText("Couronne céramo-métallique");
      await expect(offer).toContainText("dent 36");
      await expect(offer).toContainText(`${frenchDay(slotDay)} à 10:30`);
      await expectNoSeriousA11yIssues(page);
    });
  });

  test("une demande introuvable sur la page de proposition", async ({ page }) => {
    await expectDentistRequestNotFound(page, "/dentist/quote-request/pas-un-identifiant");
  });

  test("un dentiste non vérifié ne voit pas la page de proposition", async ({ page }) => {
    await loginViaApi(page, DEMO.unverifiedDentist);
    await page.goto("/dentist/quote-request/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: "En attente de vérification" })).toBeVisible();
    await expectNoSeriousA11yIssues(page);
  });
});
