import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { journeyOf } from "../../../shared/domain/journey";
import { OFFER_MESSAGES, type PatientOffer } from "../../../shared/schemas/offers";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { freeLine, makeRequestDetail } from "../../test/requests";
import { spaced } from "../../test/text";
import { LEROY, patientOffer } from "./offerFixture";
import { compareUrl, liveFirst, savingText, sortOffers } from "./RequestPage";

const patient = makeProfile();
const REQUEST_ID = "33333333-3333-4333-8333-333333333333";
const PAGE = `/patient/request/${REQUEST_ID}`;

function offer(id: string, overrides: Partial<PatientOffer> = {}): PatientOffer {
  return { ...patientOffer(id, REQUEST_ID, { id: `dentist-${id}`, city: "Paris" }), ...overrides };
}

function detail(overrides: Partial<RequestDetail> = {}): RequestDetail {
  return makeRequestDetail(REQUEST_ID, { quote_amount_cents: 120_000, ...overrides });
}

async function open(request: RequestDetail) {
  stubApi(patient, { [`GET /api/patient/requests/${REQUEST_ID}`]: () => json(200, request) });
  renderApp(PAGE);
  await screen.findByRole("heading", { level: 2, name: "Propositions" });
}

const offerNames = () =>
  within(screen.getByRole("list", { name: "Propositions reçues" }))
    .getAllByRole("heading", { level: 3 })
    .map((h) => h.textContent?.replace("Vérifié", "").trim());

describe("propositions des dentistes (patient)", () => {
  it("dit qu'il n'y a pas encore de proposition", async () => {
    await open(detail());
    expect(screen.getByText("Aucune proposition pour le moment.")).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Trier par" })).not.toBeInTheDocument();
    // The replies section is still there.
    expect(screen.getByRole("heading", { name: "Réponses des dentistes" })).toBeInTheDocument();
  });

  it("une réponse en mots : « En cours », et « Voir les réponses » mène à elles", async () => {
    const reply = {
      conversation_id: "c1",
      created_at: "2026-11-20T10:00:00.000Z",
      message: "Pouvez-vous m'envoyer une radio récente ?",
      dentist: { ...LEROY, avatar_url: null },
    };
    await open(detail({ replies: [reply] as RequestDetail["replies"] }));
    expect(screen.getAllByText("En cours").length).toBeGreaterThan(0);
    await userEvent.setup().click(screen.getByRole("link", { name: "Voir les réponses" }));
    await waitFor(() =>
      expect(screen.getByRole("heading", { name: "Réponses des dentistes" })).toHaveFocus(),
    );
    expect(screen.getByText("Pouvez-vous m'envoyer une radio récente ?")).toBeInTheDocument();
  });

  it("montre le dentiste, le montant, l'économie, la validité, les actes et les créneaux", async () => {
    await open(
      detail({
        offers: [
          offer("a", {
            amount_cents: 78_000,
            comment: "Couronne céramique en deux séances.",
            valid_until: "2026-12-31",
            lines: [freeLine("Couronne céramique", 36, 65_000), freeLine("Inlay-core", null, 13_000)],
            slots: ["2026-12-03T13:30:00.000Z"],
            dentist: LEROY,
          }),
        ],
      }),
    );
    const item = screen.getByRole("listitem", { name: "Proposition du Dr Sophie Leroy" });
    const inItem = within(item);
    expect(inItem.getByRole("heading", { level: 3 })).toHaveTextContent("Dr Sophie Leroy");
    expect(inItem.getByText("Vérifié")).toBeInTheDocument();
    expect(inItem.getByText("Lyon")).toBeInTheDocument();
    expect(inItem.getByText("Implantologie · Prothèse")).toBeInTheDocument();
    expect(inItem.getByText(/^780,00\s€$/)).toBeInTheDocument();
    expect(inItem.getByText(/^Économie estimée sur le prix\s: 420,00\s€ \(35\s%\)$/)).toBeInTheDocument();
    // A sent offer needs no state badge; it may be accepted, and alone it has nothing to compare with.
    expect(inItem.queryByText("Envoyée")).not.toBeInTheDocument();
    expect(inItem.getByText(/Valable jusqu'au 31 décembre 2026/)).toBeInTheDocument();
    expect(inItem.getByText("Couronne céramique en deux séances.")).toBeInTheDocument();
    expect(inItem.getByText("· dent 36", { exact: false })).toBeInTheDocument();
    expect(inItem.getByText(/^650,00\s€$/)).toBeInTheDocument();
    expect(inItem.getByText("jeudi 3 décembre 2026 à 14:30")).toBeInTheDocument();
    expect(inItem.getAllByRole("button").map((b) => b.textContent)).toEqual(["Accepter cette proposition"]);
    expect(inItem.queryByRole("checkbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /^Comparer/ })).not.toBeInTheDocument();
  });

  it("ne parle pas d'économie sans devis d'origine ni quand la proposition est plus chère", async () => {
    expect(savingText(null, 50_000)).toBeNull();
    expect(savingText(40_000, 50_000)).toBeNull();
    expect(savingText(40_000, 40_000)).toBeNull();
    await open(
      detail({
        quote_amount_cents: 50_000,
        offers: [
          offer("a", { amount_cents: 60_000, dentist: { ...offer("a").dentist, is_verified: false } }),
        ],
      }),
    );
    expect(screen.queryByText(/Économie estimée/)).not.toBeInTheDocument();
    expect(screen.queryByText("Vérifié")).not.toBeInTheDocument();
  });

  it("trie par prix croissant, ou par les plus récentes au choix du patient", async () => {
    const dentist = (name: string) => ({ ...offer("x").dentist, id: name, full_name: name });
    await open(
      detail({
        offers: [
          offer("old-cheap", {
            amount_cents: 70_000,
            created_at: "2026-11-22T09:00:00.000Z",
            dentist: dentist("Ancien"),
          }),
          offer("mid", {
            amount_cents: 90_000,
            created_at: "2026-11-24T09:00:00.000Z",
            dentist: dentist("Récent"),
          }),
          offer("new-dear", {
            amount_cents: 110_000,
            created_at: "2026-11-23T09:00:00.000Z",
            dentist: dentist("Moyen"),
          }),
        ],
      }),
    );
    const sort = screen.getByRole("combobox", { name: "Trier par" });
    expect(sort).toHaveTextContent("Prix croissant");
    expect(offerNames()).toEqual(["Dr Ancien", "Dr Récent", "Dr Moyen"]);

    const user = userEvent.setup();
    await user.click(sort);
    await user.click(await screen.findByRole("option", { name: "Plus récentes" }));
    expect(offerNames()).toEqual(["Dr Récent", "Dr Moyen", "Dr Ancien"]);

    await user.click(sort);
    await user.click(await screen.findByRole("option", { name: "Prix croissant" }));
    expect(offerNames()).toEqual(["Dr Ancien", "Dr Récent", "Dr Moyen"]);
  });

  it("relie la note d'un dentiste vérifié à ses avis ; d'un dentiste non vérifié, ne montre ni note ni lien (sa page d'avis répond 404) ni bouton d'acceptation", async () => {
    const unverified = offer("b", {
      amount_cents: 120_000,
      dentist: { ...offer("b").dentist, full_name: "Paul Martin", is_verified: false, rating: null },
    });
    await open(detail({ offers: [offer("a", { dentist: LEROY }), unverified] }));
    const leroy = within(screen.getByRole("listitem", { name: "Proposition du Dr Sophie Leroy" }));
    expect(leroy.getByRole("link", { name: "12 avis" })).toHaveAttribute(
      "href",
      "/patient/dentists/d-a/reviews",
    );
    expect(leroy.getByRole("link", { name: "Avis vérifiés" })).toHaveAttribute("href", "/avis");

    const martin = screen.getByRole("listitem", { name: "Proposition du Dr Paul Martin" });
    const hrefs = within(martin)
      .queryAllByRole("link")
      .map((link) => link.getAttribute("href"));
    expect(hrefs.filter((href) => href?.startsWith("/patient/dentists/"))).toEqual([]);
    expect(hrefs).not.toContain("/avis");
    expect(martin).not.toHaveTextContent(/\d+ avis|Pas encore d'avis|\/5/);
    // Nor can his offer be accepted (the server refuses it, 409): said where the button would be.
    expect(within(martin).queryByRole("button", { name: /^Accepter cette proposition/ })).toBeNull();
    expect(within(martin).getByText(spaced(OFFER_MESSAGES.dentistNotVerified))).toBeInTheDocument();
    expect(leroy.getByRole("button", { name: /^Accepter cette proposition/ })).toBeInTheDocument();
    // Sorted by rating, he comes after the dentists whose rating is shown.
    expect(sortOffers([unverified, offer("a", { dentist: LEROY })], "rating").map((o) => o.id)).toEqual([
      "a",
      "b",
    ]);
  });

  it("met d'abord les propositions que le patient peut encore accepter, quel que soit le tri", async () => {
    const dentist = (name: string, is_verified = true) => ({
      ...offer("x").dentist,
      id: name,
      full_name: name,
      is_verified,
    });
    await open(
      detail({
        offers: [
          offer("expired", { amount_cents: 50_000, state: "expired", dentist: dentist("Expirée") }),
          offer("away", { amount_cents: 60_000, dentist: dentist("Retiré", false) }),
          offer("withdrawn", { amount_cents: 40_000, state: "withdrawn", dentist: dentist("Retirée") }),
          offer("dear", { amount_cents: 120_000, dentist: dentist("Chère") }),
          offer("cheap", { amount_cents: 90_000, dentist: dentist("Moins chère") }),
        ],
      }),
    );
    expect(screen.getByRole("combobox", { name: "Trier par" })).toHaveTextContent("Prix croissant");
    expect(offerNames()).toEqual(["Dr Moins chère", "Dr Chère", "Dr Retirée", "Dr Expirée", "Dr Retiré"]);
    expect(screen.getByText(/ceux que vous pouvez encore accepter d'abord/)).toBeInTheDocument();

    // Her accepted offer first, the others closed after it; a cancelled request, the chosen order only.
    const accepted = [
      offer("closed", { amount_cents: 10_000, state: "closed" }),
      offer("mine", { amount_cents: 90_000, state: "accepted" }),
    ];
    expect(liveFirst(accepted, "accepted").map((o) => o.id)).toEqual(["mine", "closed"]);
    const cancelled = [offer("b", { amount_cents: 10_000 }), offer("a", { amount_cents: 20_000 })];
    expect(liveFirst(cancelled, "cancelled").map((o) => o.id)).toEqual(["b", "a"]);
  });

  it("départage deux prix égaux par la plus ancienne", () => {
    const a = offer("a", { amount_cents: 500, created_at: "2026-11-23T00:00:00.000Z" });
    const b = offer("b", { amount_cents: 500, created_at: "2026-11-22T00:00:00.000Z" });
    expect(sortOffers([a, b], "price").map((o) => o.id)).toEqual(["b", "a"]);
    expect(sortOffers([b, a], "recent").map((o) => o.id)).toEqual(["a", "b"]);
  });
});

const ACCEPT = (id: string) => `POST /api/patient/offers/${id}/accept`;
const UNACCEPT = (id: string) => `POST /api/patient/offers/${id}/unaccept`;
const APPOINTMENTS = "GET /api/appointments";
const noAppointments = () => json(200, { items: [], page: 1, page_size: 10, has_more: false });

const leroy = (id: string, overrides: Partial<PatientOffer> = {}) =>
  offer(id, {
    amount_cents: 78_000,
    dentist: { ...offer(id).dentist, id: "d-leroy", full_name: "Sophie Leroy" },
    ...overrides,
  });
const martin = (id: string, overrides: Partial<PatientOffer> = {}) =>
  offer(id, {
    amount_cents: 100_000,
    dentist: { ...offer(id).dentist, id: "d-martin", full_name: "Paul Martin" },
    ...overrides,
  });

/** The page with a server that accepts offer `a`: the request is then accepted, the others closed. */
async function openAccepting(first: RequestDetail, answer?: () => { status: number; body?: unknown }) {
  let current = first;
  const accepted: string[] = [];
  const calls = stubApi(patient, {
    [`GET /api/patient/requests/${REQUEST_ID}`]: () => json(200, current),
    [APPOINTMENTS]: noAppointments,
    [ACCEPT("a")]: () => {
      accepted.push("a");
      if (answer) return answer();
      const offers = current.offers.map((o) =>
        o.id === "a" ? { ...o, state: "accepted" as const } : { ...o, state: "closed" as const },
      );
      const journey = journeyOf(
        { id: REQUEST_ID, status: "accepted", open_offers: 0, appointment: null },
        new Date(),
      );
      current = { ...current, status: "accepted", journey, offers };
      return json(200, { offer: offers.find((o) => o.id === "a"), message: OFFER_MESSAGES.accepted });
    },
    [UNACCEPT("a")]: () => {
      const offers = current.offers.map((o) => ({ ...o, state: "sent" as const }));
      const journey = journeyOf(
        { id: REQUEST_ID, status: "in_review", open_offers: 2, appointment: null },
        new Date(),
      );
      current = { ...current, status: "in_review", journey, offers };
      return json(200, { offer: offers[0], reopened: 1, message: OFFER_MESSAGES.unaccepted });
    },
  });
  renderApp(PAGE);
  await screen.findByRole("heading", { level: 2, name: "Propositions" });
  const detailCalls = () =>
    calls.mock.calls.filter(
      ([url, init]) =>
        String(url).endsWith(`/api/patient/requests/${REQUEST_ID}`) && (init?.method ?? "GET") === "GET",
    ).length;
  return { user: userEvent.setup(), accepted, detailCalls, calls };
}

/**
 * The booking panel under the accepted offer (components/appointments, tested there): the real one,
 * for the accepted offer's dentist, its appointments asked for this request. One only.
 */
async function expectBookingPanel(calls: ReturnType<typeof stubApi>, dentist: string) {
  const panel = await screen.findByRole("region", { name: "Prendre rendez-vous" });
  expect(screen.getAllByRole("region", { name: "Prendre rendez-vous" })).toHaveLength(1);
  expect(panel).toHaveTextContent(`Choisissez l'un des créneaux proposés par le Dr ${dentist}`);
  expect(
    calls.mock.calls.some(([url]) =>
      String(url).endsWith(`/api/appointments?request=${encodeURIComponent(REQUEST_ID)}`),
    ),
  ).toBe(true);
}

const item = (name: string) => screen.getByRole("listitem", { name: `Proposition du Dr ${name}` });

describe("accepter une proposition (patient)", () => {
  it("demande confirmation, accepte, le dit et recharge la demande", async () => {
    const { user, accepted, detailCalls, calls } = await openAccepting(
      detail({ offers: [leroy("a"), martin("b")] }),
    );
    expect(screen.queryByRole("region", { name: "Prendre rendez-vous" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Accepter cette proposition (Dr Sophie Leroy)" }));

    const dialog = await screen.findByRole("dialog", {
      name: "Accepter la proposition du Dr Sophie Leroy\u202f?",
    });
    expect(dialog).toHaveAccessibleDescription(
      /L'autre proposition reçue pour cette demande sera clôturée\. Un e-mail en informera le Dr Sophie Leroy et l'autre dentiste, puis vous choisirez votre rendez-vous\./,
    );
    expect(dialog).toHaveTextContent(/Vous choisissez le Dr Sophie Leroy pour 780,00\s€/);
    // Not a trap (issue 16): the dialog says the choice can be undone until the appointment is confirmed.
    expect(dialog).toHaveTextContent(
      "Vous pourrez changer d'avis tant que le rendez-vous n'est pas confirmé.",
    );
    expect(dialog).not.toHaveTextContent("définitif");
    // Radix moves the focus into the dialog (and keeps it there).
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(accepted).toEqual([]);
    const before = detailCalls();

    await user.click(within(dialog).getByRole("button", { name: "Accepter la proposition" }));
    expect(await screen.findByText(spaced(OFFER_MESSAGES.accepted))).toBeInTheDocument();
    expect(accepted).toEqual(["a"]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(detailCalls()).toBeGreaterThan(before));

    expect(within(item("Sophie Leroy")).getByText("Acceptée")).toBeInTheDocument();
    expect(within(item("Paul Martin")).getByText("Clôturée")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Accepter cette proposition/ })).not.toBeInTheDocument();
    // Accepting leads straight to booking: the panel right under the journey, its heading focused.
    const booking = await screen.findByRole("heading", { name: "Votre rendez-vous avec le Dr Sophie Leroy" });
    await waitFor(() => expect(booking).toHaveFocus());
    await expectBookingPanel(calls, "Sophie Leroy");
    expect(
      screen.getByRole("heading", { name: "Proposition acceptée\u202f: choisissez un créneau" }),
    ).toBeInTheDocument();
    // The journey's next step, and the accepted offer's own link: both to the booking panel.
    const toBooking = screen.getAllByRole("link", { name: /Choisir un créneau/ });
    expect(toBooking.map((link) => link.getAttribute("href"))).toEqual([
      `${PAGE}#rendez-vous`,
      "#rendez-vous",
    ]);
    expect(screen.queryByRole("heading", { name: "Terminée" })).not.toBeInTheDocument();
  });

  it("laisse changer d'avis tant que le rendez-vous n'est pas confirmé, et rouvre les propositions", async () => {
    const { user } = await openAccepting(
      detail({
        status: "accepted",
        offers: [leroy("a", { state: "accepted" }), martin("b", { state: "closed" })],
      }),
    );
    await user.click(await screen.findByRole("button", { name: "Changer d'avis" }));
    const dialog = await screen.findByRole("dialog", {
      name: "Retirer votre acceptation de la proposition du Dr Sophie Leroy\u202f?",
    });
    expect(dialog).toHaveTextContent("Les dentistes concernés recevront un e-mail.");
    // No appointment asked for yet: none said cancelled (journey.spec.ts checks a pending one is).
    expect(dialog).not.toHaveTextContent("rendez-vous");
    await user.click(within(dialog).getByRole("button", { name: "Retirer mon acceptation" }));
    // (Testing Library's default normaliser turns the narrow no-break space into a plain one.)
    expect(await screen.findByText(/^Vous avez retiré votre acceptation/)).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: /Comparer 2 propositions/ })).toHaveAttribute(
      "href",
      `${PAGE}/compare`,
    );
    expect(screen.getAllByRole("button", { name: /^Accepter cette proposition/ })).toHaveLength(2);
    expect(screen.queryByRole("button", { name: "Changer d'avis" })).not.toBeInTheDocument();
  });

  it("ne fait rien quand on annule ou qu'on ferme avec Échap", async () => {
    const { user, accepted } = await openAccepting(detail({ offers: [leroy("a")] }));
    const accept = screen.getByRole("button", { name: "Accepter cette proposition (Dr Sophie Leroy)" });

    await user.click(accept);
    const dialog = await screen.findByRole("dialog");
    expect(dialog).not.toHaveTextContent("autre proposition");
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await user.click(accept);
    await screen.findByRole("dialog");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(accept).toHaveFocus());

    expect(accepted).toEqual([]);
    expect(within(item("Sophie Leroy")).queryByText("Acceptée")).not.toBeInTheDocument();
  });

  it("montre le refus du serveur en français", async () => {
    const { user, accepted } = await openAccepting(detail({ offers: [leroy("a"), martin("b")] }), () =>
      json(409, { error: { code: "CONFLICT", message: OFFER_MESSAGES.expired } }),
    );
    await user.click(screen.getByRole("button", { name: "Accepter cette proposition (Dr Sophie Leroy)" }));
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Accepter la proposition" }),
    );
    expect(await screen.findByText(OFFER_MESSAGES.acceptFailed)).toBeInTheDocument();
    expect(screen.getByText(spaced(OFFER_MESSAGES.expired))).toBeInTheDocument();
    expect(accepted).toEqual(["a"]);
    expect(within(item("Sophie Leroy")).queryByText("Acceptée")).not.toBeInTheDocument();
  });

  it("ne propose pas d'accepter une proposition expirée, retirée ou clôturée", async () => {
    await openAccepting(
      detail({
        offers: [
          leroy("a"),
          martin("b", { state: "expired", valid_until: "2026-11-20" }),
          offer("c", {
            amount_cents: 90_000,
            state: "withdrawn",
            dentist: { ...offer("c").dentist, full_name: "Lucie Bernard" },
          }),
        ],
      }),
    );
    expect(within(item("Paul Martin")).getByText("Expirée")).toBeInTheDocument();
    expect(within(item("Lucie Bernard")).getByText("Retirée")).toBeInTheDocument();
    expect(within(item("Paul Martin")).queryByRole("button", { name: /^Accepter/ })).not.toBeInTheDocument();
    expect(
      within(item("Lucie Bernard")).queryByRole("button", { name: /^Accepter/ }),
    ).not.toBeInTheDocument();
    expect(
      within(item("Sophie Leroy")).getByRole("button", { name: /^Accepter cette proposition/ }),
    ).toBeEnabled();
  });

  it("« Voir votre rendez-vous » une fois un créneau demandé", async () => {
    const journey = journeyOf(
      {
        id: REQUEST_ID,
        status: "accepted",
        open_offers: 0,
        appointment: { status: "pending", starts_at: null },
      },
      new Date(),
    );
    await openAccepting(
      detail({
        status: "accepted",
        journey,
        offers: [leroy("a", { state: "accepted" }), martin("b", { state: "closed" })],
      }),
    );
    expect(
      within(item("Sophie Leroy")).getByRole("link", { name: "Voir votre rendez-vous" }),
    ).toHaveAttribute("href", "#rendez-vous");
    expect(within(item("Sophie Leroy")).queryByRole("link", { name: "Choisir un créneau" })).toBeNull();
  });

  it("ne propose plus rien à accepter sur une demande acceptée ou annulée", async () => {
    const { calls } = await openAccepting(
      detail({
        status: "accepted",
        offers: [leroy("a", { state: "accepted" }), martin("b", { state: "closed" })],
      }),
    );
    expect(screen.queryByRole("button", { name: /^Accepter/ })).not.toBeInTheDocument();
    expect(within(item("Paul Martin")).getByText("Clôturée")).toBeInTheDocument();
    await expectBookingPanel(calls, "Sophie Leroy");
    // No appointment yet: nothing to see, a slot to choose.
    expect(within(item("Sophie Leroy")).getByRole("link", { name: "Choisir un créneau" })).toHaveAttribute(
      "href",
      "#rendez-vous",
    );
    expect(within(item("Sophie Leroy")).queryByRole("link", { name: "Voir votre rendez-vous" })).toBeNull();

    await openAccepting(detail({ status: "cancelled", offers: [leroy("a"), martin("b")] }));
    expect(screen.getAllByRole("listitem", { name: /^Proposition du Dr/ })).toHaveLength(2);
    expect(screen.queryByRole("button", { name: /^Accepter/ })).not.toBeInTheDocument();
  });
});

describe("choisir les propositions à comparer (patient)", () => {
  const five = () =>
    ["Alice", "Bruno", "Chloé", "David", "Emma"].map((name, i) =>
      offer(`o${i + 1}`, {
        amount_cents: 70_000 + i * 10_000,
        dentist: { ...offer("x").dentist, id: `d-${name}`, full_name: name },
      }),
    );

  it("compare de deux à quatre propositions cochées", async () => {
    const { router } = await (async () => {
      stubApi(patient, {
        [`GET /api/patient/requests/${REQUEST_ID}`]: () => json(200, detail({ offers: five() })),
      });
      const app = renderApp(PAGE);
      await screen.findByRole("heading", { level: 2, name: "Propositions" });
      return app;
    })();
    const user = userEvent.setup();
    const compare = () => screen.getByRole("link", { name: /^Comparer \(\d\)$/ });
    const box = (name: string) =>
      screen.getByRole("checkbox", { name: `Comparer la proposition du Dr ${name}` });

    expect(compare()).toHaveTextContent("Comparer (0)");
    expect(compare()).toHaveAttribute("aria-disabled", "true");
    // Five offers do not fit side by side: no 'compare them all'.
    expect(screen.queryByRole("link", { name: "Comparer toutes les propositions" })).not.toBeInTheDocument();

    await user.click(box("Chloé"));
    expect(compare()).toHaveAttribute("aria-disabled", "true");
    await user.click(box("Alice"));
    expect(compare()).toHaveTextContent("Comparer (2)");
    expect(compare()).not.toHaveAttribute("aria-disabled");
    // In the order shown (cheapest first), whatever the order of the clicks.
    expect(compare()).toHaveAttribute("href", `/patient/request/${REQUEST_ID}/compare?offres=o1,o3`);

    for (const name of ["Bruno", "David", "Emma"]) await user.click(box(name));
    expect(compare()).toHaveTextContent("Comparer (5)");
    expect(compare()).toHaveAttribute("aria-disabled", "true");
    expect(screen.getByText("Comparez quatre propositions au maximum.")).toBeInTheDocument();
    await user.click(compare());
    expect(router.state.location.pathname).toBe(PAGE);

    await user.click(box("Bruno"));
    expect(screen.queryByText("Comparez quatre propositions au maximum.")).not.toBeInTheDocument();
    await user.click(compare());
    await waitFor(() => expect(router.state.location.pathname).toBe(`${PAGE}/compare`));
    expect(router.state.location.search).toBe("?offres=o1,o3,o4,o5");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Comparer les propositions" }),
    ).toBeInTheDocument();
  });

  it("propose de comparer toutes les propositions quand elles tiennent côte à côte", async () => {
    await open(detail({ offers: five().slice(0, 3) }));
    expect(screen.getByRole("link", { name: "Comparer toutes les propositions" })).toHaveAttribute(
      "href",
      `/patient/request/${REQUEST_ID}/compare?offres=o1,o2,o3`,
    );
    expect(screen.getAllByRole("checkbox")).toHaveLength(3);
    expect(compareUrl("r 1", [])).toBe("/patient/request/r%201/compare");
  });
});

describe("date de naissance (profil patient)", () => {
  it("envoie la date de naissance, et une date vide l'efface", async () => {
    const bodies: unknown[] = [];
    stubApi(makeProfile({ birth_date: "1984-05-12" }), {
      "PATCH /api/me": (body) => {
        bodies.push(body);
        return json(200, { profile: makeProfile({ birth_date: null }) });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const field = await screen.findByLabelText("Date de naissance (optionnel)");
    expect(field).toHaveValue("1984-05-12");
    expect(field).toHaveAccessibleDescription(
      "Les dentistes voient seulement votre âge, jamais votre date de naissance.",
    );
    await user.clear(field);
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(bodies).toEqual([expect.objectContaining({ birth_date: "" })]);
  });
});
