import type { Page } from "@playwright/test";
import { formatRating } from "../../src/shared/domain/reviews";
import { addDays, parisToday } from "../../src/shared/policies/offers";
import { REVIEW_MESSAGES } from "../../src/shared/schemas/reviews";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import { expectPath, fileRequestViaApi, loginViaApi, sendOffer, toast } from "./helpers";

/**
 * Verified reviews (issue 36, ADR 046), on the demo: the demo patient's appointment with Dr Leroy has
 * taken place and her dashboard invites her to review it; she does, the team publishes it, it shows
 * beside Dr Leroy's next offer with her average and the /avis link; Dr Leroy answers it.
 */

const TEXT = "La Dr Leroy a pris le temps de m'expliquer la prothèse et ses alternatives, à l'heure prévue.";

/** At 375 px the page does not scroll sideways, and axe finds nothing serious. */
async function checkScreen(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expectNoSeriousA11yIssues(page);
  await page.setViewportSize({ width: 375, height: 800 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${page.url()} défile sur le côté à 375 px`).toBeLessThanOrEqual(375);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe("avis vérifiés (issue 36)", () => {
  test("la patiente donne son avis après son rendez-vous ; l'équipe le publie ; il s'affiche près de la proposition ; la dentiste répond", async ({
    page,
    browser,
  }) => {
    await loginViaApi(page, DEMO.patient);

    await test.step("l'invitation du tableau de bord mène au formulaire ; l'avis part en modération", async () => {
      await page.goto("/patient/dashboard");
      const invitation = page.getByRole("heading", {
        name: "Comment s'est passé votre rendez-vous avec le Dr Sophie Leroy\u202f?",
      });
      await expect(invitation).toBeVisible();
      await page.getByRole("link", { name: "Donner mon avis" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Dr Sophie Leroy");
      await checkScreen(page);
      // Too short: a French message beside the field, nothing sent.
      await page
        .getByRole("group", { name: /Note globale/ })
        .getByLabel("4/5")
        .check();
      await page.getByLabel("Votre avis").fill("Bien.");
      await page.getByLabel("patiente vérifiée").check();
      await page.getByRole("button", { name: "Envoyer mon avis" }).click();
      await expect(page.getByText("Votre avis doit faire au moins 20 caractères.")).toBeVisible();
      await page.getByLabel("Votre avis").fill(TEXT);
      await page
        .getByRole("group", { name: /Écoute/ })
        .getByLabel("5/5")
        .check();
      await page.getByRole("button", { name: "Envoyer mon avis" }).click();
      await expect(toast(page, REVIEW_MESSAGES.sent)).toBeVisible();
      await expectPath(page, "/patient/reviews");
      await expect(page.getByText("En attente de modération")).toBeVisible();
      await checkScreen(page);
    });

    const adminContext = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    const admin = await adminContext.newPage();
    await test.step("l'équipe publie l'avis depuis la file « Avis »", async () => {
      await loginViaApi(admin, DEMO.admin);
      await admin.goto("/admin/reviews");
      const review = admin.getByRole("article", { name: "Avis de Marie D., patiente vérifiée" });
      await expect(review).toContainText(TEXT);
      await checkScreen(admin);
      await review.getByRole("button", { name: "Publier" }).click();
      await expect(toast(admin, REVIEW_MESSAGES.approved)).toBeVisible();
      await expect(review).toHaveCount(0);
    });

    const leroyContext = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    const leroy = await leroyContext.newPage();
    await loginViaApi(leroy, DEMO.dentist2);

    await test.step("sur la proposition suivante de la Dr Leroy : sa note moyenne, ses avis et le lien /avis", async () => {
      const requestId = await fileRequestViaApi(page.request);
      await sendOffer(leroy, requestId, 110_000, `${addDays(parisToday(new Date()), 9)}T11:00`);
      const leroyId = (await (await leroy.request.get("/api/me")).json()).profile.id as string;
      const summary = (await (await page.request.get(`/api/dentists/${leroyId}/reviews`)).json()).summary;
      expect(summary.count).toBeGreaterThan(1);
      await page.goto(`/patient/request/${requestId}`);
      const card = page.getByRole("listitem", { name: "Proposition du Dr Sophie Leroy" });
      await expect(card).toContainText(`${formatRating(summary.average)}/5`);
      await expect(card.getByRole("link", { name: `${summary.count} avis` })).toBeVisible();
      await card.getByRole("link", { name: "Avis vérifiés" }).click();
      await expectPath(page, "/avis");
      await expect(
        page.getByRole("heading", { level: 1, name: "Comment fonctionnent les avis" }),
      ).toBeVisible();
      // Who reads them: signed-in patients, the dentist concerned — not visitors (the API: patients only).
      await expect(page.getByText(/^Les avis sont lus par les patients connectés à Sourio/)).toContainText(
        "Ils ne sont pas affichés aux visiteurs du site ni aux moteurs de recherche.",
      );
      await checkScreen(page);
      await page.goBack();
      await card.getByRole("link", { name: `${summary.count} avis` }).click();
      await expectPath(page, `/patient/dentists/${leroyId}/reviews`);
      // Newest first: hers, just published.
      await expect(page.getByRole("article").first()).toContainText(TEXT);
      await checkScreen(page);
    });

    await test.step("la Dr Leroy répond une fois, publiquement", async () => {
      await leroy.goto("/dentist/reviews");
      const review = leroy
        .getByRole("article", { name: "Avis de Marie D., patiente vérifiée" })
        .filter({ hasText: TEXT });
      await checkScreen(leroy);
      await review.getByRole("button", { name: "Répondre" }).click();
      const dialog = leroy.getByRole("dialog", { name: "Répondre à cet avis" });
      await dialog.getByLabel("Votre réponse").fill("Merci, au plaisir de vous revoir pour le contrôle.");
      await dialog.getByRole("button", { name: "Publier ma réponse" }).click();
      await expect(toast(leroy, REVIEW_MESSAGES.answered)).toBeVisible();
      await expect(review).toContainText("Réponse du Dr Sophie Leroy");
      await expect(review.getByRole("button", { name: "Répondre" })).toHaveCount(0);

      await page.reload();
      await expect(page.getByRole("article").first()).toContainText("Merci, au plaisir de vous revoir");
    });

    await adminContext.close();
    await leroyContext.close();
  });
});
