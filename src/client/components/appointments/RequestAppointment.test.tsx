/** The patient books an appointment on an accepted offer (ADR 011). */
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { APPOINTMENT_MESSAGES, type Appointment } from "../../../shared/schemas/appointments";
import { getQueryClient } from "../../lib/queryClient";
import {
  appointment,
  callsOf,
  confirmed,
  freezeClockAtNow,
  list,
  OFFER_ID,
  offer,
  patient,
  REQUEST_ID,
  renderPiece,
} from "../../test/appointments";
import { json, settled, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";
import { RequestAppointment } from "./RequestAppointment";

freezeClockAtNow();

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

  it("montre un créneau du dentiste déjà pris par un autre rendez-vous, sans le laisser choisir (issue 32)", async () => {
    stubApi(patient, { "GET /api/appointments": () => json(200, list([])) });
    renderPiece(
      <RequestAppointment
        requestId={REQUEST_ID}
        offer={offer({ taken_slots: ["2026-12-07T13:30:00.000Z"] })}
      />,
    );
    const panel = await screen.findByRole("region", { name: "Prendre rendez-vous" });
    const group = within(panel).getByRole("group", { name: "Créneaux proposés par le dentiste" });
    const taken = within(group).getByRole("radio", {
      name: "lundi 7 décembre 2026 à 14:30 — déjà pris par un autre rendez-vous du dentiste",
    });
    expect(taken).toBeDisabled();
    expect(within(group).getByRole("radio", { name: "mercredi 9 décembre 2026 à 09:15" })).toBeEnabled();
  });

  it("dit qu'un créneau vient d'être pris, et relit la proposition pour le montrer pris (issue 32)", async () => {
    const taken =
      "Le lundi 7 décembre 2026 à 14:30 est déjà pris : le dentiste a un autre rendez-vous confirmé à cette heure. Choisissez un autre créneau.";
    stubApi(patient, {
      "GET /api/appointments": () => json(200, list([])),
      [`POST /api/patient/offers/${OFFER_ID}/appointment`]: () =>
        json(409, { error: { code: "CONFLICT", message: taken } }),
    });
    const user = renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer()} />);
    const panel = await screen.findByRole("region", { name: "Prendre rendez-vous" });
    const invalidate = vi.spyOn(getQueryClient(), "invalidateQueries");
    await user.click(within(panel).getByRole("radio", { name: "lundi 7 décembre 2026 à 14:30" }));
    await user.click(within(panel).getByRole("button", { name: "Envoyer ma demande de rendez-vous" }));
    expect(await screen.findByText(taken)).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["patient", "request", REQUEST_ID] });
  });

  it("propose ses dates d'emblée quand tous les créneaux du dentiste sont pris", async () => {
    stubApi(patient, { "GET /api/appointments": () => json(200, list([])) });
    renderPiece(
      <RequestAppointment
        requestId={REQUEST_ID}
        offer={offer({ taken_slots: ["2026-12-07T13:30:00.000Z", "2026-12-09T08:15:00.000Z"] })}
      />,
    );
    const panel = await screen.findByRole("region", { name: "Prendre rendez-vous" });
    expect(within(panel).getByRole("radio", { name: "Proposer d'autres dates" })).toBeChecked();
    expect(within(panel).getByRole("group", { name: "Vos disponibilités" })).toBeInTheDocument();
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

  it("dit que le rendez-vous confirmé est passé, sans formulaire pour en reprendre un (le serveur le refuserait)", async () => {
    const fetchMock = stubApi(patient, {
      "GET /api/appointments": () =>
        json(
          200,
          list([
            // Monday 30 November 2026, 14:30 in Paris: the day before NOW.
            confirmed({ view: "past", starts_at: "2026-11-30T13:30:00.000Z", may_change: false }),
            appointment({ id: "old", status: "cancelled", view: "cancelled", cancelled_by: "dentist" }),
          ]),
        ),
    });
    renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer()} />);
    expect(
      await screen.findByText("Votre rendez-vous du lundi 30 novembre 2026 à 14:30 est passé."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Prendre rendez-vous" })).not.toBeInTheDocument();
    expect(
      screen.queryByRole("button", { name: "Envoyer ma demande de rendez-vous" }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
    expect(callsOf(fetchMock).filter((c) => c.key.startsWith("POST"))).toEqual([]);
  });

  it("ne propose pas de rendez-vous sur une demande terminée", async () => {
    stubApi(patient, { "GET /api/appointments": () => json(200, list([])) });
    renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer()} finished />);
    expect(await screen.findByText("Cette demande est terminée.")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Prendre rendez-vous" })).not.toBeInTheDocument();
    expect(
      screen.queryByRole("button", { name: "Envoyer ma demande de rendez-vous" }),
    ).not.toBeInTheDocument();
  });

  it("dit pourquoi, sans formulaire, quand le dentiste ne peut plus être réservé", async () => {
    const fetchMock = stubApi(patient, { "GET /api/appointments": () => json(200, list([])) });
    const dentist = offer().dentist;
    renderPiece(
      <>
        <RequestAppointment
          requestId={REQUEST_ID}
          offer={offer({ dentist: { ...dentist, is_verified: false } })}
        />
        <RequestAppointment
          requestId={REQUEST_ID}
          offer={offer({
            dentist: { ...dentist, full_name: "Compte supprimé", is_verified: false, erased: true },
          })}
        />
      </>,
    );
    expect(await screen.findByText(spaced(APPOINTMENT_MESSAGES.dentistNotVerified))).toBeInTheDocument();
    expect(await screen.findByText(spaced(APPOINTMENT_MESSAGES.dentistErased))).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Prendre rendez-vous" })).not.toBeInTheDocument();
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
    expect(callsOf(fetchMock).filter((c) => c.key.startsWith("POST"))).toEqual([]);
  });

  it("ne montre rien sous une proposition qui n'est pas acceptée", async () => {
    const fetchMock = stubApi(patient);
    renderPiece(<RequestAppointment requestId={REQUEST_ID} offer={offer({ state: "closed" })} />);
    await settled();
    expect(screen.queryByText("Prendre rendez-vous")).not.toBeInTheDocument();
    expect(callsOf(fetchMock).some((c) => c.key.startsWith("GET /api/appointments"))).toBe(false);
  });
});
