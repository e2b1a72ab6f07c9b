import type { Page } from "@playwright/test";
import { expect, test, uniqueEmail } from "./fixtures";
import { islandHydrated, toast } from "./helpers";

const MB = 1024 * 1024;

async function fillRequired(form: ReturnType<Page["getByRole"]>) {
  await form.getByLabel(/^Nom/).fill("Claire Petit");
  await form.getByLabel(/^E-mail/).fill(uniqueEmail("contact"));
}

function contactForm(page: Page) {
  return page.getByRole("form", { name: "Formulaire de contact" });
}

test.describe("formulaire de contact", () => {
  test("les champs obligatoires manquants sont signalés, rien n'est envoyé", async ({ page }) => {
    let posted = false;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/contact")) posted = true;
    });
    await page.goto("/contact");
    const form = contactForm(page);
    await form.getByLabel("Message").fill("Ma question");
    await form.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(form.getByText("Veuillez remplir tous les champs obligatoires")).toHaveCount(2);
    await expect(form.getByLabel(/^Nom/)).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Message")).toHaveValue("Ma question");
    expect(posted).toBe(false);
  });

  test("un fichier de 11 Mo est refusé dès qu'il est choisi", async ({ page }) => {
    await page.goto("/contact");
    const form = contactForm(page);
    await form.getByLabel(/^Pièce jointe/).setInputFiles({
      name: "radio.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.alloc(11 * MB, 0x25),
    });
    await expect(form.getByText("Le fichier est trop volumineux (max 10MB)")).toBeVisible();
    expect(await form.getByLabel(/^Pièce jointe/).evaluate((i: HTMLInputElement) => i.files?.length)).toBe(0);
  });

  test("un exécutable renommé en .pdf est refusé dès son choix, en .mp4 par le serveur, avec son message en français", async ({
    page,
  }) => {
    await page.goto("/contact");
    const form = contactForm(page);
    await fillRequired(form);
    await form.getByLabel("Message").fill("Voici mon devis");
    const executable = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(4096, 0x90)]);
    // Not the PDF its name says: the browser reads its first bytes.
    await form.getByLabel(/^Pièce jointe/).setInputFiles({
      name: "devis.pdf",
      mimeType: "application/pdf",
      buffer: executable,
    });
    await expect(
      form.getByText(/Le contenu de ce fichier ne correspond pas à un format accepté/),
    ).toBeVisible();
    expect(await form.getByLabel(/^Pièce jointe/).evaluate((i: HTMLInputElement) => i.files?.length)).toBe(0);
    // A video's content is left to the server, which refuses it too.
    await form.getByLabel(/^Pièce jointe/).setInputFiles({
      name: "devis.mp4",
      mimeType: "video/mp4",
      buffer: executable,
    });
    await expect(form.getByText("devis.mp4")).toBeVisible();
    await form.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(toast(page, "Erreur lors de l'upload du fichier")).toBeVisible();
    await expect(
      form.getByText(/Le contenu de ce fichier ne correspond pas à un format accepté/),
    ).toBeVisible();
    // Nothing typed is lost.
    await expect(form.getByLabel(/^Nom/)).toHaveValue("Claire Petit");
    await expect(form.getByLabel("Message")).toHaveValue("Voici mon devis");
  });

  test("un PDF valide est envoyé : message de succès et formulaire vidé", async ({ page }) => {
    await page.goto("/");
    // Under the fold: hydrated once it comes near the screen.
    await islandHydrated(page, "contact-form");
    const form = contactForm(page);
    await fillRequired(form);
    await form.getByRole("combobox", { name: "Type de traitement" }).click();
    await page.getByRole("option", { name: "Couronne" }).click();
    await form.getByLabel("Message").fill("Pouvez-vous m'aider à comprendre ce devis ?");
    await form.getByLabel(/^Pièce jointe/).setInputFiles({
      name: "devis.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(
        "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n",
      ),
    });
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/contact"));
    await form.getByRole("button", { name: "Envoyer le message" }).click();
    expect((await answer).status()).toBe(201);
    await expect(toast(page, "Votre message a été envoyé avec succès !")).toBeVisible();
    await expect(form.getByLabel(/^Nom/)).toHaveValue("");
    await expect(form.getByLabel(/^E-mail/)).toHaveValue("");
    await expect(form.getByLabel("Message")).toHaveValue("");
    await expect(form.getByRole("combobox", { name: "Type de traitement" })).toHaveText("Choisissez un soin");
    expect(await form.getByLabel(/^Pièce jointe/).evaluate((i: HTMLInputElement) => i.files?.length)).toBe(0);
    await expect(form.getByRole("progressbar")).toHaveCount(0);
  });

  test("la section contact de l'accueil renvoie aussi vers le dépôt de devis", async ({ page }) => {
    await page.goto("/");
    const section = page.getByRole("region", { name: "Une question ? Écrivez-nous" });
    // Signed out, the intent goes through the sign-up and comes back to the upload form.
    await expect(section.getByRole("link", { name: "Déposer mon devis" })).toHaveAttribute(
      "href",
      "/signup?next=%2Fpatient%2Fupload",
    );
  });
});
