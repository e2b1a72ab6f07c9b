import type { Page } from "@playwright/test";
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
  test.describe.configure({ timeout: 90_000 });

  test("pages publiques de contenu", async ({ page }) => {
    await scanPages(page, [
      "/",
      "/how-it-works",
      "/faq",
      "/dentist/benefits",
      "/privacy",
      "/terms",
      "/contact",
      "/upload-devis",
      "/choose-role",
      "/nimporte-quoi",
    ]);
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
      "/patient/request/some-id",
      "/patient/profile",
    ]);
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
  });

  test("espace d'administration", async ({ page }) => {
    await loginViaApi(page, DEMO.admin);
    await scanPages(page, ["/admin/dashboard", "/admin/chat-messages"]);
  });
});
