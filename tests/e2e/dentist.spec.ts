import type { Page } from "@playwright/test";
import { DEMO, expect, test } from "./fixtures";
import {
  downloadFrom,
  expectDentistRequestNotFound,
  expectPath,
  loginViaApi,
  signupPatientViaApi,
  toast,
} from "./helpers";

/** A small valid PDF: the server checks the content, not only the name. */
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);

/** A last name nobody else has, letters only (the search finds this patient alone). */
function uniqueLastName(): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let suffix = "";
  let n = Date.now();
  while (n > 0) {
    suffix += letters[n % 26];
    n = Math.floor(n / 26);
  }
  return `Testeur${suffix}`;
}

/** The row (table at 1280 px) of this patient's request. */
function rowOf(page: Page, patientName: string) {
  return page.getByRole("row").filter({ hasText: patientName });
}

test.describe("espace dentiste", () => {
  test("une demande déposée par un patient : vue, filtrée, ouverte, téléchargée, assignée, répondue", async ({
    page,
    request,
  }) => {
    // A new patient sends a request to all verified dentists (through the API, its own cookie jar).
    const lastName = uniqueLastName();
    const patient = await signupPatientViaApi(request, { firstName: "Inès", lastName });
    const created = await request.post("/api/patient/requests", {
      multipart: {
        treatment_type: "bridge",
        description: "Bridge de trois éléments, devis reçu la semaine dernière.",
        budget: "",
        urgency: "high",
        recipient: "all",
        consent: "true",
        document_types: JSON.stringify(["quote"]),
        files: { name: "devis-bridge.pdf", mimeType: "application/pdf", buffer: PDF },
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // A verified dentist sees it as 'Nouvelle'.
    await loginViaApi(page, DEMO.dentist2);
    await page.goto("/dentist/quote-requests");
    await expect(page.getByRole("heading", { level: 1, name: "Demandes de devis" })).toBeVisible();
    const row = rowOf(page, patient.fullName);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Nouvelle");
    await expect(row).toContainText("Bridge");
    await expect(row).toContainText("Non spécifié");
    await expect(row).toContainText("Urgent");
    await expect(row).toContainText("En attente");

    // Search (server-side, debounced, kept in the URL), then the status filter.
    await page.getByLabel("Rechercher un patient ou un traitement").fill(lastName);
    await expect(page).toHaveURL(new RegExp(`q=${lastName}`));
    await expect(page.getByRole("row")).toHaveCount(2); // header + the one request
    await page.getByRole("combobox", { name: "Statut" }).click();
    await page.getByRole("option", { name: "En attente" }).click();
    await expect(page).toHaveURL(/status=pending/);
    await expect(row).toHaveCount(1);
    await page.getByRole("combobox", { name: "Statut" }).click();
    await page.getByRole("option", { name: "Répondues" }).click();
    await expect(page.getByText("Aucune demande de devis ne correspond à vos critères.")).toBeVisible();
    await page.getByRole("combobox", { name: "Statut" }).click();
    await page.getByRole("option", { name: "En attente" }).click();

    // Open it.
    await row.getByRole("link", { name: /^Répondre/ }).click();
    await expectPath(page, `/dentist/patient-submission/${id}`);
    await expect(
      page.getByRole("heading", { level: 1, name: `Demande d'${patient.fullName}` }),
    ).toBeVisible();
    await expect(page.getByText("Bridge de trois éléments")).toBeVisible();
    await expect(page.getByText("Non spécifié")).toBeVisible();

    // View (a new tab, the file served inline) and download (same bytes). What the tab gets is read
    // from its response: a browser without a PDF viewer (the headless shell) saves it instead.
    const popup = page.waitForEvent("popup");
    const served = page
      .context()
      .waitForEvent("response", (response) => response.url().includes("disposition=inline"));
    await page.getByRole("button", { name: "Voir devis-bridge.pdf (nouvel onglet)" }).click();
    const [tab, response] = await Promise.all([popup, served]);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    expect(response.headers()["content-disposition"]).toMatch(/^inline; filename="devis-bridge\.pdf"/);
    await tab.close();
    const bytes = await downloadFrom(
      page.getByRole("button", { name: "Télécharger devis-bridge.pdf" }),
      "devis-bridge.pdf",
    );
    expect(Buffer.compare(bytes, PDF)).toBe(0);
    await expect(toast(page, "Téléchargement du document terminé")).toBeVisible();

    // Assign.
    await page.getByRole("button", { name: "S'assigner cette demande" }).click();
    await expect(toast(page, "Demande assignée avec succès")).toBeVisible();
    await expect(page.getByText("Vous suivez cette demande")).toBeVisible();
    await expect(page.getByRole("button", { name: "S'assigner cette demande" })).toHaveCount(0);

    // Reply: the button waits for text; success clears the box and goes to the dashboard after 2 s.
    const box = page.getByLabel("Votre réponse au patient");
    const send = page.getByRole("button", { name: "Envoyer la réponse" });
    await expect(send).toBeDisabled();
    await box.fill("   ");
    await expect(send).toBeDisabled();
    await box.fill("Bonjour, je peux vous proposer ce bridge pour 1 900 €. Souhaitez-vous un rendez-vous ?");
    await send.click();
    const sentAt = Date.now();
    await expect(toast(page, "Réponse envoyée avec succès")).toBeVisible();
    await expect(box).toHaveValue("");
    await expect(page.getByText(/Vous allez être redirigé/)).toBeVisible();
    await expectPath(page, "/dentist/dashboard");
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1500);
    await expect(page.getByRole("heading", { level: 1, name: /^Bonjour/ })).toBeVisible();

    // The list now says 'Répondu' (and no longer 'Nouvelle').
    await page.goto(`/dentist/quote-requests?q=${lastName}`);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Répondu");
    await expect(row).not.toContainText("Nouvelle");
    await expect(row.getByRole("link", { name: /^Voir/ })).toBeVisible();

    // Opening it again: the reply is refused, the conversation is linked.
    await row.getByRole("link", { name: /^Voir/ }).click();
    await expect(page.getByText("Cette demande a déjà reçu une réponse.")).toBeVisible();
    await expect(page.getByLabel("Votre réponse au patient")).toBeDisabled();
    await expect(page.getByRole("link", { name: "Voir la conversation" })).toHaveAttribute(
      "href",
      /^\/dentist\/messages\//,
    );

    // The patient's request is now 'En cours'.
    const detail = await request.get(`/api/patient/requests/${id}`);
    expect(detail.status()).toBe(200);
    expect(((await detail.json()) as { status: string }).status).toBe("in_review");
  });

  test("une demande introuvable ou invalide", async ({ page }) => {
    await expectDentistRequestNotFound(page, "/dentist/patient-submission/pas-un-identifiant");
  });

  test("un dentiste non vérifié ne voit aucune demande", async ({ page }) => {
    await loginViaApi(page, DEMO.unverifiedDentist);
    await page.goto("/dentist/quote-requests");
    await expect(page.getByRole("heading", { level: 1, name: "Demandes de devis" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "En attente de vérification" })).toBeVisible();
    // He has asked for it (the demo's Dr Bernard): the card says when, not « Complétez votre profil ».
    await expect(page.getByText("Votre demande de vérification a été envoyée le")).toBeVisible();
    await expect(page.getByRole("link", { name: "Voir mon profil" })).toHaveAttribute(
      "href",
      "/dentist/profile",
    );
    await expect(page.getByRole("row")).toHaveCount(0);

    await page.goto("/dentist/dashboard");
    await expect(page.getByRole("heading", { name: "En attente de vérification" })).toBeVisible();
    await expect(
      page.getByText("Les demandes des patients vous seront montrées une fois votre compte vérifié.").first(),
    ).toBeVisible();
  });

  test("un patient qui ouvre la liste des dentistes est renvoyé à l'accueil", async ({ page }) => {
    await signupPatientViaApi(page.request);
    await page.goto("/dentist/quote-requests");
    await expectPath(page, "/");
  });
});
