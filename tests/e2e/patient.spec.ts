import type { Page } from "@playwright/test";
import { PROFILE_MESSAGES } from "../../src/shared/schemas/profile";
import { DEMO, expect, test } from "./fixtures";
import { downloadFrom, expectPath, loginViaApi, signupPatientViaApi, toast } from "./helpers";

/** A small valid PDF and a 1×1 PNG: the server checks the content, not only the name. */
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
);
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

function counter(page: Page, label: string) {
  return page.getByRole("region", { name: "Mes chiffres" }).locator("> div").filter({ hasText: label });
}

test.describe("espace patient", () => {
  test("dépôt d'un devis et d'une photo, suivi, téléchargement, annulation, suppression ; invisible pour un autre patient", async ({
    page,
  }) => {
    await signupPatientViaApi(page.request, { firstName: "Léa" });

    // Upload: a PDF quote and a PNG photo, with their guessed types.
    await page.goto("/patient/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Téléverser des documents" })).toBeVisible();
    await page.getByLabel("Choisir des fichiers").setInputFiles([
      { name: "devis-couronne.pdf", mimeType: "application/pdf", buffer: PDF },
      { name: "sourire.png", mimeType: "image/png", buffer: PNG },
    ]);
    await expect(toast(page, "2 fichiers ajoutés")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Type de document pour devis-couronne.pdf" })).toHaveText(
      "Devis",
    );
    await expect(page.getByRole("combobox", { name: "Type de document pour sourire.png" })).toHaveText(
      "Photo",
    );

    // The required fields are asked for before anything is sent.
    await page.getByRole("button", { name: "Envoyer ma demande" }).click();
    const form = page.getByRole("form", { name: "Nouvelle demande de devis" });
    await expect(form.getByText("Veuillez sélectionner un type de traitement.")).toBeVisible();
    await expect(toast(page, "Veuillez sélectionner un type de traitement.")).toBeVisible();

    await page.getByRole("combobox", { name: /Type de traitement/ }).click();
    await page.getByRole("option", { name: "Couronne" }).click();
    await page.getByLabel("Description").fill("Couronne sur la 36, devis reçu hier.");
    await page.getByLabel("Montant de votre devis actuel (optionnel)").fill("1 250,50");
    await page.getByRole("combobox", { name: "Urgence" }).click();
    await page.getByRole("option", { name: "Urgent (moins d'une semaine)" }).click();
    await page.getByRole("checkbox", { name: /J'accepte que mes documents soient consultés/ }).click();

    const answer = page.waitForResponse(
      (r) => r.url().endsWith("/api/patient/requests") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Envoyer ma demande" }).click();
    const created = await answer;
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await expect(page.getByText("Documents téléversés avec succès !")).toBeVisible();
    await expect(toast(page, "Documents envoyés avec succès !")).toBeVisible();
    await expect(page.getByRole("link", { name: "Voir toutes mes demandes" })).toBeVisible();
    // Automatic redirect after 3 s.
    await expectPath(page, "/patient/dashboard");

    // Dashboard: greeting, counters, the request in the recent list.
    await expect(page.getByRole("heading", { level: 1, name: "Bonjour Léa" })).toBeVisible();
    await expect(counter(page, "Demandes actives")).toContainText("1");
    await expect(counter(page, "Demandes terminées")).toContainText("0");
    await expect(counter(page, "Dernière demande")).toContainText(/\d{2}\/\d{2}\/\d{4}/);
    await expect(page.getByRole("link", { name: /^Voir la demande Couronne/ })).toBeVisible();

    // The list: found by its treatment label, not by another one.
    await page.getByRole("link", { name: "Voir toutes mes demandes" }).click();
    await expectPath(page, "/patient/requests");
    await expect(page.getByRole("heading", { level: 1, name: "Toutes mes demandes" })).toBeVisible();
    const search = page.getByLabel("Rechercher une demande");
    await search.fill("implant");
    await expect(page.getByRole("heading", { name: "Aucun résultat trouvé" })).toBeVisible();
    await page.getByRole("button", { name: "Réinitialiser la recherche" }).click();
    await expect(search).toHaveValue("");
    await search.fill("couronne");
    await expect(page).toHaveURL(/q=couronne/);
    const row = page.getByRole("row").filter({ hasText: "Couronne" });
    await expect(row).toHaveCount(1);
    // The journey (issue 16): sent, no offer yet.
    await expect(row).toContainText("Envoyée");
    await row.getByRole("link", { name: /^Détails/ }).click();

    // The detail: what was sent, the documents, the access record.
    await expectPath(page, `/patient/request/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Couronne" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Envoyée" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Étapes de votre demande" })).toBeVisible();
    await expect(page.getByText("Urgent", { exact: true })).toBeVisible();
    await expect(page.getByText("1 250,50 €")).toBeVisible();
    await expect(page.getByText("Tous les dentistes vérifiés")).toBeVisible();
    await expect(page.getByText("Personne n'a encore consulté vos documents.")).toBeVisible();

    const bytes = await downloadFrom(
      page.getByRole("button", { name: "Télécharger devis-couronne.pdf" }),
      "devis-couronne.pdf",
    );
    expect(Buffer.compare(bytes, PDF)).toBe(0);

    // Cancel, after confirming.
    await page.getByRole("button", { name: "Annuler la demande" }).click();
    const dialog = page.getByRole("dialog", { name: "Annuler cette demande ?" });
    await expect(dialog).toContainText("Les dentistes ne verront plus cette demande");
    await expect(dialog).toContainText("ceux qui vous ont fait une proposition en sont informés");
    await dialog.getByRole("button", { name: "Annuler la demande" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("Annulée", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Annuler la demande" })).toHaveCount(0);
    await page.reload();
    await expect(page.getByText("Annulée", { exact: true })).toBeVisible();

    // Delete it for good, after confirming: back to the list, the page is gone.
    await page.getByRole("button", { name: "Supprimer la demande" }).click();
    const deleting = page.getByRole("dialog", { name: "Supprimer cette demande ?" });
    await expect(deleting).toContainText("fichiers compris");
    await deleting.getByRole("button", { name: "Supprimer la demande" }).click();
    await expectPath(page, "/patient/requests");
    await expect(page.getByText("Demande supprimée", { exact: true })).toBeVisible();
    await page.goto(`/patient/request/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeVisible();

    // Another patient sees nothing of it.
    expect((await page.request.post("/api/account/logout")).ok()).toBe(true);
    await signupPatientViaApi(page.request, { firstName: "Hugo" });
    await page.goto(`/patient/request/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeVisible();
    await expect(page.getByText("Cette demande n'existe pas ou a été supprimée.")).toBeVisible();
    await expect(page.getByText("devis-couronne.pdf")).toHaveCount(0);
    await page.getByRole("link", { name: "Retour au tableau de bord" }).click();
    await expectPath(page, "/patient/dashboard");
    await expect(page.getByRole("heading", { name: "Aucune demande pour le moment" })).toBeVisible();
    await expect(counter(page, "Dernière demande")).toContainText("Aucune demande");
  });

  test("un dépôt commencé demande avant que la page soit rechargée ; vide, il ne demande rien", async ({
    page,
  }) => {
    await signupPatientViaApi(page.request);
    await page.goto("/patient/upload");
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => dialogs.push(dialog.type()));
    await page.getByLabel("Description").click();
    await page.reload();
    expect(dialogs).toEqual([]);
    await page.getByLabel("Description").fill("Couronne sur la 36");
    await page.reload();
    expect(dialogs).toEqual(["beforeunload"]);
    // Confirmed (the fixture accepts): the page is reloaded, empty.
    await expect(page.getByLabel("Description")).toHaveValue("");
  });

  test("un dépôt commencé demande avant de suivre un lien du menu, sur téléphone ; quitter ferme le menu", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signupPatientViaApi(page.request);
    await page.goto("/patient/upload");
    await page.getByLabel("Description").fill("Couronne sur la 36");
    const menu = page.getByRole("navigation", { name: "Navigation mobile — Espace patient" });
    const question = page.getByRole("dialog", { name: /^Abandonner cette demande/ });
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    await menu.getByRole("link", { name: "Messages" }).click();
    await question.getByRole("button", { name: "Continuer ma demande" }).click();
    await expect(question).toBeHidden();
    await expect(page).toHaveURL(/\/patient\/upload$/);
    await page.keyboard.press("Escape"); // the menu, still open behind
    await expect(page.getByLabel("Description")).toHaveValue("Couronne sur la 36");

    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    await menu.getByRole("link", { name: "Messages" }).click();
    await question.getByRole("button", { name: "Abandonner la demande" }).click();
    await expect(page).toHaveURL(/\/patient\/messages$/);
    await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
    await expect(menu).toBeHidden();
  });

  test("un identifiant invalide donne 'Demande non trouvée'", async ({ page }) => {
    await signupPatientViaApi(page.request);
    await page.goto("/patient/request/pas-un-identifiant");
    await expect(page.getByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeVisible();
  });

  test("modification du profil et photo affichée dans l'en-tête", async ({ page }) => {
    const account = await signupPatientViaApi(page.request);
    await page.goto("/patient/profile");
    await expect(page.getByRole("heading", { level: 1, name: "Mon profil" })).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveValue(account.email);
    await expect(page.getByLabel("E-mail")).not.toBeEditable();
    await expect(page.getByText(PROFILE_MESSAGES.emailReadOnly)).toBeVisible();
    await expect(page.getByText("Patient", { exact: true })).toBeVisible();

    await page.getByLabel(/^Nom complet/).fill("Camille Martin-Durand");
    await page.getByLabel("Ville (optionnel)").fill("Nantes");
    await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect(toast(page, "Profil mis à jour avec succès")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(/^Nom complet/)).toHaveValue("Camille Martin-Durand");
    await expect(page.getByLabel("Ville (optionnel)")).toHaveValue("Nantes");
    await expect(page.getByRole("button", { name: /^Mon compte : Camille Martin-Durand/ })).toBeVisible();

    // A text file named like an image is refused before sending.
    await page.getByLabel("Changer ma photo").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("bonjour"),
    });
    await expect(page.getByText("Veuillez choisir une image JPG ou PNG.").first()).toBeVisible();

    await page
      .getByLabel("Changer ma photo")
      .setInputFiles({ name: "moi.png", mimeType: "image/png", buffer: PNG });
    await expect(toast(page, "Profil mis à jour avec succès").last()).toBeVisible();
    const headerAvatar = page.getByRole("button", { name: /^Mon compte/ }).locator("img");
    await expect(headerAvatar).toHaveAttribute("src", /\/api\/avatars\//);
    await page.reload();
    await expect(page.getByRole("button", { name: /^Mon compte/ }).locator("img")).toHaveAttribute(
      "src",
      /\/api\/avatars\//,
    );
  });

  test("la demande et un document ouverts par un dentiste vérifié apparaissent dans 'Qui a consulté mes documents'", async ({
    page,
    browser,
    baseURL,
  }) => {
    await loginViaApi(page, DEMO.patient);
    const list = await (await page.request.get("/api/patient/requests?search=couronne")).json();
    const requestId = list.items[0].id as string;
    const detail = await (await page.request.get(`/api/patient/requests/${requestId}`)).json();
    const documentId = detail.documents[0].id as string;

    const dentistContext = await browser.newContext({ baseURL });
    const dentist = await dentistContext.newPage();
    await loginViaApi(dentist, DEMO.dentist2);
    const file = await dentist.request.get(`/api/documents/${documentId}/file`);
    expect(file.status()).toBe(200);
    const opened = await dentist.request.get(`/api/dentist/requests/${requestId}`);
    expect(opened.status()).toBe(200);
    await dentistContext.close();

    await page.goto(`/patient/request/${requestId}`);
    const record = page.getByRole("table", { name: "Consultations de mes documents" });
    await expect(record.getByRole("cell", { name: "Dr Sophie Leroy" }).first()).toBeVisible();
    await expect(record.getByText("A téléchargé le document").first()).toBeVisible();
    await expect(record.getByText("A ouvert la demande").first()).toBeVisible();
  });
});
