import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { OFFER_MESSAGES, type PatientOffer } from "../../../shared/schemas/offers";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { failingUntilRecovered, json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { freeLine, makeRequestDetail } from "../../test/requests";
import { spaced } from "../../test/text";
import { onPhone } from "../../test/viewport";
import { chooseCompared, savingCell } from "./ComparePage";
import { LEROY, patientOffer } from "./offerFixture";

const patient = makeProfile();
const REQUEST_ID = "44444444-4444-4444-8444-444444444444";
const REQUEST_PAGE = `/patient/request/${REQUEST_ID}`;
const COMPARE = `${REQUEST_PAGE}/compare`;
const DETAIL = `GET /api/patient/requests/${REQUEST_ID}`;

/**
 * An offer of a dentist no longer verified: no rating, as the server sends it (his reviews are not
 * shown), and not to be accepted.
 */
function offer(id: string, name: string, overrides: Partial<PatientOffer> = {}): PatientOffer {
  return {
    ...patientOffer(id, REQUEST_ID, { full_name: name, is_verified: false, rating: null }),
    ...overrides,
  };
}

function detail(offers: PatientOffer[], overrides: Partial<RequestDetail> = {}): RequestDetail {
  return makeRequestDetail(REQUEST_ID, { quote_amount_cents: 120_000, offers, ...overrides });
}

const leroy = offer("a", "Sophie Leroy", {
  amount_cents: 78_000,
  comment: "Deux séances.",
  valid_until: "2026-12-31",
  lines: [freeLine("Couronne céramique", 36, 65_000), freeLine("Inlay-core", null, 13_000)],
  slots: ["2026-12-03T13:30:00.000Z", "2026-12-04T08:00:00.000Z"],
  taken_slots: ["2026-12-04T08:00:00.000Z"],
  dentist: LEROY,
});
const martin = offer("b", "Paul Martin", {
  amount_cents: 130_000,
  state: "expired",
  valid_until: "2026-11-20",
});
const bernard = offer("c", "Lucie Bernard", { amount_cents: 95_000 });
const petit = offer("d", "Jean Petit", { amount_cents: 99_000 });

async function openCompare(
  request: RequestDetail,
  search: string,
  handlers: Parameters<typeof stubApi>[1] = {},
) {
  const calls = stubApi(patient, { [DETAIL]: () => json(200, request), ...handlers });
  const app = renderApp(`${COMPARE}${search}`);
  // The loading skeleton has the same h1: wait for the comparison itself (or why there is none).
  await screen.findByText(/propositions comparées|Il faut au moins deux propositions/);
  return { ...app, calls, user: userEvent.setup() };
}

/** The offers compared for `?offres=param` on a request still open, without estimates. */
const choose = (offers: readonly PatientOffer[], param: string | null) =>
  chooseCompared(offers, param, new Map(), "in_review");

/** The table's cells of one criterion, column by column. */
function row(criterion: string | RegExp) {
  const header = screen.getByRole("rowheader", { name: criterion });
  return within(header.closest("tr") as HTMLElement).getAllByRole("cell");
}

/** The dentists heading the columns, left to right (the corner cell is not a header). */
const columnNames = () =>
  screen.getAllByRole("columnheader").map((th) => within(th).getByText(/^Dr /).textContent);

describe("comparer les propositions (patient)", () => {
  it("met les propositions choisies côte à côte, sur les mêmes critères", async () => {
    await openCompare(detail([leroy, martin, bernard, petit]), "?offres=a,b,c");
    const table = screen.getByRole("table", {
      name: "Comparaison des propositions pour votre demande\u202f: Couronne",
    });
    expect(table).toBeInTheDocument();
    expect(columnNames()).toEqual(["Dr Sophie Leroy", "Dr Paul Martin", "Dr Lucie Bernard"]);
    expect(screen.queryByText("Dr Jean Petit")).not.toBeInTheDocument();
    expect(screen.getAllByRole("rowheader").map((th) => th.textContent)).toEqual([
      "Ville",
      "Spécialités",
      "Montant",
      "Économie estimée sur le prixpar rapport à votre devis de 1\u202f200,00\u00a0€",
      "Validité",
      "État",
      "Reçue le",
      "Détail des actes",
      "Créneaux proposés",
      "Commentaire",
      "Votre choix",
    ]);
    const [leroyHead] = screen.getAllByRole("columnheader").filter((th) => th.textContent?.includes("Leroy"));
    expect(within(leroyHead as HTMLElement).getByText("Vérifié")).toBeInTheDocument();

    expect(row("Ville").map((c) => c.textContent)).toEqual(["Lyon", "—Non précisé", "—Non précisé"]);
    expect(row("Spécialités")[0]).toHaveTextContent("Implantologie · Prothèse");
    const amounts = row("Montant");
    expect(amounts.map((c) => c.textContent?.replace(/\s/g, " "))).toEqual([
      "780,00 €Le moins cher",
      "1 300,00 €",
      "950,00 €",
    ]);
    expect(screen.getAllByText("Le moins cher")).toHaveLength(1);
    expect(within(amounts[0] as HTMLElement).getByText("Le moins cher")).toBeInTheDocument();

    const savings = row(/^Économie estimée/);
    expect(savings[0]).toHaveTextContent(/^420,00\s€ \(35\s%\)$/);
    expect(savings[1]).toHaveTextContent("Aucune économie estimée");
    expect(savings[2]).toHaveTextContent(/^250,00\s€ \(21\s%\)$/);

    expect(row("Validité").map((c) => c.textContent)).toEqual([
      "Valable jusqu'au 31 décembre 2026",
      "Expirée",
      "Sans date limite",
    ]);
    expect(row("État").map((c) => c.textContent)).toEqual(["Envoyée", "Expirée", "Envoyée"]);
    const lines = row("Détail des actes")[0] as HTMLElement;
    expect(within(lines).getByText("Couronne céramique")).toBeInTheDocument();
    expect(within(lines).getByText("· dent 36", { exact: false })).toBeInTheDocument();
    expect(within(lines).getByText(/^650,00\s€$/)).toBeInTheDocument();
    // The first of Dr Leroy's times still free; the second since confirmed for someone else.
    expect(
      within(row("Créneaux proposés")[0] as HTMLElement)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "jeudi 3 décembre 2026 à 14:30",
      "vendredi 4 décembre 2026 à 09:00 — déjà pris par un autre rendez-vous du dentiste",
    ]);
    expect(row("Créneaux proposés")[1]).toHaveTextContent("Aucun créneau proposé");
    expect(row("Commentaire")[0]).toHaveTextContent("Deux séances.");

    const choices = row("Votre choix");
    expect(within(choices[0] as HTMLElement).getByRole("button")).toHaveAccessibleName(
      "Accepter cette proposition (Dr Sophie Leroy)",
    );
    expect(within(choices[1] as HTMLElement).queryByRole("button")).not.toBeInTheDocument();
    expect(choices[1]).toHaveTextContent("Proposition expirée");
    // Dr Bernard is no longer verified (this file's offers): his offer cannot be accepted (409).
    expect(within(choices[2] as HTMLElement).queryByRole("button")).not.toBeInTheDocument();
    expect(choices[2]).toHaveTextContent("Dentiste plus vérifié pour le moment");

    expect(screen.getByRole("link", { name: "Retour à la demande" })).toHaveAttribute("href", REQUEST_PAGE);
    expect(screen.queryByText("Sélection modifiée")).not.toBeInTheDocument();
  });

  it("accepte depuis la comparaison puis ramène à la demande pour le rendez-vous", async () => {
    // Verified: the server refuses to accept an offer of a dentist who is not (409), and the request's
    // page offers no booking with him.
    const verifiedBernard = {
      ...bernard,
      dentist: { ...bernard.dentist, is_verified: true, rating: { average: null, count: 0 } },
    };
    let current = detail([leroy, verifiedBernard]);
    const accepted: string[] = [];
    const { user, router } = await openCompare(current, "?offres=c,a", {
      [DETAIL]: () => json(200, current),
      "GET /api/appointments": () => json(200, { items: [], page: 1, page_size: 10, has_more: false }),
      "POST /api/patient/offers/c/accept": () => {
        accepted.push("c");
        const offers = current.offers.map((o) => ({
          ...o,
          state: o.id === "c" ? ("accepted" as const) : ("closed" as const),
        }));
        current = { ...current, status: "accepted", offers };
        return json(200, { offer: offers.find((o) => o.id === "c"), message: OFFER_MESSAGES.accepted });
      },
    });
    expect(columnNames()).toEqual(["Dr Lucie Bernard", "Dr Sophie Leroy"]);
    await user.click(screen.getByRole("button", { name: "Accepter cette proposition (Dr Lucie Bernard)" }));
    const dialog = await screen.findByRole("dialog", {
      name: "Accepter la proposition du Dr Lucie Bernard\u202f?",
    });
    expect(dialog).toHaveTextContent("L'autre proposition reçue pour cette demande sera clôturée.");
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    expect(accepted).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Accepter cette proposition (Dr Lucie Bernard)" }));
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Accepter la proposition" }),
    );
    expect(await screen.findByText(spaced(OFFER_MESSAGES.accepted))).toBeInTheDocument();
    expect(accepted).toEqual(["c"]);
    await waitFor(() => expect(router.state.location.pathname).toBe(REQUEST_PAGE));
    // Straight to the booking (issue 16), not to the top of the request page.
    expect(router.state.location.hash).toBe("#rendez-vous");
    // The booking panel (components/appointments, tested there), for the offer just accepted.
    expect(await screen.findByRole("region", { name: "Prendre rendez-vous" })).toHaveTextContent(
      "Choisissez l'un des créneaux proposés par le Dr Lucie Bernard",
    );
  });

  it("sur un téléphone, empile une carte par proposition avec ses chiffres et le bouton d'acceptation", async () => {
    await onPhone(async () => {
      await openCompare(detail([leroy, martin, bernard]), "?offres=a,b,c");
      expect(screen.queryByRole("table")).not.toBeInTheDocument();
      const list = screen.getByRole("list", {
        name: "Comparaison des propositions pour votre demande\u202f: Couronne",
      });
      const cards = within(list).getAllByRole("listitem", { name: /^Proposition du Dr / });
      expect(cards.map((c) => c.getAttribute("aria-label"))).toEqual([
        "Proposition du Dr Sophie Leroy",
        "Proposition du Dr Paul Martin",
        "Proposition du Dr Lucie Bernard",
      ]);
      // The same criteria in the same order in each card, the accept button in the cards that may accept.
      const terms = (card: HTMLElement) =>
        Array.from(card.querySelectorAll("dt")).map((dt) => dt.textContent);
      expect(terms(cards[0] as HTMLElement)).toEqual(terms(cards[2] as HTMLElement));
      expect(terms(cards[0] as HTMLElement)).toContain("Validité");
      expect(
        within(cards[0] as HTMLElement).getByRole("button", {
          name: "Accepter cette proposition (Dr Sophie Leroy)",
        }),
      ).toBeInTheDocument();
      expect(within(cards[1] as HTMLElement).queryByRole("button")).not.toBeInTheDocument();
      expect(cards[1]).toHaveTextContent("Proposition expirée");
    });
  });

  it("ne relie aux avis que le dentiste vérifié : aucun lien vers une page d'avis qui répondrait 404", async () => {
    await openCompare(detail([leroy, martin]), "?offres=a,b");
    const hrefs = screen.getAllByRole("link").map((link) => link.getAttribute("href"));
    expect(hrefs.filter((href) => href?.startsWith("/patient/dentists/"))).toEqual([
      "/patient/dentists/d-a/reviews",
    ]);
    const martinColumn = screen
      .getAllByRole("columnheader")
      .find((th) => th.textContent?.includes("Paul Martin")) as HTMLElement;
    expect(martinColumn).toBeDefined();
    expect(within(martinColumn).queryAllByRole("link")).toEqual([]);
    expect(martinColumn).not.toHaveTextContent(/avis|\/5/);
  });

  it("sans sélection valable, compare tout quand cela tient, sinon les quatre moins chères, et le dit", async () => {
    const five = [
      leroy,
      martin,
      bernard,
      petit,
      offer("e", "Emma Roux", { amount_cents: 60_000 }),
      offer("w", "Retirée", { amount_cents: 10_000, state: "withdrawn" }),
    ];
    await openCompare(detail(five), "");
    // The one she may still accept first (the others' dentists are no longer verified).
    expect(columnNames()).toEqual(["Dr Sophie Leroy", "Dr Emma Roux", "Dr Lucie Bernard", "Dr Jean Petit"]);
    expect(screen.getByText("Sélection modifiée")).toBeInTheDocument();
    expect(screen.getByText(/Les quatre propositions les moins chères sont comparées/)).toBeInTheDocument();
  });

  it("ne met en avant que ce que la patiente peut encore accepter : « Le moins cher » et le choix par défaut", async () => {
    // Dr Roux is cheaper than Dr Leroy, but no longer verified: the badge goes to Dr Leroy, and says
    // that it compares the offers she can still take.
    const roux = offer("e", "Emma Roux", { amount_cents: 60_000 });
    await openCompare(detail([leroy, roux]), "?offres=e,a");
    expect(columnNames()).toEqual(["Dr Emma Roux", "Dr Sophie Leroy"]);
    const amounts = row("Montant");
    expect(amounts[0]).not.toHaveTextContent("Le moins cher");
    expect(within(amounts[1] as HTMLElement).getByText("Le moins cher encore valable")).toBeInTheDocument();

    // Five cheaper offers she cannot take (expired, a dentist withdrawn): the one she can is compared,
    // first, and the notice says why.
    const cheaper = ["1", "2", "3", "4", "5"].map((id, i) =>
      offer(id, `Dr ${id}`, {
        amount_cents: 50_000 + i * 1000,
        ...(i % 2 === 0 && { state: "expired" as const, dentist: LEROY }),
      }),
    );
    const chosen = choose([...cheaper, leroy], null);
    expect(chosen.offers.map((o) => o.id)).toEqual(["a", "1", "2", "3"]);
    expect(chosen.notice).toMatch(
      /^Les quatre propositions les moins chères que vous pouvez encore accepter sont comparées\./,
    );
    // None of them open any more (the request cancelled): the cheapest four, as before.
    const cancelled = chooseCompared([...cheaper, leroy], null, new Map(), "cancelled");
    expect(cancelled.offers.map((o) => o.id)).toEqual(["1", "2", "3", "4"]);
    expect(cancelled.notice).toMatch(/^Les quatre propositions les moins chères sont comparées\./);
  });

  it("ignore une sélection inconnue ou trop longue", () => {
    const three = [leroy, martin, bernard];
    expect(choose(three, "zzz").offers.map((o) => o.id)).toEqual(["a", "c", "b"]);
    expect(choose(three, "zzz").notice).toMatch(/toutes les propositions sont comparées/);
    expect(choose(three, null)).toEqual({ offers: [leroy, bernard, martin], notice: null });
    expect(choose(three, "b,a")).toEqual({ offers: [martin, leroy], notice: null });
    // One of the three named is unknown: the two others are compared, and that is said.
    expect(choose(three, "b,x,a").offers).toEqual([martin, leroy]);
    expect(choose(three, "b,x,a").notice).toMatch(/ne sont plus disponibles/);
    const six = ["1", "2", "3", "4", "5", "6"].map((id, i) =>
      offer(id, `Dr ${id}`, { amount_cents: 100_000 - i * 1000 }),
    );
    const tooMany = choose(six, "1,2,3,4,5");
    expect(tooMany.offers.map((o) => o.id)).toEqual(["6", "5", "4", "3"]);
    expect(tooMany.notice).toMatch(/^Votre sélection n'a pas pu être retrouvée\. Les quatre/);
    expect(savingCell(null, 1000)).toBeNull();
    expect(savingCell(120_000, 78_000)).toBe("420,00\u00a0€ (35\u00a0%)");
  });

  it("explique qu'il faut au moins deux propositions", async () => {
    await openCompare(detail([leroy, offer("w", "Retirée", { state: "withdrawn" })]), "?offres=a,w");
    expect(screen.getByRole("heading", { name: "Pas assez de propositions à comparer" })).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir la demande" })).toHaveAttribute("href", REQUEST_PAGE);
  });

  it("dit quand la demande est introuvable, et propose de réessayer après une erreur", async () => {
    stubApi(patient, {
      [DETAIL]: () => json(404, { error: { code: "NOT_FOUND", message: "Demande introuvable." } }),
    });
    renderApp(`${COMPARE}?offres=a,b`);
    expect(await screen.findByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeInTheDocument();

    const request = failingUntilRecovered(() => json(200, detail([leroy, bernard])));
    stubApi(patient, { [DETAIL]: request.respond });
    renderApp(`${COMPARE}?offres=a,c`);
    const retry = await screen.findByRole("button", { name: "Réessayer" });
    expect(screen.getAllByText("Impossible de charger les propositions").length).toBeGreaterThan(0);
    request.recover();
    await userEvent.setup().click(retry);
    expect(await screen.findByRole("table")).toBeInTheDocument();
  });
});
