/** An appointment as each side sees it, and what each may do with it (ADR 011). */
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { APPOINTMENT_MESSAGES } from "../../../shared/schemas/appointments";
import {
  appointment,
  callsOf,
  confirmed,
  dentist,
  freezeClockAtNow,
  patient,
  renderPiece,
} from "../../test/appointments";
import { json, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";
import { AppointmentCard } from "./AppointmentCard";

freezeClockAtNow();

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

  it("ne laisse pas confirmer un créneau que le dentiste a déjà pris ailleurs (issue 32)", async () => {
    const options = ["2026-12-07T13:30:00.000Z", "2026-12-08T16:00:00.000Z"];
    stubApi(dentist, {});
    renderPiece(
      <AppointmentCard
        appointment={appointment({
          my_side: "dentist",
          view: "awaiting_me",
          options,
          taken_options: [options[0] as string],
          may_confirm: true,
        })}
      />,
    );
    const group = screen.getByRole("group", { name: "Créneaux demandés par le patient" });
    expect(
      within(group).getByRole("radio", {
        name: "lundi 7 décembre 2026 à 14:30 — déjà pris par un autre rendez-vous du dentiste",
      }),
    ).toBeDisabled();
    // The one time left is chosen already.
    expect(within(group).getByRole("radio", { name: "mardi 8 décembre 2026 à 17:00" })).toBeChecked();
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
      within(toConfirm).getByRole("group", { name: "Créneau demandé par le patient" }),
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

  it("ne propose pas de nouveaux créneaux à qui ne peut plus y répondre, et dit pourquoi (ADR 092)", async () => {
    stubApi(dentist, {});
    renderPiece(
      <>
        <AppointmentCard
          appointment={appointment({
            id: "a-10",
            my_side: "dentist",
            view: "awaiting_me",
            may_confirm: true,
            other_standing: "suspended",
          })}
        />
        <AppointmentCard
          appointment={confirmed({
            id: "a-11",
            patient: { id: "p-2", full_name: "Louis Pasteur" },
            dentist: { ...appointment().dentist, full_name: "Jean Moulin" },
            other_standing: "unverified",
          })}
        />
        <AppointmentCard
          appointment={appointment({
            id: "a-12",
            awaiting: "patient",
            view: "awaiting_me",
            dentist: { ...appointment().dentist, full_name: "Anne Roux" },
            other_standing: "unverified",
          })}
        />
      </>,
    );
    const suspended = screen.getByRole("article", { name: "Marie Curie" });
    expect(within(suspended).getByText(spaced(APPOINTMENT_MESSAGES.patientSuspended))).toBeInTheDocument();
    expect(within(suspended).queryByRole("button", { name: "Proposer un autre créneau" })).toBeNull();
    // Her own choice may still be confirmed, and the appointment cancelled.
    expect(within(suspended).getByRole("button", { name: "Confirmer ce créneau" })).toBeInTheDocument();
    expect(within(suspended).getByRole("button", { name: "Annuler le rendez-vous" })).toBeInTheDocument();

    const unverified = screen.getByRole("article", { name: "Dr Jean Moulin" });
    expect(
      within(unverified).getByText(spaced(APPOINTMENT_MESSAGES.dentistUnavailableConfirmed)),
    ).toBeInTheDocument();
    expect(within(unverified).queryByRole("button", { name: "Déplacer le rendez-vous" })).toBeNull();
    expect(within(unverified).getByRole("button", { name: "Annuler le rendez-vous" })).toBeInTheDocument();
    const pending = screen.getByRole("article", { name: "Dr Anne Roux" });
    expect(within(pending).getByText(spaced(APPOINTMENT_MESSAGES.dentistUnavailable))).toBeInTheDocument();
    expect(within(pending).queryByRole("button", { name: "Proposer un autre créneau" })).toBeNull();
    expect(within(pending).getByRole("button", { name: "Annuler le rendez-vous" })).toBeInTheDocument();
  });
});
