import type { Page } from "@playwright/test";
import { PUBLIC_CONTENT_PATHS } from "../../src/shared/routes";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { loginViaApi, signupPatientViaApi } from "./helpers";

/** Opens each page, waits for its h1, then runs axe; one step per page. */
async function scanPages(page: Page, paths: readonly string[]) {
  for (const path of paths) {
    await test.step(path, async () => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
  }
}

test.describe("accessibilité (axe)", () => {
  // The longest file: its journeys are independent (each signs in or up on its own), so they are
  // shared between the workers instead of all waiting for one (ADR 028).
  test.describe.configure({ mode: "parallel" });

  test("pages publiques de contenu", async ({ page }) => {
    await scanPages(page, [...PUBLIC_CONTENT_PATHS, "/choose-role", "/nimporte-quoi"]);
  });

  test("pages de connexion, d'inscription et de mot de passe", async ({ page }) => {
    await scanPages(page, [
      "/login",
      "/signup",
      "/dentist/login",
      "/dentist/signup",
      "/admin/login",
      "/forgot-password",
      "/dentist/forgot-password",
      "/admin/forgot-password",
      "/reset-password?token=x",
    ]);
  });

  test("espace patient", async ({ page }) => {
    await signupPatientViaApi(page.request);
    await scanPages(page, [
      "/patient/dashboard",
      "/patient/messages",
      "/patient/upload",
      "/patient/requests",
      "/patient/appointments",
      "/patient/request/some-id",
      "/patient/profile",
    ]);
  });

  test("espace patient avec des demandes, des documents et un fichier choisi", async ({ page }) => {
    await loginViaApi(page, DEMO.patient);
    const list = (await (await page.request.get("/api/patient/requests?page_size=50")).json()) as {
      items: { id: string; document_count: number }[];
    };
    const withDocuments = list.items.find((item) => item.document_count > 0);
    expect(withDocuments, "une demande de démonstration avec des documents").toBeDefined();
    await scanPages(page, ["/patient/dashboard", "/patient/requests"]);
    await test.step("/patient/request/{id} avec ses documents", async () => {
      await page.goto(`/patient/request/${withDocuments?.id}`);
      await expect(page.getByRole("button", { name: /^Télécharger/ }).first()).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
    await test.step("/patient/upload avec un fichier choisi", async () => {
      await page.goto("/patient/upload");
      await page.getByLabel("Choisir des fichiers").setInputFiles({
        name: "devis.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("%PDF-1.4\n%%EOF\n"),
      });
      await expect(page.getByRole("combobox", { name: "Type de document pour devis.pdf" })).toBeVisible();
      await page.getByRole("button", { name: "Envoyer ma demande" }).click();
      await expect(page.getByText("Veuillez accepter le partage").first()).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
  });

  test("espace dentiste", async ({ page }) => {
    await loginViaApi(page, DEMO.dentist);
    await scanPages(page, [
      "/dentist/dashboard",
      "/dentist/messages",
      "/dentist/messages/x",
      "/dentist/quote-requests",
      "/dentist/quote-request/x",
      "/dentist/patient-submission/x",
      "/dentist/profile",
    ]);
    const list = (await (await page.request.get("/api/dentist/requests?page_size=50")).json()) as {
      items: { id: string }[];
    };
    expect(list.items.length, "des demandes de démonstration visibles par le dentiste").toBeGreaterThan(0);
    await test.step("/dentist/dashboard avec ses données", async () => {
      await page.goto("/dentist/dashboard");
      await expect(page.getByText("Calculé sur 30 jours")).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expectNoSeriousA11yIssues(page);
    });
    await test.step("/dentist/quote-requests avec des lignes", async () => {
      await page.goto("/dentist/quote-requests");
      await expect(
        page.getByRole("table", { name: "Demandes de devis" }).getByRole("link").first(),
      ).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
    for (const { id } of list.items.slice(0, 3)) {
      await test.step(`/dentist/patient-submission/${id}`, async () => {
        await page.goto(`/dentist/patient-submission/${id}`);
        await expect(page.getByLabel("Votre réponse au patient")).toBeVisible();
        await expectNoSeriousA11yIssues(page);
      });
    }
  });

  test("propositions et rendez-vous du dentiste", async ({ page }) => {
    await loginViaApi(page, DEMO.dentist);
    await test.step("/dentist/offers avec ses lignes", async () => {
      await page.goto("/dentist/offers");
      await expect(page.getByRole("heading", { level: 1, name: "Mes propositions" })).toBeVisible();
      await expect(
        page
          .getByRole("table", { name: /^Mes propositions/ })
          .getByRole("link", { name: /^Voir la proposition/ })
          .first(),
      ).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
    await test.step("/dentist/offers?etat=withdrawn (filtre, état vide possible)", async () => {
      await page.goto("/dentist/offers?etat=withdrawn");
      await expect(page.getByRole("link", { name: "Retirées" })).toHaveAttribute("aria-current", "true");
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expectNoSeriousA11yIssues(page);
    });
    await test.step("/dentist/appointments", async () => {
      await page.goto("/dentist/appointments");
      await expect(page.getByRole("heading", { level: 1, name: "Rendez-vous" })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await expectNoSeriousA11yIssues(page);
    });
    // The demo's appointments held in November: « Passés », each card leading to its request.
    await test.step("/dentist/appointments?vue=passes", async () => {
      await page.goto("/dentist/appointments?vue=passes");
      await expect(page.getByRole("tab", { name: "Passés" })).toHaveAttribute("aria-selected", "true");
      const card = page.getByRole("article").first();
      await expect(card.getByText("Passé", { exact: true })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
      await card.getByRole("link", { name: /^Voir la demande (?:de |d')/ }).click();
      await expect(page.getByRole("heading", { level: 1, name: /^Demande (?:de |d')/ })).toBeVisible();
    });
    // Dr Leroy has the demo patient's confirmed whitening appointment: the page with a card.
    await loginViaApi(page, DEMO.dentist2);
    await test.step("/dentist/appointments avec un rendez-vous confirmé", async () => {
      await page.goto("/dentist/appointments");
      await expect(page.getByRole("heading", { level: 2, name: /^À venir/ })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
  });

  test("comparaison des propositions et rendez-vous du patient", async ({ page }) => {
    await loginViaApi(page, DEMO.patient);
    const list = (await (await page.request.get("/api/patient/requests?page_size=50")).json()) as {
      items: { id: string; treatment_type: string }[];
    };
    const implant = list.items.find((item) => item.treatment_type === "implant");
    const whitening = list.items.find((item) => item.treatment_type === "whitening");
    expect(implant, "la demande d'implant de démonstration (deux propositions)").toBeDefined();
    expect(whitening, "la demande de blanchiment de démonstration (rendez-vous confirmé)").toBeDefined();
    await test.step("/patient/request/{implant}/compare", async () => {
      await page.goto(`/patient/request/${implant?.id}/compare`);
      await expect(page.getByRole("heading", { level: 1, name: "Comparer les propositions" })).toBeVisible();
      await expect(page.getByRole("table", { name: /^Comparaison des propositions/ })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
    await test.step("/patient/request/{blanchiment} avec la carte du rendez-vous", async () => {
      await page.goto(`/patient/request/${whitening?.id}`);
      await expect(page.getByRole("heading", { name: "Votre rendez-vous", exact: true })).toBeVisible();
      await expect(page.getByRole("button", { name: "Ajouter à mon agenda (.ics)" })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
    await test.step("… avec le calendrier de 'Déplacer le rendez-vous' ouvert (rien n'est envoyé)", async () => {
      await page.getByRole("button", { name: "Déplacer le rendez-vous" }).click();
      await expect(page.getByRole("grid")).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
    await test.step("/patient/appointments, à venir puis passés", async () => {
      await page.goto("/patient/appointments");
      await expect(page.getByRole("heading", { level: 2, name: /^À venir/ })).toBeVisible();
      await expect(page.getByRole("article", { name: /^Dr / }).first()).toBeVisible();
      await expectNoSeriousA11yIssues(page);
      await page.getByRole("tab", { name: "Passés" }).click();
      await expect(page).toHaveURL(/\?vue=passes$/);
      const card = page.getByRole("article").first();
      await expect(card.getByText("Passé", { exact: true })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
      await card.getByRole("link", { name: /^Voir la demande du rendez-vous avec le Dr / }).click();
      await expect(page).toHaveURL(/\/patient\/request\/[^/]+$/);
    });
  });

  test("espace dentiste non vérifié", async ({ page }) => {
    await loginViaApi(page, DEMO.unverifiedDentist);
    await scanPages(page, ["/dentist/dashboard", "/dentist/quote-requests"]);
  });

  test("espace d'administration", async ({ page }) => {
    await loginViaApi(page, DEMO.admin);
    await scanPages(page, ["/admin/dashboard", "/admin/chat-messages", "/admin/account"]);
  });

  test("espace d'administration : vérifications, contact, audit ; aide aux patients", async ({ page }) => {
    await loginViaApi(page, DEMO.admin);
    await scanPages(page, ["/admin/verifications", "/admin/contact", "/admin/audit", "/admin/retention"]);
    await signupPatientViaApi(page.request);
    await scanPages(page, ["/patient/help"]);
  });
});
