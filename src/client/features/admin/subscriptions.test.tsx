import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { AdminSubscriptions } from "../../../shared/schemas/billing";
import { json, makeAdmin, renderApp, stubApi } from "../../test/renderApp";

/*
 * /admin/subscriptions (issue 35): counts by state and the monthly recurring revenue, each
 * dentist's invoices opened under his line, the invoice register exported for the accountant.
 */

const admin = makeAdmin();
const MARTIN = "55555555-5555-4555-8555-555555555555";
const LEROY = "66666666-6666-4666-8666-666666666666";

type Item = AdminSubscriptions["items"][number];
const martinLine: Item = {
  dentist_id: MARTIN,
  full_name: "Julien Martin",
  email: "dr.martin@demo.sourio.fr",
  status: "active",
  plan: "monthly",
  limited: false,
  phase: "active",
  changes_at: "2026-12-28T09:00:00.000Z",
  next_plan: null,
};
const leroyLine: Item = {
  dentist_id: LEROY,
  full_name: "Sophie Leroy",
  email: "dr.leroy@demo.sourio.fr",
  status: "trialing",
  plan: null,
  limited: false,
  phase: "trial",
  changes_at: "2026-12-20T09:00:00.000Z",
  next_plan: null,
};

const subscriptions: AdminSubscriptions = {
  counts: { trialing: 1, trial_ended: 0, active: 1, past_due: 0, canceled: 0, unpaid: 0 },
  mrr_ht_cents: 8900,
  items: [martinLine, leroyLine],
  has_more: false,
};

const invoice = {
  id: "77777777-7777-4777-8777-777777777777",
  kind: "invoice",
  number: "F-000002",
  issued_at: "2026-11-28T09:00:00.000Z",
  period_start: "2026-11-28",
  period_end: "2026-12-28",
  label: "Abonnement Sourio Cabinet — mensuel",
  amount_ht_cents: 8900,
  vat_rate_bp: 2000,
  vat_cents: 1780,
  amount_ttc_cents: 10_680,
  refers_to_number: null,
  reason: null,
};

describe("abonnements (équipe)", () => {
  it("dit « Essai terminé » d'un essai échu, compté à part, le renouvellement d'un abonnement actif ou son changement de formule", async () => {
    const at = (n: number) => `2026-12-${String(n).padStart(2, "0")}T09:00:00.000Z`;
    const lineOf = (name: string) => within(screen.getByText(name).closest("li") as HTMLElement);
    stubApi(admin, {
      "GET /api/admin/subscriptions": () =>
        json(200, {
          counts: { trialing: 1, trial_ended: 2, active: 2, past_due: 0, canceled: 0, unpaid: 0 },
          mrr_ht_cents: 16_317,
          items: [
            { ...martinLine, changes_at: at(28) },
            {
              ...martinLine,
              dentist_id: "88888888-8888-4888-8888-888888888888",
              full_name: "Paul Roux",
              email: "p.roux@example.fr",
              plan: "yearly",
              phase: "ending",
              changes_at: at(15),
            },
            {
              ...martinLine,
              dentist_id: "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa",
              full_name: "Lucie Moreau",
              email: "l.moreau@example.fr",
              changes_at: at(30),
              next_plan: "yearly",
            },
            { ...leroyLine, changes_at: at(20) },
            {
              ...leroyLine,
              dentist_id: "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb",
              full_name: "Hugo Petit",
              email: "h.petit@example.fr",
              plan: "monthly",
              changes_at: at(25),
              next_plan: "yearly",
            },
            {
              ...leroyLine,
              dentist_id: "99999999-9999-4999-8999-999999999999",
              full_name: "Anne Blanc",
              email: "a.blanc@example.fr",
              status: "trial_ended",
              limited: true,
              phase: "limited",
              changes_at: null,
            },
          ],
          has_more: false,
        } satisfies AdminSubscriptions),
    });
    renderApp("/admin/subscriptions");
    expect(await screen.findByText("Anne Blanc")).toBeInTheDocument();
    // A counter's value: the line under its label.
    const stat = (label: string) => screen.getByText(label, { exact: true }).nextElementSibling;
    expect(stat("Essai gratuit")).toHaveTextContent(/^1$/);
    expect(stat("Essai terminé")).toHaveTextContent(/^2$/);
    // Renewing by itself: no « jusqu'au », which only a cancelled subscription reads.
    const martin = lineOf("Julien Martin");
    expect(martin.getByText("Actif · mensuel · prochain renouvellement le 28/12/2026")).toBeInTheDocument();
    expect(martin.queryByText(/jusqu'au/)).not.toBeInTheDocument();
    expect(
      lineOf("Paul Roux").getByText("Actif · annuel · résilié, jusqu'au 15/12/2026"),
    ).toBeInTheDocument();
    // Ended subscriptions are counted as « Terminé »: « résilié » is a live one's, as on his line.
    expect(stat("Terminé")).toHaveTextContent(/^0$/);
    expect(screen.queryByText("Résilié", { exact: true })).not.toBeInTheDocument();
    // Her change of plan (ADR 096) in the renewal's place.
    expect(
      lineOf("Lucie Moreau").getByText("Actif · mensuel · passe à l'annuel le 30/12/2026"),
    ).toBeInTheDocument();
    expect(lineOf("Sophie Leroy").getByText("Essai gratuit · jusqu'au 20/12/2026")).toBeInTheDocument();
    // Subscribed during his trial, the plan changed before its first payment (ADR 096's addendum).
    expect(
      lineOf("Hugo Petit").getByText("Essai gratuit · mensuel · jusqu'au 25/12/2026, puis annuel"),
    ).toBeInTheDocument();
    // The ended trial: as counted, not « Essai gratuit ».
    const blanc = lineOf("Anne Blanc");
    expect(blanc.getByText("Essai terminé · accès limité")).toBeInTheDocument();
    expect(blanc.queryByText(/Essai gratuit/)).not.toBeInTheDocument();
  });

  it("pagine la liste, et dit quand aucun abonnement ne correspond à la recherche", async () => {
    let answer: AdminSubscriptions = { ...subscriptions, has_more: true };
    const fetchMock = stubApi(admin, { "GET /api/admin/subscriptions": () => json(200, answer) });
    const asked = () =>
      fetchMock.mock.calls.map(([url]) => String(url)).filter((u) => u.includes("subscriptions"));
    const user = userEvent.setup();
    renderApp("/admin/subscriptions");
    expect(await screen.findByText("Julien Martin")).toBeInTheDocument();

    answer = {
      ...subscriptions,
      items: [
        {
          ...martinLine,
          dentist_id: LEROY,
          full_name: "Marc Petit",
          email: "m.petit@example.fr",
        },
      ],
      has_more: false,
    } as AdminSubscriptions;
    const pages = () => screen.getByRole("navigation", { name: "Pagination" });
    await user.click(within(pages()).getByRole("button", { name: "Suivant" }));
    expect(await screen.findByText("Marc Petit")).toBeInTheDocument();
    expect(asked().at(-1)).toContain("page=2");
    expect(within(pages()).getByRole("button", { name: "Suivant" })).toBeDisabled();

    answer = { ...subscriptions, items: [], has_more: false };
    await user.type(screen.getByLabelText("Rechercher un dentiste (nom ou e-mail)"), "personne");
    await user.click(screen.getByRole("button", { name: "Rechercher" }));
    expect(
      await screen.findByRole("heading", { name: "Aucun abonnement ne correspond." }),
    ).toBeInTheDocument();
    expect(asked().at(-1)).toMatch(/search=personne&page=1$/);
    expect(screen.queryByRole("navigation", { name: "Pagination" })).not.toBeInTheDocument();
  });

  it("ouvre les factures d'un dentiste sous sa ligne, et seulement les siennes", async () => {
    const fetchMock = stubApi(admin, {
      "GET /api/admin/subscriptions": () => json(200, subscriptions),
      [`GET /api/admin/dentists/${MARTIN}/invoices`]: () =>
        json(200, { items: [invoice], page: 1, page_size: 12, has_more: false }),
      [`GET /api/admin/dentists/${LEROY}/invoices`]: () =>
        json(200, { items: [], page: 1, page_size: 12, has_more: false }),
    });
    const user = userEvent.setup();
    renderApp("/admin/subscriptions");
    expect(await screen.findByText(/^89,00\s€$/)).toBeInTheDocument();
    const martin = (await screen.findByText("Julien Martin")).closest("li") as HTMLElement;
    const open = within(martin).getByRole("button", { name: "Factures de Julien Martin" });
    expect(open).toHaveAttribute("aria-expanded", "false");
    // Nothing is loaded before it is opened.
    const invoiceCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).includes("/invoices"));
    expect(invoiceCalls()).toHaveLength(0);
    await user.click(open);
    expect(open).toHaveAttribute("aria-expanded", "true");
    const table = await within(martin).findByRole("table", {
      name: "Factures et avoirs de Julien Martin",
    });
    expect(
      within(table).getByRole("button", { name: "Télécharger la facture F-000002" }),
    ).toBeInTheDocument();
    expect(table).toHaveTextContent("106,80");
    expect(invoiceCalls().map(([url]) => String(url))).toEqual([
      expect.stringContaining(`/api/admin/dentists/${MARTIN}/invoices?page=1`),
    ]);
    const leroy = screen.getByText("Sophie Leroy").closest("li") as HTMLElement;
    expect(within(leroy).queryByRole("table")).not.toBeInTheDocument();
    await user.click(within(leroy).getByRole("button", { name: "Factures de Sophie Leroy" }));
    expect(
      await within(leroy).findByRole("heading", { name: "Aucune facture émise pour ce dentiste" }),
    ).toBeInTheDocument();
    // Closed again: the panel is hidden.
    await user.click(open);
    await waitFor(() => expect(open).toHaveAttribute("aria-expanded", "false"));
    expect(within(martin).queryByRole("table")).not.toBeInTheDocument();
  });

  it("propose l'export du registre des factures en CSV", async () => {
    stubApi(admin, { "GET /api/admin/subscriptions": () => json(200, subscriptions) });
    renderApp("/admin/subscriptions");
    expect(
      await screen.findByRole("heading", { level: 2, name: "Registre des factures" }),
    ).toBeInTheDocument();
    const form = screen.getByRole("form", { name: "Registre des factures" });
    expect(within(form).getByLabelText("Du")).toHaveAttribute("type", "date");
    expect(within(form).getByLabelText("Au")).toHaveAttribute("type", "date");
    expect(within(form).getByRole("button", { name: "Exporter le registre (CSV)" })).toBeInTheDocument();
  });
});
