/** The dentist's appointments page and the dashboards' appointment lists. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import {
  appointment,
  callsOf,
  confirmed,
  dentist,
  freezeClockAtNow,
  list,
  patient,
  REQUEST_ID,
} from "../../test/appointments";
import { makeDentistDashboard } from "../../test/dentist";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

freezeClockAtNow();

describe("/dentist/appointments", () => {
  const upcoming = [
    confirmed({
      id: "c-1",
      my_side: "dentist",
      patient: { id: "p-1", full_name: "Louis Pasteur" },
      starts_at: "2026-12-03T08:00:00.000Z",
    }),
    appointment({
      id: "m-1",
      my_side: "dentist",
      view: "awaiting_me",
      awaiting: "dentist",
      may_confirm: true,
      patient: { id: "p-2", full_name: "Marie Curie" },
    }),
    appointment({
      id: "w-1",
      my_side: "dentist",
      view: "awaiting_other",
      awaiting: "patient",
      patient: { id: "p-3", full_name: "Irène Joliot" },
    }),
  ];

  it("montre d'abord les rendez-vous à confirmer, puis ceux à venir", async () => {
    stubApi(dentist, { "GET /api/appointments": () => json(200, list(upcoming)) });
    renderApp("/dentist/appointments");
    expect(await screen.findByRole("heading", { level: 1, name: "Rendez-vous" })).toBeInTheDocument();
    const toConfirm = await screen.findByRole("region", { name: "À confirmer (1)" });
    const coming = screen.getByRole("region", { name: "À venir (2)" });
    expect(toConfirm.compareDocumentPosition(coming) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const names = (section: HTMLElement) =>
      within(section)
        .getAllByRole("heading", { level: 3 })
        .map((h) => h.textContent);
    expect(names(toConfirm)).toEqual(["Marie Curie"]);
    expect(names(coming)).toEqual(["Louis Pasteur", "Irène Joliot"]);
    expect(within(coming).getByText("jeudi 3 décembre 2026 à 09:00")).toBeInTheDocument();
    expect(within(coming).getByText("En attente de réponse du patient")).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Pagination" })).not.toBeInTheDocument();
  });

  it("venu de « Confirmer » du tableau de bord, entoure la carte de ce rendez-vous (son ancre), et elle seule", async () => {
    stubApi(dentist, { "GET /api/appointments": () => json(200, list(upcoming)) });
    renderApp("/dentist/appointments#rdv-m-1");
    const toConfirm = await screen.findByRole("region", { name: "À confirmer (1)" });
    const card = within(toConfirm).getByRole("listitem");
    expect(card).toHaveAttribute("id", "rdv-m-1");
    expect(card).toHaveAttribute("data-targeted", "true");
    expect(card).toHaveClass("ring-2");
    expect(document.querySelectorAll("[data-targeted]")).toHaveLength(1);
  });

  it("dit qu'il n'y a aucun rendez-vous à venir", async () => {
    stubApi(dentist, { "GET /api/appointments": () => json(200, list([])) });
    renderApp("/dentist/appointments");
    expect(await screen.findByRole("heading", { name: "Aucun rendez-vous à venir." })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: /^À confirmer/ })).not.toBeInTheDocument();
  });

  it("pagine par 10 (précédent / suivant)", async () => {
    const pages: string[] = [];
    stubApi(dentist, {
      "GET /api/appointments": () => {
        // stubApi keys ignore the query string: read it from the last call.
        const last = vi.mocked(fetch).mock.calls.at(-1)?.[0];
        const page = new URL(String(last), "http://localhost").searchParams.get("page") ?? "1";
        pages.push(page);
        return page === "1"
          ? json(200, list(upcoming, { has_more: true }))
          : json(
              200,
              list(
                [
                  confirmed({
                    id: "c-2",
                    my_side: "dentist",
                    patient: { id: "p-9", full_name: "Pierre Curie" },
                  }),
                ],
                { page: 2 },
              ),
            );
      },
    });
    const user = userEvent.setup();
    const { router } = renderApp("/dentist/appointments");
    const pagination = await screen.findByRole("navigation", { name: "Pagination" });
    expect(within(pagination).getByText("Page 1")).toBeInTheDocument();
    expect(within(pagination).getByRole("button", { name: "Précédent" })).toBeDisabled();
    await user.click(within(pagination).getByRole("button", { name: "Suivant" }));
    expect(await screen.findByRole("heading", { level: 3, name: "Pierre Curie" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 3, name: "Marie Curie" })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe("?page=2");
    expect(within(pagination).getByText("Page 2")).toBeInTheDocument();
    expect(within(pagination).getByRole("button", { name: "Suivant" })).toBeDisabled();
    expect(pages).toEqual(["1", "2"]);
    await user.click(within(pagination).getByRole("button", { name: "Précédent" }));
    expect(await screen.findByRole("heading", { level: 3, name: "Marie Curie" })).toBeInTheDocument();
  });

  it("montre dans « Passés » les rendez-vous qui ont eu lieu, chacun menant à sa demande", async () => {
    const asked: string[] = [];
    const held = confirmed({
      id: "p-1",
      request_id: "r-41",
      my_side: "dentist",
      view: "past",
      may_change: false,
      patient: { id: "p-4", full_name: "Ada Lovelace" },
      starts_at: "2026-11-02T09:30:00.000Z",
    });
    const fetchMock = stubApi(dentist, {
      "GET /api/appointments": () => {
        const last = new URL(String(vi.mocked(fetch).mock.calls.at(-1)?.[0]), "http://localhost");
        asked.push(last.search);
        return json(200, list(last.searchParams.get("when") === "past" ? [held] : upcoming));
      },
    });
    // The past ones answer when the test says: meanwhile the tab shows no card of the other list.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes("when=past")) await gate;
      return (answer as NonNullable<typeof answer>)(input, init);
    });
    const user = userEvent.setup();
    const { router } = renderApp("/dentist/appointments");
    const tabs = await screen.findByRole("tablist", { name: "Rendez-vous à venir ou passés" });
    expect(within(tabs).getByRole("tab", { name: "À venir" })).toHaveAttribute("aria-selected", "true");
    await screen.findByRole("region", { name: "À confirmer (1)" });

    await user.click(within(tabs).getByRole("tab", { name: "Passés" }));
    await waitFor(() => expect(router.state.location.search).toBe("?vue=passes"));
    expect(screen.queryByRole("article")).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: /^À confirmer/ })).not.toBeInTheDocument();
    release();
    const card = await screen.findByRole("article", { name: "Ada Lovelace" });
    expect(router.state.location.search).toBe("?vue=passes");
    expect(asked).toEqual(["", "?when=past"]);
    expect(within(card).getByText("Passé")).toBeInTheDocument();
    expect(within(card).getByText("lundi 2 novembre 2026 à 10:30")).toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: /Annuler|Proposer/ })).not.toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Voir la demande d'Ada Lovelace" })).toHaveAttribute(
      "href",
      "/dentist/patient-submission/r-41",
    );
    expect(screen.queryByRole("heading", { name: "Marie Curie" })).not.toBeInTheDocument();

    await user.click(within(tabs).getByRole("tab", { name: "À venir" }));
    expect(await screen.findByRole("heading", { level: 3, name: "Marie Curie" })).toBeInTheDocument();
    expect(router.state.location.search).toBe("");
  });

  it("dit qu'il n'y a encore aucun rendez-vous passé", async () => {
    stubApi(dentist, { "GET /api/appointments": () => json(200, list([])) });
    renderApp("/dentist/appointments?vue=passes");
    expect(await screen.findByRole("heading", { name: "Aucun rendez-vous passé." })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Passés" })).toHaveAttribute("aria-selected", "true");
  });

  it("explique la vérification à un dentiste non vérifié, sans rien demander", async () => {
    const fetchMock = stubApi(makeProfile({ role: "dentist", is_verified: false }));
    renderApp("/dentist/appointments");
    expect(await screen.findByRole("heading", { name: "En attente de vérification" })).toBeInTheDocument();
    expect(callsOf(fetchMock).some((c) => c.key.startsWith("GET /api/appointments"))).toBe(false);
  });

  it("propose de réessayer quand la liste ne se charge pas", async () => {
    let fail = true;
    stubApi(dentist, {
      "GET /api/appointments": () =>
        fail
          ? json(500, { error: { code: "INTERNAL", message: "Une erreur est survenue." } })
          : json(200, list([])),
    });
    const user = userEvent.setup();
    renderApp("/dentist/appointments");
    expect(await screen.findByText("Impossible de charger vos rendez-vous")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    expect(await screen.findByRole("heading", { name: "Aucun rendez-vous à venir." })).toBeInTheDocument();
  });
});

describe("/patient/appointments", () => {
  it("montre au patient tous ses rendez-vous, à venir puis passés, chacun menant à sa demande", async () => {
    const asked: string[] = [];
    const toPick = appointment({
      id: "m-1",
      request_id: "r-1",
      view: "awaiting_me",
      awaiting: "patient",
      may_confirm: true,
      options: ["2026-12-07T13:30:00.000Z", "2026-12-09T08:15:00.000Z"],
      dentist: { ...appointment().dentist, full_name: "Paul Martin" },
    });
    // The fourth coming one: beyond the dashboard's three, found here.
    const coming = ["Sophie Leroy", "Jean Bernard", "Claire Roux", "Luc Petit"].map((name, i) =>
      confirmed({
        id: `c-${i}`,
        request_id: `r-c${i}`,
        starts_at: `2026-12-1${i}T08:00:00.000Z`,
        dentist: { ...appointment().dentist, full_name: name },
      }),
    );
    const held = confirmed({
      id: "p-1",
      request_id: "r-41",
      view: "past",
      may_change: false,
      starts_at: "2026-11-02T09:30:00.000Z",
      dentist: { ...appointment().dentist, full_name: "Ada Lovelace" },
    });
    // Already reviewed: no invitation for it.
    const reviewed = confirmed({
      id: "p-2",
      request_id: "r-42",
      view: "past",
      may_change: false,
      starts_at: "2026-10-05T09:30:00.000Z",
      dentist: { ...appointment().dentist, full_name: "Alan Turing" },
    });
    stubApi(patient, {
      "GET /api/appointments": () => {
        const last = new URL(String(vi.mocked(fetch).mock.calls.at(-1)?.[0]), "http://localhost");
        if (last.pathname === "/api/appointments") asked.push(last.search);
        return json(
          200,
          list(last.searchParams.get("when") === "past" ? [held, reviewed] : [toPick, ...coming]),
        );
      },
      "GET /api/patient/reviews": () =>
        json(200, {
          reviews: [],
          invitations: [
            {
              appointment_id: held.id,
              request_id: held.request_id,
              starts_at: held.starts_at,
              dentist: { id: held.dentist.id, full_name: "Ada Lovelace" },
            },
          ],
        }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/patient/appointments");
    expect(await screen.findByRole("heading", { level: 1, name: "Mes rendez-vous" })).toBeInTheDocument();
    const toConfirm = await screen.findByRole("region", { name: "À confirmer (1)" });
    const card = within(toConfirm).getByRole("article", { name: "Dr Paul Martin" });
    expect(
      within(card).getByRole("link", { name: "Voir la demande du rendez-vous avec le Dr Paul Martin" }),
    ).toHaveAttribute("href", "/patient/request/r-1");
    const later = screen.getByRole("region", { name: "À venir (4)" });
    expect(within(later).getByRole("article", { name: "Dr Luc Petit" })).toBeInTheDocument();
    expect(within(later).getByText("dimanche 13 décembre 2026 à 09:00")).toBeInTheDocument();
    expect(
      within(screen.getByRole("navigation", { name: "Espace patient" })).getByRole("link", {
        name: "Rendez-vous",
      }),
    ).toHaveAttribute("aria-current", "page");

    await user.click(screen.getByRole("tab", { name: "Passés" }));
    const past = await screen.findByRole("article", { name: "Dr Ada Lovelace" });
    expect(router.state.location.search).toBe("?vue=passes");
    expect(asked).toEqual(["", "?when=past"]);
    expect(within(past).getByText("lundi 2 novembre 2026 à 10:30")).toBeInTheDocument();
    expect(
      within(past).getByRole("link", { name: "Voir la demande du rendez-vous avec le Dr Ada Lovelace" }),
    ).toHaveAttribute("href", "/patient/request/r-41");
    expect(
      await within(past).findByRole("link", {
        name: "Donner mon avis sur le rendez-vous avec le Dr Ada Lovelace",
      }),
    ).toHaveAttribute("href", "/patient/reviews/new/p-1");
    const done = screen.getByRole("article", { name: "Dr Alan Turing" });
    expect(within(done).getByRole("link", { name: /^Voir la demande/ })).toBeInTheDocument();
    expect(within(done).queryByRole("link", { name: /Donner mon avis/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("article", { name: "Dr Luc Petit" })).not.toBeInTheDocument();
  });

  it("dit au patient sans rendez-vous comment en prendre un", async () => {
    stubApi(patient, { "GET /api/appointments": () => json(200, list([])) });
    renderApp("/patient/appointments");
    expect(await screen.findByRole("heading", { name: "Aucun rendez-vous à venir." })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir mes demandes" })).toHaveAttribute(
      "href",
      "/patient/requests",
    );
  });
});

describe("tableaux de bord", () => {
  it("le dentiste voit ses trois prochains rendez-vous et le lien vers tous", async () => {
    stubApi(dentist, {
      "GET /api/dentist/dashboard": () => json(200, makeDentistDashboard()),
      "GET /api/appointments": () =>
        json(
          200,
          list(
            ["Ana", "Bea", "Cid", "Dan"].map((name, i) =>
              confirmed({
                id: `d-${i}`,
                my_side: "dentist",
                patient: { id: `p-${i}`, full_name: name },
                starts_at: `2026-12-0${i + 2}T13:30:00.000Z`,
              }),
            ),
            { has_more: false },
          ),
        ),
    });
    renderApp("/dentist/dashboard");
    const heading = await screen.findByRole("heading", { name: "Prochains rendez-vous" });
    const items = await screen.findAllByText(/ · Couronne/);
    expect(items.map((i) => i.textContent)).toEqual(["Ana · Couronne", "Bea · Couronne", "Cid · Couronne"]);
    expect(screen.getByText("mercredi 2 décembre 2026 à 14:30")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir tous les rendez-vous" })).toHaveAttribute(
      "href",
      "/dentist/appointments",
    );
    expect(heading).toBeInTheDocument();
  });

  it("le patient voit 'Mes rendez-vous', chacun menant à sa demande", async () => {
    stubApi(patient, {
      "GET /api/patient/dashboard": () =>
        json(200, { counts: { active: 0, completed: 1, latest_at: null, support_unread: 0 }, recent: [] }),
      "GET /api/appointments": () =>
        json(200, list([appointment({ options: ["2026-12-07T13:30:00.000Z", "2026-12-09T08:15:00.000Z"] })])),
    });
    renderApp("/patient/dashboard");
    const section = await screen.findByRole("region", { name: "Mes rendez-vous" });
    expect(await within(section).findByText("En attente de confirmation du dentiste")).toBeInTheDocument();
    expect(
      within(section).getByText("2 créneaux proposés, dès le lundi 7 décembre 2026 à 14:30"),
    ).toBeInTheDocument();
    expect(
      within(section).getByRole("link", { name: "Voir le rendez-vous avec le Dr Sophie Leroy" }),
    ).toHaveAttribute("href", `/patient/request/${REQUEST_ID}`);
    expect(within(section).getByRole("link", { name: "Voir tous mes rendez-vous" })).toHaveAttribute(
      "href",
      "/patient/appointments",
    );
  });

  it("le patient sans rendez-vous le lit simplement", async () => {
    stubApi(patient, {
      "GET /api/patient/dashboard": () =>
        json(200, { counts: { active: 0, completed: 0, latest_at: null, support_unread: 0 }, recent: [] }),
      "GET /api/appointments": () => json(200, list([])),
    });
    renderApp("/patient/dashboard");
    const section = await screen.findByRole("region", { name: "Mes rendez-vous" });
    expect(await within(section).findByText(/Aucun rendez-vous à venir\./)).toBeInTheDocument();
  });
});
