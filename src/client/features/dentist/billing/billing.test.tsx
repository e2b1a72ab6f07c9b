import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { INVOICE_MESSAGES } from "../../../../shared/schemas/invoices";
import { json, makeProfile, renderApp, stubApi } from "../../../test/renderApp";
import { spaced } from "../../../test/text";

/* The billing profile form and the invoice list (issue 35), on the dentist's profile page. */

const dentist = makeProfile({
  role: "dentist",
  email: "dr@example.fr",
  full_name: "Anne Martin",
  is_verified: true,
});
const INVOICE = {
  id: "11111111-1111-4111-8111-111111111111",
  kind: "invoice",
  number: "F-000042",
  issued_at: "2026-11-01T08:00:00.000Z",
  period_start: "2026-11-01",
  period_end: "2026-11-30",
  label: "Abonnement Sourio Cabinet — mensuel",
  amount_ht_cents: 8900,
  vat_rate_bp: 2000,
  vat_cents: 1780,
  amount_ttc_cents: 10_680,
  refers_to_number: null,
  reason: null,
};
const page = (items: unknown[]) => json(200, { items, page: 1, page_size: 12, has_more: false });

describe("facturation du dentiste", () => {
  it("enregistre le profil de facturation, SIREN vérifié avant l'envoi (clé de Luhn)", async () => {
    const user = userEvent.setup();
    let saved: unknown;
    const fetchMock = stubApi(dentist, {
      "GET /api/dentist/billing-profile": () => json(200, { profile: null }),
      "PUT /api/dentist/billing-profile": (body) => {
        saved = body;
        return json(200, { message: INVOICE_MESSAGES.saved });
      },
      "GET /api/dentist/invoices": () => page([]),
    });
    renderApp("/dentist/profile");
    const form = await screen.findByRole("form", { name: "Profil de facturation" });
    await user.type(within(form).getByLabelText(/Nom du cabinet/), "Cabinet des Lilas");
    await user.type(within(form).getByLabelText(/Adresse/), "12 rue des Lilas");
    await user.type(within(form).getByLabelText(/Code postal/), "69003");
    await user.type(within(form).getByLabelText(/Ville/), "Lyon");
    await user.type(within(form).getByLabelText(/SIREN/), "552 100 555");
    await user.click(within(form).getByRole("button", { name: "Enregistrer le profil de facturation" }));
    expect(await within(form).findByText(spaced(INVOICE_MESSAGES.sirenInvalid))).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false);

    await user.clear(within(form).getByLabelText(/SIREN/));
    await user.type(within(form).getByLabelText(/SIREN/), "552 100 554");
    await user.click(within(form).getByRole("button", { name: "Enregistrer le profil de facturation" }));
    await waitFor(() =>
      expect(saved).toEqual({
        practice_name: "Cabinet des Lilas",
        address: "12 rue des Lilas",
        postal_code: "69003",
        city: "Lyon",
        siren: "552100554",
      }),
    );
  });

  it("liste les factures avec leurs montants HT, TVA et TTC, et les télécharge", async () => {
    const user = userEvent.setup();
    const fetchMock = stubApi(dentist, {
      "GET /api/dentist/billing-profile": () => json(200, { profile: null }),
      "GET /api/dentist/invoices": () => page([INVOICE]),
      [`GET /api/dentist/invoices/${INVOICE.id}/pdf`]: () => ({ status: 200, body: "%PDF-1.7" }),
    });
    renderApp("/dentist/profile");
    const table = await screen.findByRole("table", { name: "Mes factures et avoirs" });
    const row = (await within(table).findByText(/Facture F-000042/)).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("01/11/2026");
    expect(row).toHaveTextContent("89,00 €");
    expect(row).toHaveTextContent("17,80 € (20 %)");
    expect(row).toHaveTextContent("106,80 €");
    await user.click(within(row).getByRole("button", { name: "Télécharger la facture F-000042" }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
        `/api/dentist/invoices/${INVOICE.id}/pdf`,
      ),
    );
  });

  it("sans profil enregistré, dit ce que portent ses factures et part de l'adresse de son cabinet", async () => {
    const withPractice = {
      ...dentist,
      city: "Lyon",
      practice_address: "12 rue des Lilas",
      practice_postcode: "69003",
    };
    stubApi(withPractice, {
      "GET /api/dentist/billing-profile": () => json(200, { profile: null }),
      "GET /api/dentist/invoices": () => page([]),
    });
    renderApp("/dentist/profile");
    const form = await screen.findByRole("form", { name: "Profil de facturation" });
    expect(
      within(form).getByText(/vos factures portent votre nom et l'adresse de votre cabinet, sans SIREN/),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(form).getByLabelText(/Adresse/)).toHaveValue("12 rue des Lilas"));
    expect(within(form).getByLabelText(/Code postal/)).toHaveValue("69003");
    expect(within(form).getByLabelText(/Ville/)).toHaveValue("Lyon");
    expect(within(form).getByLabelText(/Nom du cabinet/)).toHaveValue("");
    expect(within(form).getByLabelText(/SIREN/)).toHaveValue("");
  });

  it("montre le profil enregistré tel quel, sans la remarque", async () => {
    const saved = {
      practice_name: "Cabinet des Lilas",
      address: "1 place Bellecour",
      postal_code: "69002",
      city: "Lyon",
      siren: "552100554",
    };
    stubApi(
      { ...dentist, practice_address: "12 rue des Lilas", practice_postcode: "69003" },
      {
        "GET /api/dentist/billing-profile": () => json(200, { profile: saved }),
        "GET /api/dentist/invoices": () => page([]),
      },
    );
    renderApp("/dentist/profile");
    const form = await screen.findByRole("form", { name: "Profil de facturation" });
    await waitFor(() => expect(within(form).getByLabelText(/Adresse/)).toHaveValue("1 place Bellecour"));
    expect(within(form).getByLabelText(/Nom du cabinet/)).toHaveValue("Cabinet des Lilas");
    expect(within(form).queryByText(/sans SIREN/)).not.toBeInTheDocument();
  });

  it("dit qu'aucune facture n'a encore été émise", async () => {
    stubApi(dentist, {
      "GET /api/dentist/billing-profile": () => json(200, { profile: null }),
      "GET /api/dentist/invoices": () => page([]),
    });
    renderApp("/dentist/profile");
    expect(await screen.findByText("Aucune facture pour l'instant")).toBeInTheDocument();
  });
});
