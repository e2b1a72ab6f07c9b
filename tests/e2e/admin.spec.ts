import type { Page } from "@playwright/test";
import { formatDetailDate } from "../../src/shared/format/dates";
import { addDays, parisLocalToDate, parisToday } from "../../src/shared/format/paris";
import { DEMO, expect, expectNoSeriousA11yIssues, outbox, test, uniqueEmail } from "./fixtures";
import {
  downloadFrom,
  expectPath,
  loginViaApi,
  open,
  pendingDentistViaApi,
  signupPatientViaApi,
  TINY_PNG,
  toast,
  uniqueWord,
} from "./helpers";

/** A new dentist in Rennes who asked for verification (`page`'s context is then signed in as him). */
const pendingDentist = (page: Page) =>
  pendingDentistViaApi(page.request, {
    firstName: "Paul",
    city: "Rennes",
    phone: "0299000000",
    address: "12 rue de la Paix",
    postcode: "35000",
  });

test.describe("espace d'administration", () => {
  test("l'administrateur vérifie un dentiste en attente, qui voit alors les demandes ; puis retire la vérification", async ({
    page,
    other: dentist,
  }) => {
    const who = await pendingDentist(dentist);

    // Before: no patient data.
    await open(dentist, "/dentist/quote-requests");
    await expect(dentist.getByRole("heading", { name: "En attente de vérification" })).toBeVisible();

    // The admin finds the request in the queue, with its RPPS number and practice.
    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/dashboard");
    await page
      .getByRole("navigation", { name: "Administration" })
      .getByRole("link", { name: "Vérifications" })
      .click();
    await expectPath(page, "/admin/verifications");
    await expect(page.getByRole("heading", { level: 1, name: "Demandes de vérification" })).toBeVisible();
    const card = page.getByRole("listitem").filter({ hasText: who.fullName });
    await expect(card).toContainText(who.rpps);
    await expect(card).toContainText("12 rue de la Paix");
    await expect(card).toContainText("35000");
    await expect(card).toContainText("Rennes");
    await expectNoSeriousA11yIssues(page);

    await card.getByRole("button", { name: `Vérifier ${who.fullName}` }).click();
    const confirm = page.getByRole("dialog", { name: "Vérifier ce dentiste ?" });
    await confirm.getByRole("button", { name: "Vérifier", exact: true }).click();
    await expect(toast(page, "Dentiste vérifié")).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole("listitem").filter({ hasText: who.fullName })).toHaveCount(0);

    // The dentist is told by e-mail, with a link to the requests (the newest of its kind: the
    // morning e-mail of new requests, ADR 086, may come after it).
    await expect
      .poll(
        () =>
          outbox()
            .filter((mail) => mail.includes(`To: ${who.email}`) && mail.includes("votre cabinet est vérifié"))
            .at(-1),
        { message: "e-mail de vérification" },
      )
      .toContain("/dentist/quote-requests");

    // The dentist now sees patient requests.
    await open(dentist, "/dentist/quote-requests");
    await expect(
      dentist.getByRole("table", { name: "Demandes de devis" }).getByRole("link").first(),
    ).toBeVisible();
    await expect(dentist.getByRole("heading", { name: "En attente de vérification" })).toHaveCount(0);

    // The decision is in the audit log.
    await page
      .getByRole("navigation", { name: "Administration" })
      .getByRole("link", { name: "Audit" })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Journal d'audit" })).toBeVisible();
    await expect(
      page
        .getByRole("table", { name: "Journal d'audit" })
        .getByRole("row")
        .filter({ hasText: who.fullName })
        .first(),
    ).toBeVisible();

    // The admin unverifies from the dentists table; the requests disappear at once.
    await page.goto("/admin/dashboard");
    await page.getByLabel("Rechercher un dentiste").fill(who.lastName);
    const dentists = page.getByRole("table", { name: "Dentistes inscrits" });
    await expect(dentists.getByRole("row")).toHaveCount(2);
    const row = dentists.getByRole("row").filter({ hasText: who.fullName });
    await expect(row).toContainText("Vérifié");
    await expect(row).toContainText(who.email);
    await row.getByRole("button", { name: `Retirer la vérification de ${who.fullName}` }).click();
    const withdrawal = page.getByRole("dialog", { name: "Retirer la vérification ?" });
    await withdrawal.getByLabel(/Raison du retrait/).fill("Numéro RPPS inactif au répertoire");
    await withdrawal.getByRole("button", { name: "Retirer la vérification" }).click();
    await expect(toast(page, "Dentiste non vérifié")).toBeVisible();
    await expect(row).toContainText("Vérification retirée");
    await expect(row.getByRole("button", { name: `Vérifier ${who.fullName}` })).toBeVisible();

    await dentist.reload();
    await dentist.waitForFunction(() => document.documentElement.dataset.ready === "true");
    await expect(dentist.getByRole("heading", { name: "Vérification retirée" })).toBeVisible();
    await expect(dentist.getByRole("row")).toHaveCount(0);
  });

  test("un refus demande une raison, que le dentiste lit sur son profil", async ({
    page,
    other: dentist,
  }) => {
    const who = await pendingDentist(dentist);

    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/verifications");
    const card = page.getByRole("listitem").filter({ hasText: who.fullName });
    await card.getByRole("button", { name: `Refuser la demande de ${who.fullName}` }).click();
    const dialog = page.getByRole("dialog", { name: "Refuser la demande de vérification" });
    await dialog.getByRole("button", { name: "Refuser la demande" }).click();
    await expect(dialog.getByText("Indiquez la raison du refus : le dentiste la lira.")).toBeVisible();
    await expect(dialog.getByLabel(/^Raison du refus/)).toHaveAttribute("aria-invalid", "true");
    await dialog.getByLabel(/^Raison du refus/).fill("Le numéro RPPS ne correspond pas à votre nom.");
    await dialog.getByRole("button", { name: "Refuser la demande" }).click();
    await expect(toast(page, "Demande de vérification refusée")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: who.fullName })).toHaveCount(0);

    await open(dentist, "/dentist/profile");
    const status = dentist.getByRole("region", { name: "Statut du compte" });
    await expect(status.getByText("Vérification refusée")).toBeVisible();
    await expect(status).toContainText("Le numéro RPPS ne correspond pas à votre nom.");
    await expect(dentist.getByRole("button", { name: "Demander une vérification" })).toBeEnabled();
  });

  test("l'administrateur suspend une patiente jusqu'à un jour, puis le change : déconnectée, elle apprend pourquoi à la connexion ; puis il la rétablit", async ({
    page,
    other: patient,
  }) => {
    const account = await signupPatientViaApi(patient.request, { lastName: uniqueWord("Suspendue") });
    await open(patient, "/patient/dashboard");
    await expect(patient.getByRole("heading", { level: 1 })).toBeVisible();

    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/dashboard");
    await page.getByLabel("Rechercher un patient").fill(account.email);
    const row = page.getByRole("table", { name: "Patients inscrits" }).getByRole("row").filter({
      hasText: account.email,
    });
    await expect(row).toHaveCount(1);
    await row.getByRole("button", { name: `Suspendre le compte de ${account.fullName}` }).click();
    const dialog = page.getByRole("dialog", { name: /^Suspendre le compte de/ });
    await expect(dialog).toContainText("Ses demandes nouvelles ou en cours sont annulées");
    // No reason, nothing sent: the field says why.
    await dialog.getByRole("button", { name: "Suspendre le compte" }).click();
    await expect(dialog.getByText(/Indiquez la raison de la suspension/)).toBeVisible();
    await expectNoSeriousA11yIssues(page);
    await dialog
      .getByLabel(/^Raison de la suspension/)
      .fill("Messages injurieux envoyés à plusieurs dentistes.");
    // Lifted by itself in ten days (ADR 092's addendum).
    const endsOn = addDays(parisToday(new Date()), 10);
    await dialog.getByLabel("Rétablir automatiquement le (facultatif)").fill(endsOn);
    await dialog.getByRole("button", { name: "Suspendre le compte" }).click();
    await expect(toast(page, "Compte suspendu")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText("Suspendu");
    await expect(row).toContainText("Messages injurieux envoyés à plusieurs dentistes.");
    const endDay = formatDetailDate(parisLocalToDate(`${endsOn}T00:00`));
    await expect(row).toContainText(`Rétabli automatiquement le ${endDay}`);
    // Among the suspended accounts alone too.
    const suspendedOnly = page
      .getByRole("region", { name: "Patients" })
      .getByRole("checkbox", { name: "Comptes suspendus seulement" });
    await suspendedOnly.check();
    await expect(row).toContainText("Suspendu");
    await suspendedOnly.uncheck();
    // The day moved two days later while it lasts (the addendum of 06/12): the row says the new one.
    await row
      .getByRole("button", { name: `Changer la date de fin de la suspension de ${account.fullName}` })
      .click();
    const ending = page.getByRole("dialog", { name: /^Fin de la suspension du compte de/ });
    await expect(ending.getByLabel("Rétablir automatiquement le (facultatif)")).toHaveValue(endsOn);
    await expectNoSeriousA11yIssues(page);
    const movedOn = addDays(endsOn, 2);
    await ending.getByLabel("Rétablir automatiquement le (facultatif)").fill(movedOn);
    await ending.getByRole("button", { name: "Enregistrer" }).click();
    await expect(toast(page, "Date de fin de la suspension enregistrée")).toBeVisible();
    await expect(ending).toBeHidden();
    const movedDay = formatDetailDate(parisLocalToDate(`${movedOn}T00:00`));
    await expect(row).toContainText(`Rétabli automatiquement le ${movedDay}`);

    // Her open page is signed out; signing in again tells her why, once her password is right.
    expect((await patient.request.get("/api/me")).status()).toBe(401);
    await patient.goto("/login");
    await patient.getByLabel(/^E-mail/).fill(account.email);
    await patient.getByLabel(/^Mot de passe/).fill(account.password);
    await patient.getByRole("button", { name: "Se connecter" }).click();
    await expect(
      patient.getByRole("alert").filter({ hasText: `la suspension sera levée le ${movedDay}` }),
    ).toBeVisible();
    await expectPath(patient, "/login");

    // Lifted: she signs in.
    await row.getByRole("button", { name: `Rétablir le compte de ${account.fullName}` }).click();
    const confirm = page.getByRole("dialog", { name: /^Rétablir le compte de/ });
    await confirm.getByRole("button", { name: "Rétablir le compte" }).click();
    await expect(toast(page, "Compte rétabli")).toBeVisible();
    await expect(
      row.getByRole("button", { name: `Suspendre le compte de ${account.fullName}` }),
    ).toBeVisible();
    await patient.getByRole("button", { name: "Se connecter" }).click();
    await expectPath(patient, "/patient/dashboard");
  });

  test("les tableaux des utilisateurs : compteurs, recherche côté serveur, pages de 10", async ({ page }) => {
    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
    const counters = page.getByRole("region", { name: "Chiffres clés" });
    await expect(counters.getByText("Patients", { exact: true })).toBeVisible();
    await expect(counters.getByText("Dentistes", { exact: true })).toBeVisible();

    const dentists = page.getByRole("table", { name: "Dentistes inscrits" });
    await expect(dentists.getByRole("row").filter({ hasText: DEMO.dentist })).toContainText("Vérifié");
    await expect(dentists.getByRole("row").filter({ hasText: DEMO.dentist })).toContainText(
      /\d{2}\/\d{2}\/\d{4}/,
    );

    // Search: one request for the whole word, the demo patient alone.
    const patients = page.getByRole("table", { name: "Patients inscrits" });
    const searched = page.waitForRequest(
      (r) => r.url().includes("/api/admin/users?") && r.url().includes("search=patient%40demo"),
    );
    await page.getByLabel("Rechercher un patient").fill("patient@demo");
    await searched;
    await expect(patients.getByRole("row")).toHaveCount(2);
    await expect(patients.getByRole("row").nth(1)).toContainText(DEMO.patient);

    await page.getByLabel("Rechercher un patient").fill("personne-inconnue-xyz");
    await expect(page.getByRole("heading", { name: "Aucun résultat" })).toBeVisible();
    await page.getByLabel("Rechercher un patient").fill("");
    await expect(patients.getByRole("row")).not.toHaveCount(0);

    // Ten rows a page, then the next page (the journeys have created more than ten patients).
    const list = (await (await page.request.get("/api/admin/users?role=patient&page=1")).json()) as {
      items: unknown[];
      has_more: boolean;
    };
    if (list.has_more) {
      await expect(patients.getByRole("row")).toHaveCount(11);
      const section = page.getByRole("region", { name: "Patients" });
      await section.getByRole("button", { name: "Suivant" }).click();
      await expect(section.getByText("Page 2")).toBeVisible();
      await section.getByRole("button", { name: "Précédent" }).click();
      await expect(section.getByText("Page 1")).toBeVisible();
    }

    await page.getByRole("button", { name: "Actualiser la liste des patients" }).click();
    await expect(patients).toBeVisible();
    await expectNoSeriousA11yIssues(page);
  });

  test("la boîte de contact : un message reçu, sa pièce jointe, marqué comme traité", async ({
    page,
    request,
  }) => {
    const name = uniqueWord("Contact");
    const sent = await request.post("/api/contact", {
      multipart: {
        name,
        email: uniqueEmail("contact"),
        treatment_type: "crown",
        message: "Bonjour, pouvez-vous m'aider ?",
        file: { name: "radio.png", mimeType: "image/png", buffer: TINY_PNG },
      },
    });
    expect(sent.status(), "message de contact").toBeLessThan(300);

    await loginViaApi(page, DEMO.admin);
    await page.goto("/admin/contact");
    await expect(page.getByRole("heading", { level: 1, name: "Messages de contact" })).toBeVisible();
    const item = page.getByRole("listitem").filter({ hasText: name });
    await expect(item).toContainText("Couronne");
    await expect(item).toContainText("Bonjour, pouvez-vous m'aider ?");
    await expect(item).toContainText("À traiter");
    await downloadFrom(
      item.getByRole("button", { name: "Télécharger la pièce jointe radio.png" }),
      "radio.png",
    );

    await item.getByRole("button", { name: `Marquer comme traité le message de ${name}` }).click();
    await expect(toast(page, "Message marqué comme traité")).toBeVisible();
    await expect(item).toContainText("Traité le");
    // Marked by mistake: one click puts it back.
    await item.getByRole("button", { name: `Remettre à traiter le message de ${name}` }).click();
    await expect(toast(page, "Message remis à traiter")).toBeVisible();
    await expect(item).toContainText("À traiter");
    await item.getByRole("button", { name: `Marquer comme traité le message de ${name}` }).click();
    await expect(item).toContainText("Traité le");
    await expectNoSeriousA11yIssues(page);
  });
});
