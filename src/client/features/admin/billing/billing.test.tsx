import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QueryProvider } from "../../../lib/QueryProvider";
import { json, toResponse } from "../../../test/renderApp";
import { DentistInvoices } from "./DentistInvoices";
import { RegisterExportButton } from "./RegisterExportButton";

/* The team's invoice components (issue 35), each usable alone on the admin 'Abonnements' page. */

const DENTIST = "22222222-2222-4222-8222-222222222222";
const CREDIT = {
  id: "33333333-3333-4333-8333-333333333333",
  kind: "credit_note",
  number: "AV-000003",
  issued_at: "2026-11-10T09:00:00.000Z",
  period_start: "2026-11-01",
  period_end: "2026-11-30",
  label: "Abonnement Sourio Cabinet — mensuel",
  amount_ht_cents: 8900,
  vat_rate_bp: 2000,
  vat_cents: 1780,
  amount_ttc_cents: 10_680,
  refers_to_number: "F-000042",
  reason: "Remboursement",
};

function stub(handler: (url: URL) => { status: number; body?: unknown }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
    toResponse(handler(new URL(String(input), "http://localhost"))),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}
const wrap = (ui: ReactNode) => render(<QueryProvider>{ui}</QueryProvider>);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("factures d'un dentiste (équipe)", () => {
  it("liste ses factures et avoirs, l'avoir renvoyant à sa facture", async () => {
    const fetchMock = stub((url) =>
      url.pathname === `/api/admin/dentists/${DENTIST}/invoices`
        ? json(200, { items: [CREDIT], page: 1, page_size: 12, has_more: false })
        : json(404, { error: { code: "NOT_FOUND", message: "Ressource introuvable." } }),
    );
    wrap(<DentistInvoices dentistId={DENTIST} dentistName="Anne Martin" />);
    const table = await screen.findByRole("table", { name: "Factures et avoirs d'Anne Martin" });
    const row = (await within(table).findByText(/Avoir AV-000003/)).closest("tr") as HTMLElement;
    expect(row).toHaveTextContent("sur F-000042");
    expect(row).toHaveTextContent("106,80 €");
    expect(within(row).getByRole("button", { name: "Télécharger l'avoir AV-000003" })).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain("page=1");
  });
});

describe("registre des factures", () => {
  it("demande le CSV entre les deux dates, et montre l'erreur du serveur sous le champ", async () => {
    const user = userEvent.setup();
    Object.defineProperty(URL, "createObjectURL", {
      configurable: true,
      value: vi.fn(() => "blob:registre"),
    });
    Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const fetchMock = stub((url) =>
      url.searchParams.get("from") === "2026-12-31"
        ? json(400, {
            error: {
              code: "VALIDATION_ERROR",
              message: "La date de début doit précéder la date de fin.",
              fields: { to: "La date de début doit précéder la date de fin." },
            },
          })
        : { status: 200, body: "Numéro;Date" },
    );
    wrap(<RegisterExportButton />);
    const form = screen.getByRole("form", { name: "Registre des factures" });
    await user.type(within(form).getByLabelText("Du"), "2026-12-01");
    await user.type(within(form).getByLabelText("Au"), "2026-12-31");
    await user.click(within(form).getByRole("button", { name: "Exporter le registre (CSV)" }));
    await waitFor(() =>
      expect(String(fetchMock.mock.calls.at(-1)?.[0])).toBe(
        "/api/admin/invoices/register.csv?from=2026-12-01&to=2026-12-31",
      ),
    );
    await waitFor(() => expect(saved).toEqual(["registre-factures.csv"]));
    await user.clear(within(form).getByLabelText("Du"));
    await user.type(within(form).getByLabelText("Du"), "2026-12-31");
    await user.clear(within(form).getByLabelText("Au"));
    await user.type(within(form).getByLabelText("Au"), "2026-12-01");
    await user.click(within(form).getByRole("button", { name: "Exporter le registre (CSV)" }));
    expect(
      await within(form).findByText("La date de début doit précéder la date de fin."),
    ).toBeInTheDocument();
  });
});
