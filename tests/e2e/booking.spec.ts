import ICAL from "ical.js";
import { formatAppointmentTime } from "../../src/shared/format/dates";
import { addDays, parisLocalToDate, parisToday } from "../../src/shared/policies/offers";
import { DEMO, expect, expectNoSeriousA11yIssues, outbox, test } from "./fixtures";
import {
  downloadFrom,
  expectPath,
  fileRequestViaApi,
  loginViaApi,
  sendOffer,
  signupPatientViaApi,
  toast,
} from "./helpers";

const DAY = 24 * 60 * 60 * 1000;

test.describe("comparer, accepter, prendre rendez-vous (ADR 008, ADR 011)", () => {
  test("deux dentistes proposent ; le patient compare, accepte, réserve un créneau ; le dentiste confirme ; .ics et rappel", async ({
    page,
    browser,
    request,
  }) => {
    // The patient has their own cookie jar (`request`) for the API, and signs the page in.
    const patient = await signupPatientViaApi(request, { firstName: "Inès", lastName: "Rendezvous" });
    const requestId = await fileRequestViaApi(request);
    // Slots 8 days ahead (Paris time): the 7-day reminder falls due a day from now.
    const slotDay = addDays(parisToday(new Date()), 8);
    // Another minute on each retry or repetition: an earlier attempt may have confirmed Dr Martin's
    // 10:00, and a dentist cannot offer a time he has confirmed (ADR 038).
    const { retry, repeatEachIndex } = test.info();
    const minute = String(((retry + 2 * repeatEachIndex) * 5) % 60).padStart(2, "0");
    const martinSlot = `${slotDay}T10:${minute}`;
    const startsAt = parisLocalToDate(martinSlot);
    const when = formatAppointmentTime(startsAt);

    const martinContext = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    const martin = await martinContext.newPage();
    const leroyContext = await browser.newContext({ locale: "fr-FR", timezoneId: "Europe/Paris" });
    const leroy = await leroyContext.newPage();
    await loginViaApi(martin, DEMO.dentist);
    await loginViaApi(leroy, DEMO.dentist2);
    await sendOffer(martin, requestId, 120_000, martinSlot);
    await sendOffer(leroy, requestId, 135_000, `${slotDay}T14:30`);

    await loginViaApi(page, patient.email, patient.password);

    await test.step("le patient compare les deux propositions côte à côte", async () => {
      await page.goto(`/patient/request/${requestId}`);
      const offers = page.getByRole("list", { name: "Propositions reçues" });
      await expect(offers.getByRole("listitem", { name: /^Proposition du Dr / })).toHaveCount(2);
      await page.getByRole("checkbox", { name: "Comparer la proposition du Dr Julien Martin" }).check();
      await page.getByRole("checkbox", { name: "Comparer la proposition du Dr Sophie Leroy" }).check();
      await page.getByRole("link", { name: "Comparer (2)" }).click();
      await expectPath(page, `/patient/request/${requestId}/compare`);

      const table = page.getByRole("table");
      await expect(table.getByRole("columnheader", { name: /Dr Julien Martin/ })).toBeVisible();
      await expect(table.getByRole("columnheader", { name: /Dr Sophie Leroy/ })).toBeVisible();
      const amounts = table.getByRole("row", { name: /^Montant/ });
      await expect(amounts).toContainText("1 200,00");
      await expect(amounts).toContainText("1 350,00");
      await expect(amounts).toContainText("Le moins cher");
      const savings = table.getByRole("row", { name: /^Économie estimée/ });
      await expect(savings).toContainText("300,00 € (20 %)");
      await expect(savings).toContainText("150,00 € (10 %)");
      await expect(table.getByRole("row", { name: /^Créneaux proposés/ })).toContainText(
        formatAppointmentTime(startsAt).replace(/^\S+ /, ""),
      );
      await expectNoSeriousA11yIssues(page);
    });

    await test.step("il accepte celle du Dr Martin ; celle de la Dr Leroy est clôturée", async () => {
      await page.getByRole("button", { name: "Accepter cette proposition (Dr Julien Martin)" }).click();
      const dialog = page.getByRole("dialog", { name: /Accepter la proposition du Dr Julien Martin/ });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("button", { name: "Accepter la proposition" }).click();
      await expect(
        toast(page, "Proposition acceptée : choisissez maintenant votre rendez-vous"),
      ).toBeVisible();
      await expectPath(page, `/patient/request/${requestId}`);
      // Accepting leads straight to booking (issue 16): not 'Terminée', the slot choice in view.
      await expect(
        page.getByRole("heading", { name: "Proposition acceptée\u202f: choisissez un créneau" }),
      ).toBeVisible();
      const booking = page.getByRole("heading", { name: "Votre rendez-vous avec le Dr Julien Martin" });
      await expect(booking).toBeFocused();
      await expect(booking).toBeInViewport();
      const closed = page.getByRole("listitem", { name: "Proposition du Dr Sophie Leroy" });
      await expect(closed.getByText("Clôturée")).toBeVisible();
      await expect(page.getByRole("button", { name: /^Accepter cette proposition/ })).toHaveCount(0);
      await expect
        .poll(() =>
          outbox().some(
            (m) => m.includes("dr.leroy@demo.sourio.fr") && m.includes("a choisi un autre cabinet"),
          ),
        )
        .toBe(true);
    });

    await test.step("il réserve le créneau proposé", async () => {
      await page.getByRole("radio", { name: when }).check();
      await page.getByRole("button", { name: "Envoyer ma demande de rendez-vous" }).click();
      await expect(toast(page, "Votre demande de rendez-vous a été envoyée au dentiste")).toBeVisible();
      await expect(page.getByText("En attente de confirmation du dentiste")).toBeVisible();
    });

    await test.step("le Dr Martin confirme ; le rendez-vous est sur son tableau de bord", async () => {
      await martin.goto("/dentist/appointments");
      const card = martin.getByRole("article", { name: patient.fullName });
      await expect(card.getByText("À confirmer")).toBeVisible();
      await card.getByRole("radio", { name: when }).check();
      await card.getByRole("button", { name: "Confirmer ce créneau" }).click();
      await expect(toast(martin, "Rendez-vous confirmé")).toBeVisible();
      await expect(
        martin.getByRole("article", { name: patient.fullName }).getByText("Confirmé"),
      ).toBeVisible();
      await expectNoSeriousA11yIssues(martin);
      await martin.goto("/dentist/dashboard");
      const next = martin.getByRole("list", { name: "Prochains rendez-vous" });
      await expect(next.getByText(patient.fullName)).toBeVisible();
    });

    await test.step("le patient le voit confirmé, sur sa demande et son tableau de bord, et l'ajoute à son agenda", async () => {
      await page.reload();
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      await expect(page.getByText("Confirmé", { exact: true })).toBeVisible();
      await expect(page.getByText(when, { exact: true })).toBeVisible();

      const ics = await downloadFrom(
        page.getByRole("button", { name: "Ajouter à mon agenda (.ics)" }),
        "rendez-vous.ics",
      );
      const text = ics.toString("utf8");
      const vevent = new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent("vevent");
      if (!vevent) throw new Error("pas d'événement dans le fichier .ics");
      const event = new ICAL.Event(vevent);
      expect(event.startDate.toJSDate().toISOString()).toBe(startsAt.toISOString());
      expect(event.summary).toBe("Rendez-vous dentaire — Dr Julien Martin");

      await page.goto("/patient/dashboard");
      const mine = page.getByRole("region", { name: "Mes rendez-vous" });
      await expect(mine.getByText(/Julien Martin/)).toBeVisible();
      await expect(mine.getByText("Confirmé")).toBeVisible();
      await expect
        .poll(() => outbox().filter((m) => m.includes(patient.email) && m.includes("est confirmé")).length)
        .toBe(1);
    });

    await test.step("le rappel à 7 jours part quand l'horloge du serveur avance, une seule fois", async () => {
      const reminders = () =>
        outbox().filter(
          (m) => m.includes(patient.email) && m.includes("Nous vous rappelons votre rendez-vous"),
        );
      expect(reminders()).toHaveLength(0);
      try {
        const offset = startsAt.getTime() - 7 * DAY + 60_000 - Date.now();
        for (let i = 0; i < 2; i++) {
          const moved = await request.post("/api/test/clock", { data: { offset_ms: offset } });
          expect(moved.status()).toBe(200);
        }
        expect(reminders()).toHaveLength(1);
        expect(reminders()[0]).toContain("Julien Martin");
        expect(reminders()[0]).toContain(when);
      } finally {
        await request.post("/api/test/clock", { data: { offset_ms: 0 } });
      }
    });

    await martinContext.close();
    await leroyContext.close();
  });

  test("un dentiste retire sa proposition depuis « Mes propositions » ; le patient ne la voit plus", async ({
    page,
    request,
  }) => {
    const patient = await signupPatientViaApi(request, { firstName: "Hugo", lastName: "Retrait" });
    const requestId = await fileRequestViaApi(request);
    await loginViaApi(page, DEMO.dentist2);
    await sendOffer(page, requestId, 99_000, `${addDays(parisToday(new Date()), 9)}T09:00`);

    await page.goto("/dentist/offers?etat=sent");
    await expect(page.getByRole("heading", { level: 1, name: "Mes propositions" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: patient.fullName });
    await expect(row).toContainText("990,00");
    await row.getByRole("button", { name: /^Retirer/ }).click();
    const dialog = page.getByRole("dialog", { name: "Retirer cette proposition ?" });
    await dialog.getByRole("button", { name: /Retirer/ }).click();
    await expect(toast(page, "Votre proposition a été retirée")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: patient.fullName })).toHaveCount(0);
    await page.goto("/dentist/offers?etat=withdrawn");
    await expect(page.getByRole("row").filter({ hasText: patient.fullName })).toContainText("Retirée");

    const detail = await request.get(`/api/patient/requests/${requestId}`);
    expect(((await detail.json()) as { offers: unknown[] }).offers).toEqual([]);
  });

  test("sur un téléphone, la comparaison devient une pile de cartes aux mêmes critères (issue 16)", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await loginViaApi(page, DEMO.patient);
    const list = await page.request.get("/api/patient/requests");
    const implant = ((await list.json()) as { items: { id: string; treatment_type: string }[] }).items.find(
      (r) => r.treatment_type === "implant",
    );
    if (!implant) throw new Error("la demande d'implant de démonstration manque");
    await page.goto(`/patient/request/${implant.id}/compare`);
    const cards = page
      .getByRole("list", { name: /^Comparaison des propositions/ })
      .getByRole("listitem", { name: /^Proposition du Dr / });
    await expect(cards.first()).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    // The page does not scroll sideways; each card says the same criteria, the reste à charge first.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < count; i++)
      await expect(cards.nth(i).locator("dt").first()).toHaveText("Reste à charge estimé");
    const accept = cards.first().getByRole("button", { name: /^Accepter cette proposition/ });
    await accept.scrollIntoViewIfNeeded();
    await expect(accept).toBeInViewport({ ratio: 1 });
    await expectNoSeriousA11yIssues(page);
  });
});
