import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Appointment, AppointmentList } from "../../../shared/schemas/appointments";
import type { PatientOffer } from "../../../shared/schemas/offers";
import { QueryProvider } from "../../lib/QueryProvider";
import { resetQueryClient } from "../../lib/queryClient";
import { makeDentist, makeDentistDashboard } from "../../test/dentist";
import { json, makeProfile, renderApp, settled, stubApi } from "../../test/renderApp";
import { Toaster } from "../ui/Toaster";
import { AppointmentCard } from "./AppointmentCard";
import { RequestAppointment } from "./RequestAppointment";

/** Tuesday 1 December 2026, 10:00 in Paris. */
const NOW = new Date("2026-12-01T09:00:00.000Z");
const REQUEST_ID = "33333333-3333-4333-8333-333333333333";
const OFFER_ID = "44444444-4444-4444-8444-444444444444";

const patient = makeProfile();
const dentist = makeDentist({ id: "00000000-0000-4000-8000-000000000002" });

function appointment(overrides: Partial<Appointment> = {}): Appointment {
  return {
    id: "a-1",
    request_id: REQUEST_ID,
    offer_id: OFFER_ID,
    treatment_type: "crown",
    amount_cents: 78_000,
    status: "pending",
    awaiting: "dentist",
    my_side: "patient",
    view: "awaiting_other",
    starts_at: null,
    // Monday 7 December 2026, 14:30 in Paris.
    options: ["2026-12-07T13:30:00.000Z"],
    cancelled_by: null,
    may_confirm: false,
    may_change: true,
    patient: { id: patient.id, full_name: "Marie Curie" },
    dentist: {
      id: dentist.id,
      full_name: "Sophie Leroy",
      city: "Lyon",
      address: "12 rue de la République",
      postcode: "69002",
    },
    created_at: "2026-11-30T10:00:00.000Z",
    updated_at: "2026-11-30T10:00:00.000Z",
    ...overrides,
  };
}

const confirmed = (overrides: Partial<Appointment> = {}) =>
  appointment({
    status: "confirmed",
    awaiting: null,
    view: "confirmed",
    starts_at: "2026-12-07T13:30:00.000Z",
    options: [],
    ...overrides,
  });

function list(items: Appointment[], overrides: Partial<AppointmentList> = {}): AppointmentList {
  return { items, page: 1, page_size: 10, has_more: false, ...overrides };
}

function offer(overrides: Partial<PatientOffer> = {}): PatientOffer {
  return {
    id: OFFER_ID,
    request_id: REQUEST_ID,
    amount_cents: 78_000,
    comment: "",
    valid_until: null,
    state: "accepted",
    lines: [],
    slots: [
      // Past: not offered any more.
      "2026-11-30T09:00:00.000Z",
      // Monday 7 December, 14:30 in Paris (UTC+1).
      "2026-12-07T13:30:00.000Z",
      // Wednesday 9 December, 09:15 in Paris.
      "2026-12-09T08:15:00.000Z",
    ],
    created_at: "2026-11-22T09:00:00.000Z",
    dentist: {
      id: dentist.id,
      full_name: "Sophie Leroy",
      city: "Lyon",
      avatar_url: null,
      specialties: [],
      is_verified: true,
    },
    conversation_id: null,
    ...overrides,
  };
}

/** Renders a piece with react-query and the toasts, the clock at NOW. */
function renderPiece(ui: ReactNode) {
  resetQueryClient();
  const user = userEvent.setup();
  render(
    <QueryProvider>
      {ui}
      <Toaster />
    </QueryProvider>,
  );
  return user;
}

/** The calls made to the API, as "METHOD /path?query", with their bodies. */
function callsOf(fetchMock: ReturnType<typeof stubApi>) {
  return fetchMock.mock.calls.map(([input, init]) => {
    const url = new URL(String(input), "http://localhost");
    return {
      key: `${init?.method ?? "GET"} ${url.pathname}${url.search}`,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
  });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: NOW });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("prise de rendez-vous (patient)", () => {
  it("choisit un créneau proposé par le dentiste et l'envoie en heure de Paris", async () => {
    let items: Appointment[] = [];
    const fetchMock = stubApi(patient, {
      "GET /api/appointments": () => json(200, list(items)),
      [`POST /api/patient/offers/${OFFER_ID}/appointment`]: () => {
        items = [appointment()];
        return json(201, {
          appointment: appointment(),
          message: "Votre demande de rendez-vous a été envoyée",
        });
      },
    });
    const user = renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer()} />);

    const panel = await screen.findByRole("region", { name: "Prendre rendez-vous" });
    expect(callsOf(fetchMock).map((c) => c.key)).toContain(`GET /api/appointments?request=${REQUEST_ID}`);
    const group = within(panel).getByRole("group", { name: "Créneaux proposés par le dentiste" });
    expect(
      within(group)
        .getAllByRole("radio")
        .map((r) => r.closest("label")?.textContent),
    ).toEqual([
      "lundi 7 décembre 2026 à 14:30",
      "mercredi 9 décembre 2026 à 09:15",
      "Proposer d'autres dates",
    ]);
    expect(within(panel).getByText(/Le dentiste confirmera votre rendez-vous/)).toBeInTheDocument();

    await user.click(within(panel).getByRole("button", { name: "Envoyer ma demande de rendez-vous" }));
    expect(
      await within(panel).findByText("Choisissez l'un des créneaux proposés, ou proposez d'autres dates."),
    ).toBeInTheDocument();

    await user.click(within(group).getByRole("radio", { name: "lundi 7 décembre 2026 à 14:30" }));
    await user.click(within(panel).getByRole("button", { name: "Envoyer ma demande de rendez-vous" }));

    expect(
      await screen.findByText("Votre demande de rendez-vous a été envoyée au dentiste"),
    ).toBeInTheDocument();
    const posts = callsOf(fetchMock).filter((c) => c.key.startsWith("POST"));
    expect(posts).toEqual([
      { key: `POST /api/patient/offers/${OFFER_ID}/appointment`, body: { slots: ["2026-12-07T14:30"] } },
    ]);
    // The appointment replaces the booking panel.
    const card = await screen.findByRole("article", { name: "Votre rendez-vous" });
    expect(within(card).getByText("En attente de confirmation du dentiste")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Prendre rendez-vous" })).not.toBeInTheDocument();
  });

  it("propose d'autres dates, et montre l'erreur du serveur sur le créneau refusé", async () => {
    const bodies: unknown[] = [];
    stubApi(patient, {
      "GET /api/appointments": () => json(200, list([])),
      [`POST /api/patient/offers/${OFFER_ID}/appointment`]: (body) => {
        bodies.push(body);
        return json(400, {
          error: {
            code: "VALIDATION_ERROR",
            message: "Certains champs sont invalides.",
            fields: { "slots.1": "Ce créneau doit être dans l'année qui vient." },
          },
        });
      },
    });
    const user = renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer()} />);
    const panel = await screen.findByRole("region", { name: "Prendre rendez-vous" });
    expect(within(panel).queryByRole("group", { name: "Vos disponibilités" })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole("radio", { name: "Proposer d'autres dates" }));

    const picker = within(panel).getByRole("group", { name: "Vos disponibilités" });
    await user.click(within(picker).getByRole("button", { name: "jeudi 3 décembre 2026" }));
    await user.selectOptions(within(picker).getByLabelText("Heure"), "09:00");
    await user.click(within(picker).getByRole("button", { name: "Ajouter ce créneau" }));
    await user.click(within(picker).getByRole("button", { name: "vendredi 4 décembre 2026" }));
    await user.selectOptions(within(picker).getByLabelText("Heure"), "17:45");
    await user.click(within(picker).getByRole("button", { name: "Ajouter ce créneau" }));
    await user.click(within(panel).getByRole("button", { name: "Envoyer ma demande de rendez-vous" }));

    await waitFor(() => expect(bodies).toEqual([{ slots: ["2026-12-03T09:00", "2026-12-04T17:45"] }]));
    await waitFor(() =>
      expect(picker).toHaveAccessibleDescription(
        /vendredi 4 décembre 2026 à 17:45 : Ce créneau doit être dans l'année qui vient\./,
      ),
    );
    expect(await screen.findByText("Impossible d'enregistrer le rendez-vous")).toBeInTheDocument();
    expect(screen.getByText("Certains champs sont invalides.")).toBeInTheDocument();
  });

  it("dit que le rendez-vous précédent a été annulé, et propose ses dates sans créneau du dentiste à venir", async () => {
    const fetchMock = stubApi(patient, {
      "GET /api/appointments": () =>
        json(
          200,
          list([
            appointment({ id: "a-2", status: "cancelled", view: "cancelled", cancelled_by: "dentist" }),
            appointment({ id: "a-1", status: "cancelled", view: "cancelled", cancelled_by: "patient" }),
          ]),
        ),
      [`POST /api/patient/offers/${OFFER_ID}/appointment`]: () =>
        json(201, { appointment: appointment(), message: "ok" }),
    });
    const user = renderPiece(
      <RequestAppointment requestId={REQUEST_ID} offer={offer({ slots: ["2026-11-30T09:00:00.000Z"] })} />,
    );
    const panel = await screen.findByRole("region", { name: "Prendre rendez-vous" });
    expect(within(panel).getByText("Votre rendez-vous précédent a été annulé.")).toBeInTheDocument();
    expect(within(panel).queryByRole("radio")).not.toBeInTheDocument();

    await user.click(within(panel).getByRole("button", { name: "Envoyer ma demande de rendez-vous" }));
    expect(await within(panel).findByText("Choisissez au moins un créneau.")).toBeInTheDocument();

    const picker = within(panel).getByRole("group", { name: "Proposez vos disponibilités" });
    await user.click(within(picker).getByRole("button", { name: /mardi 1 décembre 2026/ }));
    // 10:00 in Paris now: earlier times of today cannot be chosen.
    expect(within(picker).getByRole("option", { name: "10:00" })).toBeDisabled();
    await user.selectOptions(within(picker).getByLabelText("Heure"), "16:30");
    await user.click(within(picker).getByRole("button", { name: "Ajouter ce créneau" }));
    await user.click(within(panel).getByRole("button", { name: "Envoyer ma demande de rendez-vous" }));
    await waitFor(() =>
      expect(callsOf(fetchMock).filter((c) => c.key.startsWith("POST"))).toEqual([
        { key: `POST /api/patient/offers/${OFFER_ID}/appointment`, body: { slots: ["2026-12-01T16:30"] } },
      ]),
    );
  });

  it("montre le rendez-vous confirmé avec le cabinet et l'heure de Paris, sans proposer d'en reprendre un", async () => {
    stubApi(patient, {
      "GET /api/appointments": () =>
        json(200, list([confirmed(), appointment({ id: "old", status: "cancelled", view: "cancelled" })])),
    });
    renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer()} />);
    const card = await screen.findByRole("article", { name: "Votre rendez-vous" });
    expect(within(card).getByText("Confirmé")).toBeInTheDocument();
    expect(within(card).getByText("lundi 7 décembre 2026 à 14:30")).toBeInTheDocument();
    expect(within(card).getByText("Dr Sophie Leroy")).toBeInTheDocument();
    expect(within(card).getByText("12 rue de la République, 69002 Lyon")).toBeInTheDocument();
    expect(within(card).getByText(/Couronne/)).toHaveTextContent(/780,00\s€/);
    expect(screen.queryByText("Prendre rendez-vous")).not.toBeInTheDocument();
  });

  it("ne montre rien sous une proposition qui n'est pas acceptée", async () => {
    const fetchMock = stubApi(patient);
    renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer({ state: "closed" })} />);
    await settled();
    expect(screen.queryByText("Prendre rendez-vous")).not.toBeInTheDocument();
    expect(callsOf(fetchMock).some((c) => c.key.startsWith("GET /api/appointments"))).toBe(false);
  });
});

describe("AppointmentCard", () => {
  it("laisse choisir puis confirmer un des créneaux proposés (en attente de moi)", async () => {
    const options = ["2026-12-07T13:30:00.000Z", "2026-12-08T16:00:00.000Z"];
    const bodies: unknown[] = [];
    stubApi(patient, {
      "POST /api/appointments/a-1/confirm": (body) => {
        bodies.push(body);
        return json(200, { appointment: confirmed({ starts_at: options[1] ?? null }), message: "ok" });
      },
    });
    const user = renderPiece(
      <AppointmentCard
        appointment={appointment({
          awaiting: "patient",
          view: "awaiting_me",
          options,
          may_confirm: true,
        })}
      />,
    );
    const card = screen.getByRole("article", { name: "Dr Sophie Leroy" });
    expect(within(card).getByText("Nouveau créneau proposé par le dentiste")).toBeInTheDocument();
    const group = within(card).getByRole("group", { name: "Créneaux proposés par le dentiste" });
    await user.click(within(card).getByRole("button", { name: "Confirmer ce créneau" }));
    expect(within(card).getByText("Choisissez l'un des créneaux proposés.")).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.click(within(group).getByRole("radio", { name: "mardi 8 décembre 2026 à 17:00" }));
    await user.click(within(card).getByRole("button", { name: "Confirmer ce créneau" }));
    await waitFor(() => expect(bodies).toEqual([{ starts_at: "2026-12-08T16:00:00.000Z" }]));
    expect(await screen.findByText("Rendez-vous confirmé")).toBeInTheDocument();
  });

  it("annule après confirmation dans une boîte de dialogue", async () => {
    const calls: string[] = [];
    stubApi(dentist, {
      "POST /api/appointments/a-1/cancel": () => {
        calls.push("cancel");
        return json(200, {
          appointment: confirmed({ status: "cancelled", view: "cancelled", my_side: "dentist" }),
          message: "ok",
        });
      },
    });
    const user = renderPiece(
      <AppointmentCard appointment={confirmed({ my_side: "dentist", may_change: true })} />,
    );
    const card = screen.getByRole("article", { name: "Marie Curie" });

    await user.click(within(card).getByRole("button", { name: "Annuler le rendez-vous" }));
    let dialog = await screen.findByRole("dialog", { name: "Annuler ce rendez-vous\u202f?" });
    expect(dialog).toHaveTextContent("Le patient en sera informé.");
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.click(within(dialog).getByRole("button", { name: "Garder le rendez-vous" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(calls).toEqual([]);

    await user.click(within(card).getByRole("button", { name: "Annuler le rendez-vous" }));
    dialog = await screen.findByRole("dialog", { name: "Annuler ce rendez-vous\u202f?" });
    await user.click(within(dialog).getByRole("button", { name: "Annuler le rendez-vous" }));
    await waitFor(() => expect(calls).toEqual(["cancel"]));
    expect(await screen.findByText("Rendez-vous annulé")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("propose l'agenda (.ics) seulement pour un rendez-vous confirmé à venir", async () => {
    const fetchMock = stubApi(patient, {
      "GET /api/appointments/a-1/calendar.ics": () => json(200, "BEGIN:VCALENDAR"),
    });
    const created = vi.fn((_blob: Blob) => "blob:agenda");
    Object.defineProperty(URL, "createObjectURL", { configurable: true, value: created });
    Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`);
    });

    const user = renderPiece(
      <>
        <AppointmentCard appointment={confirmed()} title="Confirmé à venir" />
        <AppointmentCard appointment={appointment()} title="En attente" />
        <AppointmentCard
          appointment={confirmed({ id: "a-past", view: "past", may_change: false })}
          title="Passé"
        />
      </>,
    );
    expect(
      within(screen.getByRole("article", { name: "En attente" })).queryByRole("button", { name: /agenda/ }),
    ).toBeNull();
    const past = screen.getByRole("article", { name: "Passé" });
    expect(within(past).queryByRole("button", { name: /agenda/ })).toBeNull();
    expect(within(past).queryByRole("button", { name: "Annuler le rendez-vous" })).toBeNull();
    expect(within(past).getByText("Passé", { selector: "span" })).toBeInTheDocument();

    const card = screen.getByRole("article", { name: "Confirmé à venir" });
    await user.click(within(card).getByRole("button", { name: "Ajouter à mon agenda (.ics)" }));
    await waitFor(() => expect(saved).toEqual(["rendez-vous-sourio.ics blob:agenda"]));
    expect(callsOf(fetchMock).map((c) => c.key)).toContain("GET /api/appointments/a-1/calendar.ics");
  });

  it("nomme les états et les actions selon le côté", async () => {
    const bodies: unknown[] = [];
    stubApi(dentist, {
      "POST /api/appointments/a-9/propose": (body) => {
        bodies.push(body);
        return json(200, { appointment: appointment({ id: "a-9", my_side: "dentist" }), message: "ok" });
      },
    });
    const user = renderPiece(
      <>
        <AppointmentCard
          appointment={appointment({ id: "a-8", my_side: "dentist", view: "awaiting_me", may_confirm: true })}
        />
        <AppointmentCard
          appointment={confirmed({
            id: "a-9",
            my_side: "dentist",
            patient: { id: "p-2", full_name: "Louis Pasteur" },
          })}
        />
        <AppointmentCard appointment={appointment({ id: "a-7" })} />
      </>,
    );
    const toConfirm = screen.getByRole("article", { name: "Marie Curie" });
    expect(within(toConfirm).getByText("À confirmer")).toBeInTheDocument();
    expect(
      within(toConfirm).getByRole("group", { name: "Créneaux proposés par le patient" }),
    ).toBeInTheDocument();
    expect(within(toConfirm).getByRole("button", { name: "Proposer un autre créneau" })).toBeInTheDocument();
    // A dentist sees no practice address of their own.
    expect(within(toConfirm).queryByText(/69002/)).toBeNull();

    const waiting = screen.getByRole("article", { name: "Dr Sophie Leroy" });
    expect(within(waiting).getByText("En attente de confirmation du dentiste")).toBeInTheDocument();
    expect(within(waiting).getByText("lundi 7 décembre 2026 à 14:30")).toBeInTheDocument();
    expect(within(waiting).queryByRole("button", { name: "Confirmer ce créneau" })).toBeNull();

    const moving = screen.getByRole("article", { name: "Louis Pasteur" });
    expect(within(moving).getByText("Confirmé")).toBeInTheDocument();
    await user.click(within(moving).getByRole("button", { name: "Déplacer le rendez-vous" }));
    const panel = within(moving).getByRole("region", { name: "Déplacer le rendez-vous" });
    expect(panel).toHaveTextContent("le patient choisira");
    await user.click(within(panel).getByRole("button", { name: "Envoyer ma proposition" }));
    expect(within(panel).getByText("Choisissez au moins un créneau.")).toBeInTheDocument();
    await user.click(within(panel).getByRole("button", { name: "jeudi 10 décembre 2026" }));
    await user.selectOptions(within(panel).getByLabelText("Heure"), "11:00");
    await user.click(within(panel).getByRole("button", { name: "Ajouter ce créneau" }));
    await user.click(within(panel).getByRole("button", { name: "Envoyer ma proposition" }));
    await waitFor(() => expect(bodies).toEqual([{ slots: ["2026-12-10T11:00"] }]));
    expect(await screen.findByText("Votre proposition de créneau a été envoyée")).toBeInTheDocument();
  });
});

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
        json(200, { counts: { active: 0, completed: 1, latest_at: null }, recent: [] }),
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
  });

  it("le patient sans rendez-vous le lit simplement", async () => {
    stubApi(patient, {
      "GET /api/patient/dashboard": () =>
        json(200, { counts: { active: 0, completed: 0, latest_at: null }, recent: [] }),
      "GET /api/appointments": () => json(200, list([])),
    });
    renderApp("/patient/dashboard");
    const section = await screen.findByRole("region", { name: "Mes rendez-vous" });
    expect(await within(section).findByText(/Aucun rendez-vous à venir\./)).toBeInTheDocument();
  });
});
