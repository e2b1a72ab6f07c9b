import type { Browser, Page } from "@playwright/test";
import { formatAppointmentTime } from "../../src/shared/format/dates";
import { addDays, parisLocalToDate, parisToday } from "../../src/shared/policies/offers";
import { DEMO, expect, expectNoSeriousA11yIssues, outbox, test } from "./fixtures";
import { expectPath, fileRequestViaApi, loginViaApi, sendOffer, signupPatientViaApi, toast } from "./helpers";

/*
 * Issue 16, the patient's journey: one next step per request, accepting leads straight to booking,
 * accepting is not a trap (withdraw until the appointment is confirmed), and the comparison fits a
 * phone.
 */

/** A new patient's request with offers from Dr Martin (1 200 €) and Dr Leroy (1 350 €). */
async function requestWithTwoOffers(browser: Browser, api: Parameters<typeof fileRequestViaApi>[0]) {
  const patient = await signupPatientViaApi(api, { firstName: "Noa", lastName: "Parcours" });
  const requestId = await fileRequestViaApi(api);
  const slotDay = addDays(parisToday(new Date()), 9);
  const slot = `${slotDay}T10:00`;
  const dentists: Page[] = [];
  for (const [email, amount, time] of [
    [DEMO.dentist, 120_000, slot],
    [DEMO.dentist2, 135_000, `${slotDay}T14:30`],
  ] as const) {
    const context = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    const page = await context.newPage();
    await loginViaApi(page, email);
    await sendOffer(page, requestId, amount, time);
    dentists.push(page);
  }
  await Promise.all(dentists.map((page) => page.context().close()));
  return { patient, requestId, when: formatAppointmentTime(parisLocalToDate(slot)) };
}

test.describe("le parcours du patient (issue 16)", () => {
  test("du tableau de bord à la comparaison, accepter puis réserver d'un trait, puis changer d'avis", async ({
    page,
    browser,
    request,
  }) => {
    const { patient, requestId, when } = await requestWithTwoOffers(browser, request);
    await loginViaApi(page, patient.email, patient.password);

    await test.step("le tableau de bord mène à l'étape suivante : comparer", async () => {
      await page.goto("/patient/dashboard");
      // The request's row leads with its next step (the empty appointments card offers the same).
      await page.getByRole("link", { name: /^Comparer 2 propositions — Couronne/ }).click();
      await expectPath(page, `/patient/request/${requestId}/compare`);
    });

    await test.step("accepter mène droit au choix du créneau", async () => {
      await page.getByRole("button", { name: "Accepter cette proposition (Dr Julien Martin)" }).click();
      const dialog = page.getByRole("dialog", { name: /Accepter la proposition du Dr Julien Martin/ });
      await expect(dialog).toContainText(
        "Vous pourrez changer d'avis tant que le rendez-vous n'est pas confirmé.",
      );
      await expect(dialog).not.toContainText("définitif");
      await dialog.getByRole("button", { name: "Accepter la proposition" }).click();
      await expectPath(page, `/patient/request/${requestId}`);
      const booking = page.getByRole("heading", { name: "Votre rendez-vous avec le Dr Julien Martin" });
      await expect(booking).toBeFocused();
      await expect(booking).toBeInViewport();
      const steps = page.getByRole("navigation", { name: "Étapes de votre demande" });
      await expect(steps.locator('[aria-current="step"]')).toContainText("Proposition acceptée");
      await page.getByRole("radio", { name: when }).check();
      await page.getByRole("button", { name: "Envoyer ma demande de rendez-vous" }).click();
      await expect(toast(page, "Votre demande de rendez-vous a été envoyée au dentiste")).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "Rendez-vous à confirmer" })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });

    await test.step("changer d'avis : l'autre proposition est rouverte, les dentistes prévenus", async () => {
      await page.getByRole("button", { name: "Changer d'avis" }).click();
      const dialog = page.getByRole("dialog", { name: /Retirer votre acceptation/ });
      await expect(dialog).toContainText("Le rendez-vous en attente sera annulé.");
      await dialog.getByRole("button", { name: "Retirer mon acceptation" }).click();
      await expect(toast(page, "Vous avez retiré votre acceptation")).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "2 propositions à comparer" })).toBeVisible();
      const leroy = page.getByRole("listitem", { name: "Proposition du Dr Sophie Leroy" });
      await expect(leroy.getByRole("button", { name: /^Accepter cette proposition/ })).toBeVisible();
      await expect(page.getByRole("button", { name: /^Accepter cette proposition/ })).toHaveCount(2);
      await expect(page.getByRole("heading", { name: /^Votre rendez-vous avec/ })).toHaveCount(0);
      await expect
        .poll(() =>
          outbox().some((m) => m.includes("dr.leroy@demo.sourio.fr") && m.includes("de nouveau ouverte")),
        )
        .toBe(true);
      await expect
        .poll(() =>
          outbox().some(
            (m) => m.includes("dr.martin@demo.sourio.fr") && m.includes("a retiré son acceptation"),
          ),
        )
        .toBe(true);
      await expectNoSeriousA11yIssues(page);
    });
  });

  test("sur un téléphone (375 px) : l'étape et les propositions d'abord, la comparaison en cartes", async ({
    page,
    browser,
    request,
  }) => {
    const { patient, requestId } = await requestWithTwoOffers(browser, request);
    await page.setViewportSize({ width: 375, height: 800 });
    await loginViaApi(page, patient.email, patient.password);

    await page.goto(`/patient/request/${requestId}`);
    const next = page.getByRole("link", { name: /^Comparer 2 propositions/ });
    await expect(next).toBeInViewport();
    const offersTop =
      (await page.getByRole("heading", { level: 2, name: "Propositions", exact: true }).boundingBox())?.y ??
      0;
    const cancel = page.getByRole("button", { name: "Annuler la demande" });
    const cancelTop = (await cancel.boundingBox())?.y ?? 0;
    expect(offersTop).toBeGreaterThan(0);
    expect(cancelTop).toBeGreaterThan(offersTop);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yIssues(page);

    await next.click();
    await expectPath(page, `/patient/request/${requestId}/compare`);
    await expect(page.getByRole("table")).toHaveCount(0);
    const cards = page.getByRole("listitem", { name: /^Proposition du Dr / });
    await expect(cards).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const name of ["Dr Julien Martin", "Dr Sophie Leroy"]) {
      const accept = page.getByRole("button", { name: `Accepter cette proposition (${name})` });
      await accept.scrollIntoViewIfNeeded();
      await expect(accept).toBeInViewport({ ratio: 1 });
      const box = await accept.boundingBox();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375).toBe(true);
    }
    const martin = cards.filter({ hasText: "Dr Julien Martin" });
    await expect(martin).toContainText("1 200,00");
    await expect(martin).toContainText("Validité");
    await expectNoSeriousA11yIssues(page);
  });
});
