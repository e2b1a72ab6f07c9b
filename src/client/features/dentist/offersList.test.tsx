import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { type DentistOfferItem, type DentistOfferList, OFFER_MESSAGES } from "../../../shared/schemas/offers";
import { makeDentist } from "../../test/dentist";
import { failingUntilRecovered, json, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";

const dentist = makeDentist();

function item(id: string, overrides: Partial<DentistOfferItem> = {}): DentistOfferItem {
  return {
    id,
    request_id: `req-${id}`,
    amount_cents: 78_000,
    comment: "",
    valid_until: "2026-12-31",
    state: "sent",
    lines: [],
    slots: [],
    taken_slots: [],
    created_at: "2026-11-22T09:00:00.000Z",
    treatment_type: "crown",
    patient_name: "Inès Martin",
    request_status: "in_review",
    decided_at: null,
    may_withdraw: true,
    ...overrides,
  };
}

const page = (items: DentistOfferItem[], overrides: Partial<DentistOfferList> = {}): DentistOfferList => ({
  items,
  page: 1,
  page_size: 10,
  has_more: false,
  ...overrides,
});

/** Opens 'Mes propositions' at `path`; `answer` gets the list's query string. */
async function openList(
  answer: (query: URLSearchParams) => { status: number; body?: unknown },
  path = "/dentist/offers",
  handlers: Parameters<typeof stubApi>[1] = {},
) {
  const queries: string[] = [];
  const calls = stubApi(dentist, handlers);
  const stubbed = calls.getMockImplementation();
  calls.mockImplementation(async (input, init) => {
    const url = new URL(String(input), "http://localhost");
    if (url.pathname === "/api/dentist/offers" && (init?.method ?? "GET") === "GET") {
      queries.push(url.search);
      const result = answer(url.searchParams);
      return new Response(result.body === undefined ? null : JSON.stringify(result.body), {
        status: result.status,
        headers: { "Content-Type": "application/json" },
      });
    }
    return (stubbed as NonNullable<typeof stubbed>)(input, init);
  });
  const app = renderApp(path);
  await screen.findByRole("heading", { level: 1, name: "Mes propositions" });
  return { ...app, calls, queries, user: userEvent.setup() };
}

const table = () => within(screen.getByRole("table"));

describe("mes propositions (dentiste)", () => {
  it("liste les propositions envoyées, avec leur état, et mène à chaque demande", async () => {
    const { queries } = await openList(() =>
      json(
        200,
        page([
          item("o-1"),
          // Closed by the patient's choice of another proposal: the request is no longer his to open.
          item("o-3", { state: "closed", may_withdraw: false }),
          item("o-2", {
            treatment_type: "implant",
            patient_name: "Luc Bernard",
            amount_cents: 125_050,
            valid_until: null,
            state: "accepted",
            created_at: "2026-11-20T09:00:00.000Z",
            may_withdraw: false,
          }),
        ]),
      ),
    );
    await screen.findByRole("table");
    expect(queries).toEqual(["?page=1"]);
    const rows = table().getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    const [first, closed, second] = rows.map((r) => within(r));
    expect(closed?.getByText("Clôturée")).toBeInTheDocument();
    expect(closed?.queryByRole("link", { name: /^Voir/ })).not.toBeInTheDocument();
    expect(closed?.getByText("Demande fermée")).toBeInTheDocument();
    expect(first?.getAllByRole("cell").map((c) => c.textContent?.replace(/\s/g, " "))).toEqual([
      "Couronne",
      "Inès Martin",
      "780,00 €",
      "22/11/2026",
      "Jusqu'au 31/12/2026",
      "Envoyée",
      "VoirRetirer",
    ]);
    expect(
      first?.getByRole("link", { name: "Voir la proposition\u202f: Couronne, Inès Martin" }),
    ).toHaveAttribute("href", "/dentist/quote-request/req-o-1");
    expect(second?.getByText("Implant dentaire")).toBeInTheDocument();
    expect(second?.getByText(/^1\s250,50\s€$/)).toBeInTheDocument();
    expect(second?.getByText("Sans date limite")).toBeInTheDocument();
    expect(second?.getByText("Acceptée")).toBeInTheDocument();
    expect(second?.queryByRole("button", { name: /^Retirer/ })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Toutes" })).toHaveAttribute("aria-current", "true");
    expect(screen.queryByRole("navigation", { name: "Pagination" })).not.toBeInTheDocument();
  });

  it("filtre par état dans l'URL et dans la requête", async () => {
    const { user, router, queries } = await openList((query) =>
      json(200, page([item("o-1", { state: (query.get("state") as DentistOfferItem["state"]) ?? "sent" })])),
    );
    await screen.findByRole("table");
    await user.click(screen.getByRole("link", { name: "Acceptées" }));
    await waitFor(() => expect(router.state.location.search).toBe("?etat=accepted"));
    await waitFor(() => expect(queries).toContain("?state=accepted&page=1"));
    expect(screen.getByRole("link", { name: "Acceptées" })).toHaveAttribute("aria-current", "true");
    expect(screen.getByRole("link", { name: "Toutes" })).not.toHaveAttribute("aria-current");
    expect(await table().findByText("Acceptée")).toBeInTheDocument();

    await user.click(screen.getByRole("link", { name: "Retirées" }));
    await waitFor(() => expect(queries).toContain("?state=withdrawn&page=1"));
    expect(router.state.location.search).toBe("?etat=withdrawn");
    await user.click(screen.getByRole("link", { name: "Toutes" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("reprend le filtre et la page de l'URL, et pagine", async () => {
    const { user, router, queries } = await openList(
      (query) =>
        json(
          200,
          page([item(`o-p${query.get("page")}`, { patient_name: `Patient page ${query.get("page")}` })], {
            page: Number(query.get("page")),
            has_more: query.get("page") === "2",
          }),
        ),
      "/dentist/offers?etat=expired&page=2",
    );
    expect(await table().findByText("Patient page 2")).toBeInTheDocument();
    expect(queries).toEqual(["?state=expired&page=2"]);
    expect(screen.getByRole("link", { name: "Expirées" })).toHaveAttribute("aria-current", "true");
    expect(screen.getByText("Page 2")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Suivant" }));
    expect(await table().findByText("Patient page 3")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?etat=expired&page=3");
    expect(screen.getByRole("button", { name: "Suivant" })).toBeDisabled();

    await user.click(screen.getByRole("button", { name: "Précédent" }));
    await user.click(await screen.findByRole("button", { name: "Précédent" }));
    expect(await table().findByText("Patient page 1")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?etat=expired");
    expect(queries).toEqual(["?state=expired&page=2", "?state=expired&page=3", "?state=expired&page=1"]);
  });

  it("retire une proposition après confirmation seulement", async () => {
    let withdrawn = false;
    const posted: string[] = [];
    const { user, queries } = await openList(
      () => json(200, page([item("o-1", withdrawn ? { state: "withdrawn", may_withdraw: false } : {})])),
      "/dentist/offers",
      {
        "POST /api/dentist/offers/o-1/withdraw": () => {
          posted.push("o-1");
          withdrawn = true;
          return json(200, {
            offer: item("o-1", { state: "withdrawn" }),
            message: OFFER_MESSAGES.withdrawnDone,
          });
        },
      },
    );
    const withdraw = await table().findByRole("button", {
      name: "Retirer la proposition\u202f: Couronne, Inès Martin",
    });
    await user.click(withdraw);
    let dialog = await screen.findByRole("dialog", { name: "Retirer cette proposition\u202f?" });
    expect(dialog).toHaveTextContent(/Le patient ne verra plus votre proposition de 780,00\s€ à Inès Martin/);
    // Still open to her choice: the server tells her (appointments.test.ts).
    expect(dialog).toHaveTextContent(/un message dans votre conversation et un e-mail l'en informent/);
    await user.click(within(dialog).getByRole("button", { name: "Garder ma proposition" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(withdraw).toHaveFocus());
    expect(posted).toEqual([]);

    await user.click(withdraw);
    dialog = await screen.findByRole("dialog", { name: "Retirer cette proposition\u202f?" });
    await user.click(within(dialog).getByRole("button", { name: "Retirer la proposition" }));
    expect(await screen.findByText(OFFER_MESSAGES.withdrawnDone)).toBeInTheDocument();
    expect(posted).toEqual(["o-1"]);
    expect(await table().findByText("Retirée")).toBeInTheDocument();
    expect(queries.length).toBeGreaterThan(1);
    expect(table().queryByRole("button", { name: /^Retirer/ })).not.toBeInTheDocument();
  });

  it("dit pourquoi le retrait est refusé", async () => {
    const { user } = await openList(() => json(200, page([item("o-1")])), "/dentist/offers", {
      "POST /api/dentist/offers/o-1/withdraw": () =>
        json(409, { error: { code: "CONFLICT", message: OFFER_MESSAGES.notWithdrawable } }),
    });
    await user.click(await table().findByRole("button", { name: /^Retirer la proposition/ }));
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Retirer la proposition" }),
    );
    expect(await screen.findByText(OFFER_MESSAGES.withdrawFailed)).toBeInTheDocument();
    expect(screen.getByText(spaced(OFFER_MESSAGES.notWithdrawable))).toBeInTheDocument();
  });

  it("dit quand il n'y a aucune proposition, en tout ou dans un état", async () => {
    const { user } = await openList(() => json(200, page([])));
    expect(
      await screen.findByRole("heading", { name: "Vous n'avez encore envoyé aucune proposition." }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir les demandes de devis" })).toHaveAttribute(
      "href",
      "/dentist/quote-requests",
    );
    expect(screen.queryByRole("table")).not.toBeInTheDocument();

    await user.click(screen.getByRole("link", { name: "Clôturées" }));
    expect(
      await screen.findByRole("heading", { name: "Aucune proposition dans cet état." }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("link", { name: "Voir toutes les propositions" }));
    expect(
      await screen.findByRole("heading", { name: "Vous n'avez encore envoyé aucune proposition." }),
    ).toBeInTheDocument();
  });

  it("propose de réessayer quand la liste ne charge pas", async () => {
    const offers = failingUntilRecovered(() => json(200, page([item("o-1")])));
    const { user } = await openList(offers.respond);
    const retry = await screen.findByRole("button", { name: "Réessayer" });
    expect(screen.getAllByText("Impossible de charger vos propositions").length).toBeGreaterThan(0);
    offers.recover();
    await user.click(retry);
    expect(await screen.findByRole("table")).toBeInTheDocument();
  });

  it("ne montre rien à un dentiste non vérifié", async () => {
    const calls = stubApi({ ...dentist, is_verified: false });
    renderApp("/dentist/offers");
    expect(await screen.findByRole("heading", { name: "En attente de vérification" })).toBeInTheDocument();
    expect(calls.mock.calls.map(([url]) => String(url))).not.toContainEqual(
      expect.stringContaining("/api/dentist/offers"),
    );
  });
});
