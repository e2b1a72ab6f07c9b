import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO, expect, expectNoSeriousA11yIssues, test } from "./fixtures";
import {
  downloadFrom,
  expectPath,
  fileRequestViaApi,
  loginViaApi,
  pendingDentistViaApi,
  signupPatientViaApi,
  toast,
} from "./helpers";

/**
 * Issue 35: the dentists' subscription in the browser, through the local payment stand-in (the real
 * Stripe SDK pointed at it; its checkout page offers "Paiement accepté" / "Paiement refusé") and the
 * server's test clock (TEST_CLOCK, tests/e2e/server.ts) for a trial that ends.
 */

const DAY = 24 * 60 * 60 * 1000;
const WIDTH = 375;

/**
 * A new dentist, verified by the demo administrator (through the API): his 30-day trial starts now.
 * `dentist`'s context is signed in as him; `admin` is a request context of its own.
 */
async function verifiedDentistInTrial(dentist: Page, admin: APIRequestContext) {
  const practice = {
    firstName: "Claire",
    city: "Nantes",
    phone: "0240000000",
    address: "3 quai de la Fosse",
    postcode: "44000",
  };
  const { id, email, fullName, lastName, rpps } = await pendingDentistViaApi(dentist.request, practice);
  const login = await admin.post("/api/account/login", {
    data: { email: DEMO.admin, password: "sourio-demo", remember_me: false },
  });
  expect(login.status()).toBe(200);
  const verified = await admin.post(`/api/admin/dentists/${id}/verification`, {
    data: {
      decision: "verify",
      reason: "",
      // What the team's screen shows and sends back (ADR 076).
      checked: { rpps, practice_address: practice.address, practice_postcode: practice.postcode },
    },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  return { id, email, fullName, lastName };
}

/** Euros as the screens write them ("1 068,00 €") in cents. */
const cents = (text: string) => Number(text.replace(/[^\d]/g, ""));

test.describe("abonnement des dentistes", () => {
  test("un dentiste vérifié en essai s'abonne par la page de paiement, revient abonné et télécharge sa facture", async ({
    page,
    request,
  }) => {
    await verifiedDentistInTrial(page, request);
    await page.goto("/dentist/dashboard");

    await test.step("« Abonnement » depuis le menu du compte : l'essai et les formules HT, TVA, TTC", async () => {
      await page.getByRole("button", { name: /^Mon compte/ }).click();
      await page.getByRole("menuitem", { name: "Abonnement" }).click();
      await expectPath(page, "/dentist/subscription");
      await expect(page.getByRole("heading", { level: 1, name: "Abonnement" })).toBeVisible();
      await expect(page.getByText(/^État\s*:\s*Essai gratuit$/)).toBeVisible();
      await expect(page.getByText(/Essai gratuit jusqu'au/)).toBeVisible();
      const monthly = page.getByRole("radio", { name: /Sourio Cabinet — mensuel/ });
      await expect(monthly).toBeChecked();
      await expect(page.getByText(/106,80\s€ TTC par mois/)).toBeVisible();
      await expect(page.getByText(/89,00\s€ HT \+ 17,80\s€ de TVA/)).toBeVisible();
      await expect(
        page.getByText(/890,00\s€ HT \+ 178,00\s€ de TVA \(20\s%\), soit 74,17\s€ HT par mois/),
      ).toBeVisible();
      await expect(page.getByRole("table", { name: "Mes factures et avoirs" })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Aucune facture pour l'instant" })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });

    await test.step("la page de paiement du simulateur, « Paiement accepté », retour sur Sourio", async () => {
      // Subscribed during the trial, he keeps it (ADR 085): nothing is taken before its end.
      await expect(page.getByText(/^Rien n'est prélevé aujourd'hui\s: votre essai continue/)).toBeVisible();
      await page.getByRole("button", { name: "S'abonner" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Paiement de l'abonnement" })).toBeVisible();
      expect(new URL(page.url()).hostname).toBe("127.0.0.1");
      await expect(page.getByText("Paiements simulés localement")).toBeVisible();
      await expect(page.getByText(/106,80\s€ TTC par mois/)).toBeVisible();
      await expectNoSeriousA11yIssues(page);
      await page.getByRole("radio", { name: "Prélèvement SEPA" }).check();
      await page.getByRole("button", { name: "Paiement accepté" }).click();
      await expectPath(page, "/dentist/subscription");
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      await expect(
        page.getByText(/Merci\s! Votre abonnement est enregistré\s: votre essai continue jusqu'au/),
      ).toBeVisible();
      await expect(page.getByText(/^État\s*:\s*Essai gratuit$/)).toBeVisible();
      await expect(
        page.getByText(/puis votre abonnement prend le relais\s: premier paiement le .+\s:\s106,80\s€ TTC\./),
      ).toBeVisible();
      await expect(page.getByRole("button", { name: "Gérer mon moyen de paiement" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Résilier" })).toBeVisible();
      await expect(page.getByRole("button", { name: "S'abonner" })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Aucune facture pour l'instant" })).toBeVisible();
    });

    await test.step("pendant l'essai gardé, « Passer à la formule annuelle » : le premier paiement devient annuel, puis annulé (ADR 096)", async () => {
      await page.getByRole("button", { name: "Passer à la formule annuelle" }).click();
      const dialog = page.getByRole("dialog", { name: /^Passer à la formule annuelle/ });
      await expect(dialog).toContainText(
        /Votre essai gratuit continue jusqu'au .+ votre abonnement commence en formule annuelle/,
      );
      await dialog.getByRole("button", { name: "Passer à la formule annuelle" }).click();
      await expect(toast(page, "Changement de formule enregistré")).toBeVisible();
      await expect(page.getByText(/premier paiement le .+\s:\s1\s068,00\s€ TTC\./)).toBeVisible();
      await expect(page.getByText(/^État\s*:\s*Essai gratuit$/)).toBeVisible();
      await page.getByRole("button", { name: "Annuler le changement" }).click();
      const undo = page.getByRole("dialog", { name: /^Annuler le changement de formule/ });
      await undo.getByRole("button", { name: "Annuler le changement" }).click();
      await expect(toast(page, "Changement de formule annulé")).toBeVisible();
      await expect(page.getByText(/premier paiement le .+\s:\s106,80\s€ TTC\./)).toBeVisible();
    });

    try {
      await test.step("l'essai fini (l'horloge du serveur avancée de 31 jours) : le premier paiement, actif", async () => {
        const moved = await request.post("/api/test/clock", { data: { offset_ms: 31 * DAY } });
        expect(moved.status()).toBe(200);
        await page.goto("/dentist/subscription");
        await expect(page.getByText(/^État\s*:\s*Actif$/)).toBeVisible();
        await expect(page.getByText(/Prochain paiement le .+\s:\s106,80\s€ TTC\./)).toBeVisible();
      });

      await test.step("sa facture F-…, téléchargée : un PDF (Factur-X)", async () => {
        const table = page.getByRole("table", { name: "Mes factures et avoirs" });
        const download = table.getByRole("button", { name: /^Télécharger la facture F-\d{6}$/ });
        await expect(download).toHaveCount(1);
        await expect(table).toContainText("106,80");
        const bytes = await downloadFrom(download, /\.pdf$/);
        expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
        // The Factur-X XML travels inside the PDF, under its standard name.
        expect(bytes.includes(Buffer.from("factur-x.xml"))).toBe(true);
        expect(bytes.length).toBeGreaterThan(10_000);
      });

      await test.step("« Passer à la formule annuelle » : prévu à la fin de la période payée, puis annulé (ADR 096)", async () => {
        await page.getByRole("button", { name: "Passer à la formule annuelle" }).click();
        const dialog = page.getByRole("dialog", { name: /^Passer à la formule annuelle/ });
        await expect(dialog).toContainText(/1\s068,00\s€ TTC prélevés alors, puis chaque année/);
        // 12 × 106,80 € − 1 068,00 € (the prices of the page).
        await expect(dialog).toContainText(/soit 213,60\s€ d'économie sur un an/);
        await expectNoSeriousA11yIssues(page);
        await dialog.getByRole("button", { name: "Passer à la formule annuelle" }).click();
        await expect(toast(page, "Changement de formule enregistré")).toBeVisible();
        await expect(
          page.getByText(/^Passage à la formule annuelle le .+\(1\s068,00\s€ TTC par an\)\.$/),
        ).toBeVisible();
        await expect(page.getByRole("button", { name: "Passer à la formule annuelle" })).toHaveCount(0);
        await page.getByRole("button", { name: "Annuler le changement" }).click();
        const undo = page.getByRole("dialog", { name: /^Annuler le changement de formule/ });
        await undo.getByRole("button", { name: "Annuler le changement" }).click();
        await expect(toast(page, "Changement de formule annulé")).toBeVisible();
        await expect(page.getByRole("button", { name: "Passer à la formule annuelle" })).toBeVisible();
        await expect(page.getByText(/^Passage à la formule/)).toHaveCount(0);
      });

      await test.step(`la page tient dans ${WIDTH} px de large`, async () => {
        await page.setViewportSize({ width: WIDTH, height: 740 });
        await page.goto("/dentist/subscription");
        await expect(page.getByRole("heading", { level: 1, name: "Abonnement" })).toBeVisible();
        // The invoices as cards on a phone.
        await expect(page.getByRole("button", { name: /^Télécharger la facture F-\d{6}$/ })).toBeVisible();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
      });

      // What the server says agrees with the screen.
      const summary = (await (await page.request.get("/api/dentist/subscription")).json()) as {
        subscription: { status: string; plan: string };
      };
      expect(summary.subscription).toMatchObject({ status: "active", plan: "monthly" });
    } finally {
      await request.post("/api/test/clock", { data: { offset_ms: 0 } });
    }
  });

  test("un dentiste dont l'essai est fini voit la limite et le chemin du retour, et n'envoie plus de proposition", async ({
    page,
    request,
    other: patientPage,
  }) => {
    // A request sent while the dentist can still see it.
    await signupPatientViaApi(patientPage.request);
    const requestId = await fileRequestViaApi(patientPage.request);
    await verifiedDentistInTrial(page, request);
    await page.goto("/dentist/quote-requests");
    await expect(page.getByRole("table", { name: "Demandes de devis" })).toBeVisible();

    try {
      // 31 days later (the server's test clock): the trial has ended, nothing was paid.
      const moved = await request.post("/api/test/clock", { data: { offset_ms: 31 * DAY } });
      expect(moved.status()).toBe(200);

      await test.step("la liste des demandes : la limite expliquée, « Réactiver mon abonnement »", async () => {
        await page.goto("/dentist/quote-requests");
        const banner = page.getByRole("region", { name: "Abonnement" });
        await expect(banner).toContainText("Votre abonnement n'est plus actif");
        await expect(banner.getByRole("link", { name: "Réactiver mon abonnement" })).toBeVisible();
        // Above the list, what he keeps, what he no longer does, and the way back.
        const notice = page.getByRole("alert").filter({ hasText: "Votre abonnement n'est plus actif" });
        await expect(notice).toContainText("Vous gardez vos conversations, vos patients, vos rendez-vous");
        await expect(notice.getByRole("link", { name: "Réactiver mon abonnement" })).toHaveAttribute(
          "href",
          "/dentist/subscription",
        );
        await expect(page.locator(`a[href="/dentist/patient-submission/${requestId}"]`)).toHaveCount(0);
        await expectNoSeriousA11yIssues(page);
      });

      await test.step("la demande vue avant, et sa page de proposition : la limite, pas une erreur nue", async () => {
        for (const path of [
          `/dentist/patient-submission/${requestId}`,
          `/dentist/quote-request/${requestId}`,
        ]) {
          await page.goto(path);
          await expect(page.getByRole("heading", { level: 1, name: "Demande inaccessible" })).toBeVisible();
          await expect(page.getByRole("heading", { name: "Demande non trouvée" })).toHaveCount(0);
          await expect(
            page.getByText("Seules les demandes dont le patient vous a choisi restent ouvertes."),
          ).toBeVisible();
          await expect(
            page.getByRole("main").getByRole("link", { name: "Réactiver mon abonnement" }),
          ).toBeVisible();
          await expect(page.getByRole("form", { name: "Proposition au patient" })).toHaveCount(0);
          await expect(page.getByRole("form", { name: "Réponse au patient" })).toHaveCount(0);
        }
        await expectNoSeriousA11yIssues(page);
      });

      await test.step("une proposition est refusée par le serveur (la demande lui est cachée)", async () => {
        const refused = await page.request.post(`/api/dentist/requests/${requestId}/offers`, {
          data: {
            amount_cents: 90_000,
            comment: "Couronne céramique.",
            lines: [],
            slots: [],
            valid_until: new Date(Date.now() + 60 * DAY).toISOString().slice(0, 10),
          },
        });
        expect(refused.status()).toBe(404);
      });

      await test.step("« Réactiver mon abonnement » mène à la page Abonnement, où l'on peut s'abonner", async () => {
        await page.getByRole("main").getByRole("link", { name: "Réactiver mon abonnement" }).click();
        await expectPath(page, "/dentist/subscription");
        await expect(page.getByText(/^État\s*:\s*Accès limité$/)).toBeVisible();
        await expect(page.getByRole("button", { name: "S'abonner" })).toBeEnabled();
      });
    } finally {
      await request.post("/api/test/clock", { data: { offset_ms: 0 } });
    }
  });

  test("l'équipe voit les abonnements par état et le revenu mensuel récurrent", async ({
    page,
    other: dentist,
    request,
  }) => {
    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/dashboard");
    await page
      .getByRole("navigation", { name: "Administration" })
      .getByRole("link", { name: "Abonnements" })
      .click();
    await expectPath(page, "/admin/subscriptions");
    await expect(page.getByRole("heading", { level: 1, name: "Abonnements" })).toBeVisible();

    // A counter's value: the line under its label.
    const stat = (label: string) =>
      page.getByText(label, { exact: true }).locator("xpath=following-sibling::p[1]");
    const mrr = async () => cents((await stat("Revenu mensuel récurrent (HT)").textContent()) ?? "");
    const actives = async () => cents((await stat("Actif").textContent()) ?? "");
    await expect(stat("Revenu mensuel récurrent (HT)")).toContainText("€");
    const before = { mrr: await mrr(), actives: await actives() };
    // Dr Martin, subscribed monthly in the demo, is in the list.
    const martin = page.getByRole("listitem").filter({ hasText: "dr.martin@demo.sourio.fr" });
    await expect(martin).toContainText("Actif · mensuel");
    expect(before.mrr).toBeGreaterThanOrEqual(8900);
    await expectNoSeriousA11yIssues(page);

    // A new dentist subscribes monthly (the stand-in's checkout, "Paiement accepté", through HTTP).
    const who = await verifiedDentistInTrial(dentist, request);
    const started = await dentist.request.post("/api/dentist/subscription/checkout", {
      data: { plan: "monthly" },
    });
    expect(started.status()).toBe(200);
    const { url } = (await started.json()) as { url: string };
    const paid = await dentist.request.post(url, {
      form: { method: "card", outcome: "accepted" },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);

    try {
      // Subscribed during his trial (ADR 085), he pays from its end: the server's clock moved past it.
      const moved = await request.post("/api/test/clock", { data: { offset_ms: 31 * DAY } });
      expect(moved.status()).toBe(200);

      // 89 € HT more each month, one more active subscription.
      await page.reload();
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
      await expect.poll(mrr).toBe(before.mrr + 8900);
      expect(await actives()).toBe(before.actives + 1);
      await page.getByLabel("Rechercher un dentiste (nom ou e-mail)").fill(who.lastName);
      await page.getByRole("button", { name: "Rechercher" }).click();
      const line = page.getByRole("listitem").filter({ hasText: who.fullName });
      await expect(line).toContainText("Actif · mensuel");

      // His invoice, under his line; the register for the accountant lists it.
      await line.getByRole("button", { name: `Factures de ${who.fullName}` }).click();
      const invoices = line.getByRole("table", { name: `Factures et avoirs de ${who.fullName}` });
      const download = invoices.getByRole("button", { name: /^Télécharger la facture F-\d{6}$/ });
      await expect(download).toHaveCount(1);
      const number = ((await download.getAttribute("aria-label")) ?? "").replace(
        "Télécharger la facture ",
        "",
      );
      const pdf = await downloadFrom(download, /\.pdf$/);
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      await expectNoSeriousA11yIssues(page);
      const csv = (
        await downloadFrom(page.getByRole("button", { name: "Exporter le registre (CSV)" }), /\.csv$/)
      ).toString("utf8");
      const row = csv.split(/\r?\n/).find((l) => l.startsWith(`${number};`));
      expect(row, `la facture ${number} dans le registre`).toBeTruthy();
      expect(row).toContain("106,80");
    } finally {
      await request.post("/api/test/clock", { data: { offset_ms: 0 } });
    }
  });
});
