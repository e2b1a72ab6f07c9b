import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type {
  DentistDashboard,
  DentistRequestDetail,
  DentistRequestList,
} from "../../../shared/schemas/dentist";
import {
  CROWN_ON_21,
  makeDentist,
  makeDentistDashboard,
  makeDentistRequestDetail,
  NO_APPOINTMENTS,
} from "../../test/dentist";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { dentistRequestsQuery } from "./api";
import { REPLY_REDIRECT_MS } from "./SubmissionPage";

const dentist = makeDentist();

const REQUEST_ID = "11111111-1111-4111-8111-111111111111";

const detail = (overrides: Partial<DentistRequestDetail> = {}) =>
  makeDentistRequestDetail(REQUEST_ID, overrides);

const emptyList: DentistRequestList = {
  items: [],
  page: 1,
  page_size: 10,
  has_more: false,
  treatments: ["crown", "implant"],
  verified: true,
  distance_filter: true,
};

afterEach(() => {
  vi.useRealTimers();
});

describe("réponse au patient", () => {
  it("désactive l'envoi tant que la réponse est vide (espaces compris)", async () => {
    stubApi(dentist, { [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, detail()) });
    const user = userEvent.setup();
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const box = await screen.findByLabelText("Votre réponse au patient");
    const send = screen.getByRole("button", { name: "Envoyer la réponse" });
    expect(send).toBeDisabled();
    await user.type(box, "   ");
    expect(send).toBeDisabled();
    await user.type(box, "Bonjour");
    expect(send).toBeEnabled();
    expect(screen.queryByText("Cette demande a déjà reçu une réponse.")).not.toBeInTheDocument();
    expect(screen.getByText("Urgent")).toBeInTheDocument();
    expect(screen.getByText("Non spécifié")).toBeInTheDocument();
    expect(screen.getByText("21 novembre 2026")).toBeInTheDocument();
  });

  it("bloque la réponse quand le dentiste n'est plus en attente, avec la note", async () => {
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () =>
        json(200, detail({ my_status: "responded", assigned: true, conversation_id: "c-1" })),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const box = await screen.findByLabelText("Votre réponse au patient");
    expect(box).toBeDisabled();
    expect(screen.getByRole("button", { name: "Envoyer la réponse" })).toBeDisabled();
    const note = screen.getByText("Cette demande a déjà reçu une réponse.");
    expect(box).toHaveAttribute("aria-describedby", note.id);
    expect(screen.getByText("Vous suivez cette demande")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "S'assigner cette demande" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir la conversation" })).toHaveAttribute(
      "href",
      "/dentist/messages/c-1",
    );
  });

  it("envoie la réponse, vide le champ, puis redirige vers le tableau de bord après 2 s", async () => {
    const replies: unknown[] = [];
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, detail()),
      [`POST /api/dentist/requests/${REQUEST_ID}/reply`]: (body) => {
        replies.push(body);
        return json(201, { conversation_id: "c-9", message: "Réponse envoyée avec succès" });
      },
      "GET /api/dentist/dashboard": () =>
        json(
          200,
          makeDentistDashboard({
            monthly: { received: 1, replies: 1, confirmations: 0 },
            average_response_minutes: 125,
          }),
        ),
      "GET /api/appointments": () => json(200, NO_APPOINTMENTS),
    });
    const { router } = renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const box = await screen.findByLabelText("Votre réponse au patient");
    fireEvent.change(box, { target: { value: "  Bonjour, je vous propose un rendez-vous.  " } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réponse" }));
    await screen.findByText("Réponse envoyée avec succès");
    expect(replies).toEqual([{ message: "Bonjour, je vous propose un rendez-vous." }]);
    expect(box).toHaveValue("");
    expect(screen.getByText(/Vous allez être redirigé/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/dentist/patient-submission/${REQUEST_ID}`);
    await act(async () => {
      vi.advanceTimersByTime(REPLY_REDIRECT_MS - 200);
    });
    expect(router.state.location.pathname).toBe(`/dentist/patient-submission/${REQUEST_ID}`);
    await act(async () => {
      vi.advanceTimersByTime(250);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dentist/dashboard"));
    expect(await screen.findByText("2 h 5 min")).toBeInTheDocument();
  });

  it("une demande fermée entre-temps (404 à l'envoi) : le dit, et garde le texte", async () => {
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, detail()),
      [`POST /api/dentist/requests/${REQUEST_ID}/reply`]: () =>
        json(404, { error: { code: "NOT_FOUND", message: "Impossible de trouver cette demande." } }),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const box = await screen.findByLabelText("Votre réponse au patient");
    fireEvent.change(box, { target: { value: "Bonjour" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réponse" }));
    expect(await screen.findByText("Impossible d'envoyer la réponse")).toBeInTheDocument();
    expect(
      screen.getByText(
        /^Cette demande n'est plus ouverte à vos réponses\s: le patient l'a annulée ou a choisi une autre proposition\./,
      ),
    ).toBeInTheDocument();
    expect(box).toHaveValue("Bonjour");
  });

  it("dit pourquoi l'envoi a échoué", async () => {
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, detail()),
      [`POST /api/dentist/requests/${REQUEST_ID}/reply`]: () =>
        json(409, { error: { code: "CONFLICT", message: "Cette demande a déjà reçu une réponse." } }),
    });
    const { router } = renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const box = await screen.findByLabelText("Votre réponse au patient");
    fireEvent.change(box, { target: { value: "Bonjour" } });
    fireEvent.click(screen.getByRole("button", { name: "Envoyer la réponse" }));
    expect(await screen.findByText("Impossible d'envoyer la réponse")).toBeInTheDocument();
    expect(box).toHaveValue("Bonjour");
    expect(router.state.location.pathname).toBe(`/dentist/patient-submission/${REQUEST_ID}`);
  });

  it("une demande introuvable affiche le message du catalogue", async () => {
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () =>
        json(404, { error: { code: "NOT_FOUND", message: "Impossible de trouver cette demande." } }),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    expect(await screen.findByText("Impossible de trouver cette demande.")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeInTheDocument();
  });
});

describe("devis du patient sur la demande", () => {
  it("montre les actes du devis, leur panier et les dépassements de plafond", async () => {
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () =>
        json(
          200,
          detail({
            quote_lines: [
              CROWN_ON_21,
              {
                code: "HBLD734",
                act: "Couronne céramo-métallique (molaire)",
                tooth: 36,
                fee_cents: 700_00,
                basket: "libre",
                br_cents: 107_50,
                ceiling_cents: null,
              },
            ],
          }),
        ),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const list = await screen.findByRole("list", { name: "Actes du devis du patient" });
    const [first, second] = within(list).getAllByRole("listitem") as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent("Dent 21");
    expect(first).toHaveTextContent("100 % Santé");
    expect(first).toHaveTextContent(/BR 120,00\s€/);
    expect(first).toHaveTextContent(/au-dessus du plafond 100 % Santé \(515,00\s€\)/);
    expect(second).toHaveTextContent("Tarifs libres");
    expect(second).not.toHaveTextContent(/plafond/);
    expect(screen.getByText(/Total du devis/)).toHaveTextContent(/1\s300,00\s€/);
    // Reusing the lines is for the proposal form, on the proposal page.
    expect(screen.queryByRole("button", { name: "Reprendre les actes du devis" })).not.toBeInTheDocument();
  });

  it("sans devis détaillé, pas de carte", async () => {
    stubApi(dentist, { [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, detail()) });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    await screen.findByLabelText("Votre réponse au patient");
    expect(screen.queryByRole("heading", { name: "Devis du patient" })).not.toBeInTheDocument();
  });
});

describe("filtres de la liste des demandes", () => {
  it("construit la requête sans les valeurs par défaut", () => {
    expect(
      dentistRequestsQuery({
        search: "  dupont ",
        status: "all",
        treatment: "",
        within: "",
        page: 1,
      }).toString(),
    ).toBe("search=dupont&page=1&page_size=10");
    expect(
      dentistRequestsQuery({
        search: "",
        status: "responded",
        treatment: "implant",
        within: "25",
        page: 3,
      }).toString(),
    ).toBe("status=responded&treatment=implant&within_km=25&page=3&page_size=10");
  });

  function listCalls(fetchMock: ReturnType<typeof stubApi>) {
    return fetchMock.mock.calls
      .map(([input]) => new URL(String(input), "http://localhost"))
      .filter((url) => url.pathname === "/api/dentist/requests");
  }

  it("reprend les filtres de l'adresse puis envoie la recherche et les filtres choisis au serveur", async () => {
    const fetchMock = stubApi(dentist, { "GET /api/dentist/requests": () => json(200, emptyList) });
    const user = userEvent.setup();
    const { router } = renderApp("/dentist/quote-requests?status=pending&treatment=crown");
    expect(
      await screen.findByText("Aucune demande de devis ne correspond à vos critères."),
    ).toBeInTheDocument();
    const first = listCalls(fetchMock)[0];
    expect(first?.searchParams.get("status")).toBe("pending");
    expect(first?.searchParams.get("treatment")).toBe("crown");
    expect(first?.searchParams.get("search")).toBeNull();

    await user.type(screen.getByLabelText("Rechercher un patient ou un traitement"), "Durand");
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get("search")).toBe("Durand"));
    // One call for the whole word, not one per letter.
    expect(listCalls(fetchMock).filter((url) => url.searchParams.has("search"))).toHaveLength(1);
    expect(router.state.location.search).toContain("q=Durand");

    await user.click(screen.getByRole("combobox", { name: "Statut" }));
    // A request chosen by the patient reads « Proposition acceptée », « Rendez-vous à confirmer »,
    // « Confirmé » or « Terminée » as its appointment goes (issue 16): the filter names them all.
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual([
      "Tous",
      "En attente",
      "Répondues",
      "Acceptées par le patient",
      "Écartées",
    ]);
    await user.click(await screen.findByRole("option", { name: "Répondues" }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get("status")).toBe("responded"));

    await user.click(screen.getByRole("combobox", { name: "Traitement" }));
    expect(await screen.findByRole("option", { name: "Implant dentaire" })).toBeInTheDocument();
    await user.click(screen.getByRole("option", { name: "Tous les traitements" }));
    await waitFor(() => {
      const last = listCalls(fetchMock).at(-1);
      expect(last?.searchParams.get("treatment")).toBeNull();
      expect(last?.searchParams.get("status")).toBe("responded");
      expect(last?.searchParams.get("search")).toBe("Durand");
    });
    expect(router.state.location.search).not.toContain("treatment=");
  });

  it("filtre par distance du patient, quand la commune du cabinet est localisée (ADR 094)", async () => {
    const fetchMock = stubApi(dentist, { "GET /api/dentist/requests": () => json(200, emptyList) });
    const user = userEvent.setup();
    const { router, unmount } = renderApp("/dentist/quote-requests");
    const distance = await screen.findByRole("combobox", { name: "Distance du patient" });
    expect(distance).toHaveTextContent("Toutes les distances");
    expect(screen.queryByText(/ne sont pas montrées avec ce filtre/)).not.toBeInTheDocument();
    await user.click(distance);
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual([
      "Toutes les distances",
      "Jusqu'à 10\u00a0km",
      "Jusqu'à 25\u00a0km",
      "Jusqu'à 50\u00a0km",
      "Jusqu'à 100\u00a0km",
    ]);
    await user.click(screen.getByRole("option", { name: "Jusqu'à 25\u00a0km" }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get("within_km")).toBe("25"));
    expect(router.state.location.search).toContain("distance=25");
    // What the filter leaves out is said.
    expect(
      screen.getByText(
        /Les demandes dont la distance n'est pas connue .* ne sont pas montrées avec ce filtre\./,
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Réinitialiser les filtres" }));
    await waitFor(() => expect(router.state.location.search).not.toContain("distance="));
    expect(screen.getByRole("combobox", { name: "Distance du patient" })).toHaveTextContent(
      "Toutes les distances",
    );
    unmount();

    // A practice whose commune has no point: no distance to filter by, no filter offered.
    stubApi(dentist, {
      "GET /api/dentist/requests": () => json(200, { ...emptyList, distance_filter: false }),
    });
    renderApp("/dentist/quote-requests");
    await screen.findByText("Aucune demande de devis ne correspond à vos critères.");
    expect(screen.queryByRole("combobox", { name: "Distance du patient" })).not.toBeInTheDocument();
  });

  it("affiche les lignes avec leurs libellés et la pagination", async () => {
    stubApi(dentist, {
      "GET /api/dentist/requests": () =>
        json(200, {
          ...emptyList,
          has_more: true,
          items: [
            {
              id: REQUEST_ID,
              patient_name: "Inès Martin",
              treatment_type: "crown",
              created_at: "2026-11-21T10:00:00.000Z",
              budget: "",
              urgency: "low",
              my_status: "pending",
              is_new: true,
              set_aside: false,
              addressed_to_me: false,
              quote_amount_cents: 120_000,
              appointment_status: null,
              patient_city: "Lyon",
              distance_km: 0,
            },
            {
              id: "22222222-2222-4222-8222-222222222222",
              patient_name: "Paul Durand",
              treatment_type: "implant",
              created_at: "2026-11-20T10:00:00.000Z",
              budget: "2 000 €",
              urgency: "medium",
              my_status: "confirmed",
              is_new: false,
              set_aside: false,
              addressed_to_me: false,
              quote_amount_cents: null,
              appointment_status: "pending",
              patient_city: null,
              distance_km: null,
            },
            ...[
              ["33333333-3333-4333-8333-333333333333", "Léa Petit", "2999-01-05T09:00:00.000Z"],
              ["44444444-4444-4444-8444-444444444444", "Omar Rousseau", "2026-01-05T09:00:00.000Z"],
            ].map(([id, name, startsAt]) => ({
              id,
              patient_name: name,
              treatment_type: "veneer",
              created_at: "2026-11-19T10:00:00.000Z",
              budget: "",
              urgency: "medium",
              my_status: "confirmed",
              is_new: false,
              set_aside: false,
              addressed_to_me: false,
              quote_amount_cents: null,
              appointment_status: "confirmed",
              appointment_starts_at: startsAt,
              patient_city: null,
              distance_km: null,
            })),
          ],
        }),
    });
    renderApp("/dentist/quote-requests");
    const table = await screen.findByRole("table", { name: "Demandes de devis" });
    await waitFor(() => expect(table).toHaveTextContent("Inès Martin"));
    const rows = table.querySelectorAll("tbody tr");
    expect(rows[0]).toHaveTextContent(
      /Inès Martin.*Nouvelle.*Lyon · <\s1\skm.*Couronne.*21\/11\/2026.*Non spécifié.*Non urgent.*1\s200,00\s€.*En attente.*Répondre/,
    );
    // Chosen, but the appointment is still to confirm: never 'Confirmé' (issue 16).
    expect(rows[1]).toHaveTextContent(
      /Paul Durand.*Implant dentaire.*20\/11\/2026.*2 000 €.*Normal.*Non renseigné.*Rendez-vous à confirmer.*Voir/,
    );
    expect(rows[1]).not.toHaveTextContent("Confirmé");
    // Confirmed: « Confirmé » until its time, then « Terminée », as the patient reads it.
    expect(rows[2]).toHaveTextContent(/Léa Petit.*Confirmé/);
    expect(rows[3]).toHaveTextContent(/Omar Rousseau.*Terminée/);
    expect(rows[3]).not.toHaveTextContent("Confirmé");
    expect(screen.getByRole("button", { name: /Précédent/ })).toBeDisabled();
    expect(screen.getByRole("button", { name: /Suivant/ })).toBeEnabled();
  });

  it("un dentiste non vérifié voit l'explication et aucun filtre", async () => {
    stubApi(makeProfile({ role: "dentist" }), {
      "GET /api/dentist/requests": () => json(200, { ...emptyList, treatments: [], verified: false }),
    });
    renderApp("/dentist/quote-requests");
    expect(await screen.findByText("En attente de vérification")).toBeInTheDocument();
    expect(screen.queryByLabelText("Rechercher un patient ou un traitement")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Compléter mon profil" })).toHaveAttribute(
      "href",
      "/dentist/profile",
    );
  });

  it("refusé, il lit la raison de l'équipe ; sa demande envoyée, il lit qu'elle est en cours", async () => {
    stubApi(
      makeProfile({
        role: "dentist",
        verification_state: "refused",
        verification_refusal_reason: "Numéro RPPS introuvable.",
      }),
      { "GET /api/dentist/requests": () => json(200, { ...emptyList, treatments: [], verified: false }) },
    );
    const refused = renderApp("/dentist/quote-requests");
    expect(await screen.findByText("Vérification refusée")).toBeInTheDocument();
    expect(
      screen.getByText(
        /Notre équipe n.a pas pu vérifier votre compte\s:\s«\sNuméro RPPS introuvable\.\s» Corrigez/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Complétez votre profil/)).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir mon profil" })).toHaveAttribute("href", "/dentist/profile");
    refused.unmount();
    // A reason without its own full stop gets the sentence's.
    stubApi(
      makeProfile({
        role: "dentist",
        verification_state: "refused",
        verification_refusal_reason: "Adresse du cabinet introuvable",
      }),
      { "GET /api/dentist/requests": () => json(200, { ...emptyList, treatments: [], verified: false }) },
    );
    const bare = renderApp("/dentist/quote-requests");
    expect(await screen.findByText(/«\sAdresse du cabinet introuvable\s»\. Corrigez/)).toBeInTheDocument();
    bare.unmount();

    stubApi(
      makeProfile({
        role: "dentist",
        verification_state: "requested",
        verification_requested_at: "2026-12-01T10:00:00.000Z",
      }),
      { "GET /api/dentist/requests": () => json(200, { ...emptyList, treatments: [], verified: false }) },
    );
    renderApp("/dentist/quote-requests");
    expect(
      await screen.findByText(/^Votre demande de vérification a été envoyée le 1(er)? décembre 2026/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Complétez votre profil/)).not.toBeInTheDocument();
  });
});

describe("écarter une demande : ne pas donner suite (ADR 091)", () => {
  const summary = (id: string, name: string, setAside: boolean) => ({
    id,
    patient_name: name,
    treatment_type: "crown" as const,
    created_at: "2026-11-21T10:00:00.000Z",
    budget: "",
    urgency: "low" as const,
    my_status: "pending" as const,
    // Never opened: « Nouvelle » while it waits, not once set aside.
    is_new: true,
    set_aside: setAside,
    addressed_to_me: false,
    quote_amount_cents: 120_000,
    appointment_status: null,
    patient_city: "Brest",
    distance_km: 480,
  });
  const OTHER_ID = "33333333-3333-4333-8333-333333333333";

  it("écarte une demande depuis la liste sans l'ouvrir, puis l'annule depuis le message", async () => {
    const calls: string[] = [];
    let aside = false;
    stubApi(dentist, {
      "GET /api/dentist/requests": () =>
        json(200, {
          ...emptyList,
          items: [summary(REQUEST_ID, "Inès Martin", aside), summary(OTHER_ID, "Paul Durand", false)],
        }),
      [`POST /api/dentist/requests/${REQUEST_ID}/set-aside`]: () => {
        calls.push("POST");
        aside = true;
        return json(200, { message: "Demande écartée : elle ne compte plus dans vos demandes à traiter." });
      },
      [`DELETE /api/dentist/requests/${REQUEST_ID}/set-aside`]: () => {
        calls.push("DELETE");
        aside = false;
        return json(200, { message: "Demande remise dans vos demandes à traiter." });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/quote-requests");
    const table = await screen.findByRole("table", { name: "Demandes de devis" });
    await waitFor(() => expect(table).toHaveTextContent("Inès Martin"));

    await user.click(
      within(table).getByRole("button", {
        name: "Écarter la demande d'Inès Martin (Couronne) : ne pas donner suite",
      }),
    );
    expect(
      await screen.findByText(/^Demande écartée\s: elle ne compte plus dans vos demandes à traiter\.$/),
    ).toBeInTheDocument();
    expect(calls).toEqual(["POST"]);
    // The list reloads: the row says « Écartée » and offers to put it back; the other row is untouched.
    const rows = () => table.querySelectorAll("tbody tr");
    await waitFor(() => expect(rows()[0]).toHaveTextContent(/Inès Martin.*Écartée.*Répondre.*Remettre/));
    expect(rows()[0]).not.toHaveTextContent("Nouvelle");
    expect(rows()[1]).toHaveTextContent(/Paul Durand.*Nouvelle.*En attente.*Répondre.*Écarter/);
    // Never the request's page: opening it would be a line of the patient's access history.
    expect(screen.queryByRole("heading", { name: /Demande d'Inès Martin/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Annuler" }));
    const putBack = await screen.findByText("Demande remise dans vos demandes à traiter.");
    // The answer replaces the toast in place: not one on its way out (it vanished 200 ms later).
    expect(putBack.closest("[data-sonner-toast]")).toHaveAttribute("data-removed", "false");
    expect(calls).toEqual(["POST", "DELETE"]);
    await waitFor(() => expect(rows()[0]).toHaveTextContent(/Inès Martin.*En attente.*Écarter/));
  });

  it("écarte les demandes cochées de la page en une fois, remet celles déjà écartées, et l'annule depuis le message", async () => {
    const LUC_ID = "44444444-4444-4444-8444-444444444444";
    const ZOE_ID = "55555555-5555-4555-8555-555555555555";
    const aside = new Set<string>([LUC_ID]);
    const bodies: unknown[] = [];
    stubApi(dentist, {
      "GET /api/dentist/requests": () =>
        json(200, {
          ...emptyList,
          items: [
            summary(REQUEST_ID, "Inès Martin", aside.has(REQUEST_ID)),
            summary(OTHER_ID, "Paul Durand", aside.has(OTHER_ID)),
            { ...summary(ZOE_ID, "Zoé Bernard", false), my_status: "responded" as const },
            summary(LUC_ID, "Luc Petit", aside.has(LUC_ID)),
          ],
        }),
      "POST /api/dentist/requests/set-aside": (body) => {
        bodies.push(body);
        const { ids, aside: setAside } = body as { ids: string[]; aside: boolean };
        for (const id of ids) {
          if (setAside) aside.add(id);
          else aside.delete(id);
        }
        return json(200, {
          changed: ids,
          message: setAside
            ? `${ids.length} demandes écartées : elles ne comptent plus dans vos demandes à traiter.`
            : `${ids.length} demandes remises dans vos demandes à traiter.`,
        });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/quote-requests");
    const table = await screen.findByRole("table", { name: "Demandes de devis" });
    await waitFor(() => expect(table).toHaveTextContent("Luc Petit"));
    const bar = screen.getByRole("group", { name: "Sélection de demandes" });
    expect(bar).toHaveTextContent("Aucune demande sélectionnée");
    // Answered: nothing to set aside, no box.
    expect(within(table).queryByRole("checkbox", { name: /Zoé Bernard/ })).toBeNull();
    const scrollPadding = () => document.documentElement.style.scrollPaddingTop;
    expect(scrollPadding()).toBe("");

    await user.click(within(bar).getByRole("checkbox", { name: "Tout sélectionner sur cette page" }));
    expect(bar).toHaveTextContent("3 demandes sélectionnées");
    // Stuck under the header: what the keyboard focuses scrolls into sight below it, not under it.
    // calc(5rem + the bar's height); jsdom lays nothing out: 0px.
    expect(scrollPadding()).toMatch(/^calc\((5rem \+ \d+px|\d+px \+ 5rem)\)$/);
    expect(within(bar).getByRole("button", { name: "Écarter la sélection (2)" })).toBeInTheDocument();
    expect(within(bar).getByRole("button", { name: "Remettre la sélection (1)" })).toBeInTheDocument();
    await user.click(
      within(table).getByRole("checkbox", {
        name: "Sélectionner la demande de Luc Petit (Couronne, 21/11/2026)",
      }),
    );
    expect(bar).toHaveTextContent("2 demandes sélectionnées");
    expect(within(bar).queryByRole("button", { name: /^Remettre la sélection/ })).toBeNull();

    await user.click(within(bar).getByRole("button", { name: "Écarter la sélection (2)" }));
    expect(
      await screen.findByText(
        /^2 demandes écartées\s: elles ne comptent plus dans vos demandes à traiter\.$/,
      ),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ ids: [REQUEST_ID, OTHER_ID], aside: true }]);
    // The selection is done with; the rows say « Écartée ».
    await waitFor(() => expect(bar).toHaveTextContent("Aucune demande sélectionnée"));
    expect(within(bar).getByRole("checkbox", { name: "Tout sélectionner sur cette page" })).toHaveFocus();
    expect(scrollPadding()).toBe("");
    const rows = () => table.querySelectorAll("tbody tr");
    await waitFor(() => expect(rows()[0]).toHaveTextContent(/Inès Martin.*Écartée/));
    expect(rows()[1]).toHaveTextContent(/Paul Durand.*Écartée/);

    await user.click(screen.getByRole("button", { name: "Annuler" }));
    expect(await screen.findByText("2 demandes remises dans vos demandes à traiter.")).toBeInTheDocument();
    expect(bodies).toEqual([
      { ids: [REQUEST_ID, OTHER_ID], aside: true },
      { ids: [REQUEST_ID, OTHER_ID], aside: false },
    ]);
    await waitFor(() => expect(rows()[0]).toHaveTextContent(/Inès Martin.*En attente/));
  });

  it("au clavier, dans « En attente », le focus passe à la ligne suivante quand la ligne écartée s'en va", async () => {
    let aside = false;
    stubApi(dentist, {
      "GET /api/dentist/requests": () =>
        json(200, {
          ...emptyList,
          items: [
            ...(aside ? [] : [summary(REQUEST_ID, "Inès Martin", false)]),
            summary(OTHER_ID, "Paul Durand", false),
          ],
        }),
      [`POST /api/dentist/requests/${REQUEST_ID}/set-aside`]: () => {
        aside = true;
        return json(200, { message: "Demande écartée : elle ne compte plus dans vos demandes à traiter." });
      },
    });
    const user = userEvent.setup();
    renderApp("/dentist/quote-requests?status=pending");
    const table = await screen.findByRole("table", { name: "Demandes de devis" });
    await waitFor(() => expect(table).toHaveTextContent("Inès Martin"));
    const button = within(table).getByRole("button", {
      name: "Écarter la demande d'Inès Martin (Couronne) : ne pas donner suite",
    });
    button.focus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(table).not.toHaveTextContent("Inès Martin"));
    expect(within(table).getByRole("link", { name: /^Répondre à la demande de Paul Durand/ })).toHaveFocus();
  });

  it("sur la page de la demande, la marque « Écartée » sans la recharger, et dit un refus", async () => {
    const fetchMock = stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, detail()),
      [`POST /api/dentist/requests/${REQUEST_ID}/set-aside`]: () =>
        json(200, { message: "Demande écartée : elle ne compte plus dans vos demandes à traiter." }),
      [`DELETE /api/dentist/requests/${REQUEST_ID}/set-aside`]: () =>
        json(404, { error: { code: "NOT_FOUND", message: "Impossible de trouver cette demande." } }),
    });
    const user = userEvent.setup();
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    await user.click(
      await screen.findByRole("button", {
        name: "Écarter la demande d'Inès Martin (Couronne) : ne pas donner suite",
      }),
    );
    expect(await screen.findByText("Écartée")).toBeInTheDocument();
    const detailCalls = () =>
      fetchMock.mock.calls.filter(
        ([input, init]) =>
          (init?.method ?? "GET") === "GET" &&
          new URL(String(input), "http://localhost").pathname === `/api/dentist/requests/${REQUEST_ID}`,
      ).length;
    expect(detailCalls()).toBe(1);

    await user.click(
      screen.getByRole("button", {
        name: "Remettre la demande d'Inès Martin (Couronne) dans mes demandes à traiter",
      }),
    );
    expect(await screen.findByText("Impossible de remettre la demande")).toBeInTheDocument();
    expect(screen.getByText("Impossible de trouver cette demande.")).toBeInTheDocument();
    expect(screen.getByText("Écartée")).toBeInTheDocument();
  });

  it("n'offre pas d'écarter une demande déjà répondue", async () => {
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () =>
        json(200, detail({ my_status: "responded", assigned: true, conversation_id: "c-1" })),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    expect(await screen.findByText("Vous suivez cette demande")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Écarter la demande/ })).not.toBeInTheDocument();
  });

  it("ni une demande qui lui est adressée personnellement : la patiente n'attend que lui", async () => {
    stubApi(dentist, {
      [`GET /api/dentist/requests/${REQUEST_ID}`]: () => json(200, detail({ addressed_to_me: true })),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    expect(await screen.findByLabelText("Votre réponse au patient")).toBeEnabled();
    expect(screen.queryByRole("button", { name: /Écarter la demande/ })).not.toBeInTheDocument();
  });
});

describe("tableau de bord : « À faire » d'abord (issue 16)", () => {
  const row = (id: string, name: string, status: "pending" | "confirmed" = "pending") => ({
    id,
    patient_name: name,
    treatment_type: "crown" as const,
    created_at: "2026-11-21T10:00:00.000Z",
    budget: "",
    urgency: "medium" as const,
    my_status: status,
    is_new: true,
    set_aside: false,
    addressed_to_me: false,
    quote_amount_cents: 98_000,
    appointment_status: status === "confirmed" ? ("pending" as const) : null,
    appointment_starts_at: null,
    patient_city: null,
    distance_km: null,
  });
  const dashboard: DentistDashboard = {
    verified: true,
    pending_count: 7,
    todo: {
      requests: {
        count: 7,
        items: [
          { ...row(REQUEST_ID, "Inès Martin"), patient_city: "Lyon", distance_km: 12 },
          { ...row("r-5", "Jules Roux"), quote_amount_cents: null },
        ],
      },
      appointments: {
        count: 2,
        items: [
          {
            id: "a-1",
            request_id: "r-2",
            patient_name: "Paul Durand",
            treatment_type: "implant" as const,
            first_option: "2026-12-02T13:30:00.000Z",
            options_count: 1,
            created_at: "2026-11-21T10:00:00.000Z",
          },
          {
            id: "a-2",
            request_id: "r-6",
            patient_name: "Zoé Blanc",
            treatment_type: "crown" as const,
            first_option: "2026-12-04T08:00:00.000Z",
            options_count: 3,
            created_at: "2026-11-21T11:00:00.000Z",
          },
        ],
      },
      conversations: {
        count: 1,
        items: [
          {
            id: "c-3",
            patient_name: "Léa Petit",
            treatment_type: "veneer" as const,
            last_message_at: "2026-11-21T11:00:00.000Z",
            unread_count: 2,
          },
        ],
      },
    },
    response_rate: 50,
    unread_messages: 2,
    recent_requests: [
      { ...row("r-2", "Paul Durand", "confirmed"), patient_city: "Marseille", distance_km: 310 },
    ],
    recent_messages: [
      {
        id: "c-9",
        conversation_id: "c-9",
        patient_name: "Hugo Bernard",
        body: "Je vous propose mardi.",
        created_at: "2026-11-21T09:00:00.000Z",
        read: true,
        from_me: true,
      },
    ],
    monthly: { received: 3, replies: 1, confirmations: 0 },
    average_response_minutes: null,
  };

  /** Opens the dashboard with this body and this many requests to answer (appointments to confirm) in the menu. */
  function showDashboard(body: DentistDashboard, requestsToDo: number, toConfirm = 0) {
    stubApi(dentist, {
      "GET /api/dentist/dashboard": () => json(200, body),
      "GET /api/dentist/todo-count": () => json(200, { requests: requestsToDo, appointments: toConfirm }),
      "GET /api/appointments": () => json(200, NO_APPOINTMENTS),
    });
    renderApp("/dentist/dashboard");
  }

  it("liste les demandes à traiter, les rendez-vous à confirmer et les conversations non lues, avec leur bouton", async () => {
    showDashboard(dashboard, 7);
    const todo = await screen.findByRole("heading", { level: 2, name: "À faire" });
    // The first block of the page.
    const headings = screen.getAllByRole("heading", { level: 2 });
    expect(headings[0]).toBe(todo);

    const requests = await screen.findByRole("region", { name: /Demandes à traiter/ });
    expect(within(requests).getByRole("heading", { name: /^Demandes à traiter\s*7$/ })).toBeInTheDocument();
    // Where the patient lives, before opening the request (ADR 019); nothing when unknown.
    expect(within(requests).getByText(/^Lyon · 12\s+km · Couronne.*devis 980,00\s€/)).toBeInTheDocument();
    // A request without the devis's amount, mid-sentence.
    expect(
      within(requests).getByText(/Couronne · 21\/11\/2026 · montant du devis non renseigné$/),
    ).toBeInTheDocument();
    expect(within(requests).getByRole("link", { name: "Répondre à Inès Martin (Couronne)" })).toHaveAttribute(
      "href",
      `/dentist/patient-submission/${REQUEST_ID}`,
    );
    // Set aside from here too, without opening it (ADR 091).
    expect(
      within(requests).getByRole("button", {
        name: "Écarter la demande d'Inès Martin (Couronne) : ne pas donner suite",
      }),
    ).toHaveTextContent("Écarter");
    // 7 to answer, 1 shown: the rest is one link away.
    expect(within(requests).getByRole("link", { name: "Voir les 7 demandes" })).toHaveAttribute(
      "href",
      "/dentist/quote-requests?status=pending",
    );

    const appointments = screen.getByRole("region", { name: /Rendez-vous à confirmer/ });
    // The slot she asked for; the earliest of several, saying how many.
    expect(
      within(appointments).getByText(
        /^Implant dentaire · créneau demandé\s: mercredi 2 décembre 2026 à 14:30$/,
      ),
    ).toBeInTheDocument();
    expect(
      within(appointments).getByText(
        /^Couronne · premier de 3 créneaux\s: vendredi 4 décembre 2026 à 09:00$/,
      ),
    ).toBeInTheDocument();
    expect(within(appointments).queryByText(/à partir du/)).not.toBeInTheDocument();
    expect(
      within(appointments).getByRole("link", { name: "Confirmer le rendez-vous de Paul Durand" }),
    ).toHaveTextContent("Confirmer");
    // To that appointment's card, not the top of the list.
    expect(
      within(appointments).getByRole("link", { name: "Confirmer le rendez-vous de Paul Durand" }),
    ).toHaveAttribute("href", "/dentist/appointments#rdv-a-1");
    const conversations = screen.getByRole("region", { name: /Conversations non lues/ });
    expect(within(conversations).getByText(/2 messages non lus/)).toBeInTheDocument();
    expect(
      within(conversations).getByRole("link", { name: "Ouvrir la conversation avec Léa Petit" }),
    ).toHaveAttribute("href", "/dentist/messages/c-3");

    // Recent messages: the Messages page's conversations, the dentist's own last message included.
    const recent = screen.getByRole("list", { name: "Messages récents" });
    expect(within(recent).getByText(/Vous : Je vous propose mardi\./)).toBeInTheDocument();
    // A request whose appointment is pending is not 'Confirmé'.
    const recentRequests = screen.getByRole("list", { name: "Demandes récentes" });
    expect(within(recentRequests).getByText("Rendez-vous à confirmer")).toBeInTheDocument();
    expect(within(recentRequests).queryByText("Confirmé")).not.toBeInTheDocument();
    expect(
      within(recentRequests).getByText(/^Marseille · 310\s+km · Couronne · 21\/11\/2026$/),
    ).toBeInTheDocument();

    // The response rate says what it counts (the spec's: the open requests answered).
    const rate = screen.getByRole("progressbar", { name: "Taux de réponse" });
    expect(rate).toHaveAttribute("aria-valuetext", "50\u202f%");
    expect(rate).toHaveAccessibleDescription("Part des demandes en cours auxquelles vous avez répondu");
  });

  it("dit ce que comptent les « Demandes reçues » du mois, y compris celles obtenues par un confrère", async () => {
    showDashboard(dashboard, 7);
    const received = (await screen.findByText("Demandes reçues")).closest("div");
    await waitFor(() => expect(received).toHaveTextContent(/^Demandes reçues3$/));
    expect(
      screen.getByText(
        "Demandes envoyées ce mois-ci à tous les dentistes ou à vous, y compris celles qu'un confrère a obtenues depuis.",
      ),
    ).toBeInTheDocument();
  });

  it("sans demande en cours à laquelle répondre, le taux de réponse est « — », pas 0 %", async () => {
    showDashboard({ ...dashboard, verified: false, response_rate: null }, 0);
    const rate = await screen.findByRole("progressbar", { name: "Taux de réponse" });
    expect(rate).toHaveAttribute("aria-valuetext", "Aucune demande en cours");
    expect(screen.queryByText("0 %")).not.toBeInTheDocument();
  });

  it.each([
    ["refused", "Vérification refusée"],
    ["withdrawn", "Vérification retirée"],
  ] as const)(
    "vérification %s : « Statut du cabinet » dit %s, comme la carte au-dessus, pas « En attente »",
    async (state, label) => {
      stubApi(makeDentist({ is_verified: false, verification_state: state }), {
        "GET /api/dentist/dashboard": () => json(200, { ...dashboard, verified: false, response_rate: null }),
        "GET /api/dentist/todo-count": () => json(200, { requests: 0, appointments: 0 }),
        "GET /api/appointments": () => json(200, NO_APPOINTMENTS),
      });
      renderApp("/dentist/dashboard");
      await screen.findByRole("heading", { name: "Statut du cabinet" });
      // The card at the top and the status's badge.
      await waitFor(() => expect(screen.getAllByText(label)).toHaveLength(2));
      expect(screen.queryByText("En attente de vérification")).not.toBeInTheDocument();
    },
  );

  it("vérification jamais demandée : « Vérification à demander » et comment la demander ; demandée : « En attente »", async () => {
    const open = (state: "none" | "requested") => {
      stubApi(
        makeDentist({
          is_verified: false,
          verification_state: state,
          verification_requested_at: state === "requested" ? "2026-11-20T10:00:00.000Z" : null,
        }),
        {
          "GET /api/dentist/dashboard": () =>
            json(200, { ...dashboard, verified: false, response_rate: null }),
          "GET /api/dentist/todo-count": () => json(200, { requests: 0, appointments: 0 }),
          "GET /api/appointments": () => json(200, NO_APPOINTMENTS),
        },
      );
      return renderApp("/dentist/dashboard");
    };
    const { unmount } = open("none");
    expect(await screen.findByText("Vérification à demander")).toBeInTheDocument();
    // Nothing is waiting at the team: the card says what to do, and promises nothing.
    expect(
      screen.getByText(/renseignez votre numéro RPPS et l'adresse de votre cabinet dans votre profil/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/sera vérifié/)).not.toBeInTheDocument();
    unmount();
    open("requested");
    await waitFor(() => expect(screen.getAllByText("En attente de vérification")).toHaveLength(2));
    expect(screen.queryByText("Vérification à demander")).not.toBeInTheDocument();
  });

  it("sans la réponse du serveur, dit l'erreur au lieu de cartes vides ou à 0 %, puis les montre une fois rechargé", async () => {
    let fail = true;
    stubApi(dentist, {
      "GET /api/dentist/dashboard": () =>
        fail ? json(500, { error: { code: "INTERNAL", message: "Erreur interne." } }) : json(200, dashboard),
      "GET /api/dentist/todo-count": () => json(200, { requests: 7, appointments: 0 }),
      "GET /api/appointments": () => json(200, NO_APPOINTMENTS),
    });
    const user = userEvent.setup();
    renderApp("/dentist/dashboard");
    expect(await screen.findByText("Impossible de charger votre tableau de bord")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "À faire" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Rien ne vous attend/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Aucun message pour le moment/)).not.toBeInTheDocument();
    expect(screen.queryByText(/0\s%/)).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    expect(await screen.findByRole("heading", { level: 2, name: "À faire" })).toBeInTheDocument();
    expect(screen.queryByText("Impossible de charger votre tableau de bord")).not.toBeInTheDocument();
  });

  it("montre 'Demandes' dans le menu avec son compteur, lu « Demandes, 7 à traiter »", async () => {
    showDashboard(dashboard, 7);
    const nav = await screen.findByRole("navigation", { name: "Espace dentiste" });
    const link = await within(nav).findByRole("link", { name: "Demandes, 7 à traiter" });
    expect(link).toHaveAttribute("href", "/dentist/quote-requests");
    const links = within(nav).getAllByRole("link");
    expect(links[1]).toBe(link);
  });

  it("montre 'Rendez-vous' avec les rendez-vous à confirmer, lu « Rendez-vous, 2 à confirmer »", async () => {
    showDashboard(dashboard, 0, 2);
    const nav = await screen.findByRole("navigation", { name: "Espace dentiste" });
    const link = await within(nav).findByRole("link", { name: "Rendez-vous, 2 à confirmer" });
    expect(link).toHaveAttribute("href", "/dentist/appointments");
    expect(link).toHaveTextContent(/^Rendez-vous2$/);
    expect(within(nav).getByRole("link", { name: "Demandes" })).toBeInTheDocument();
  });

  it("sans rien à traiter, le menu dit simplement 'Demandes'", async () => {
    showDashboard({ ...dashboard, pending_count: 0, todo: makeDentistDashboard().todo }, 0);
    expect(await screen.findByText("Rien ne vous attend pour le moment.")).toBeInTheDocument();
    expect(screen.getByText("Aucune demande à traiter.")).toBeInTheDocument();
    const nav = screen.getByRole("navigation", { name: "Espace dentiste" });
    expect(within(nav).getByRole("link", { name: "Demandes" })).toBeInTheDocument();
    expect(within(nav).getByRole("link", { name: "Rendez-vous" })).toBeInTheDocument();
  });
});
