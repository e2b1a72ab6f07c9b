/** 'Notifications' of the profile pages (ADR 081): the e-mails one may stop, saved as soon as ticked. */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { EmailPreferences } from "../../../shared/schemas/profile";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

const patient = makeProfile();
const dentist = makeProfile({ role: "dentist", email: "dr@example.fr", full_name: "Paul Martin" });

const section = () => screen.findByRole("region", { name: "Notifications" });
const box = (within_: HTMLElement, name: string) => within(within_).getByRole("checkbox", { name });

describe("Notifications", () => {
  it("le patient arrête les rappels : enregistré aussitôt, les autres restent", async () => {
    const sent: unknown[] = [];
    let current: EmailPreferences = { messages: true, reminders: true, reviews: true, new_requests: true };
    stubApi(patient, {
      "PATCH /api/me/email-preferences": (body) => {
        sent.push(body);
        current = { ...current, ...(body as Partial<EmailPreferences>) };
        return json(200, { profile: { ...patient, email_preferences: current } });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const emails = await section();
    expect(emails).toHaveAttribute("id", "notifications");
    for (const name of [
      "Nouveaux messages des dentistes",
      "Rappels de rendez-vous et de propositions",
      "Invitations à donner un avis",
    ])
      expect(box(emails, name)).toBeChecked();
    expect(box(emails, "Rappels de rendez-vous et de propositions")).toHaveAccessibleDescription(
      "Une semaine avant et la veille de chaque rendez-vous confirmé, et trois jours avant la fin de validité d'une proposition.",
    );

    await user.click(box(emails, "Rappels de rendez-vous et de propositions"));
    expect(await screen.findByText("Préférences d'e-mail enregistrées")).toBeInTheDocument();
    expect(sent).toEqual([{ reminders: false }]);
    await waitFor(() => expect(box(emails, "Rappels de rendez-vous et de propositions")).not.toBeChecked());
    expect(box(emails, "Nouveaux messages des dentistes")).toBeChecked();
  });

  it("le dentiste a les messages, les avis et les nouvelles demandes du matin (pas de rappels)", async () => {
    const sent: unknown[] = [];
    stubApi(
      {
        ...dentist,
        email_preferences: { messages: false, reminders: true, reviews: true, new_requests: true },
      },
      {
        "PATCH /api/me/email-preferences": (body) => {
          sent.push(body);
          return json(200, {
            profile: {
              ...dentist,
              email_preferences: { messages: false, reminders: true, reviews: true, new_requests: false },
            },
          });
        },
      },
    );
    const user = userEvent.setup();
    renderApp("/dentist/profile");
    const emails = await section();
    expect(within(emails).getAllByRole("checkbox")).toHaveLength(3);
    expect(box(emails, "Nouveaux messages des patients")).not.toBeChecked();
    expect(box(emails, "Nouveaux avis publiés sur vous")).toBeChecked();
    const morning = box(emails, "Nouvelles demandes de patients");
    expect(morning).toBeChecked();
    expect(morning).toHaveAccessibleDescription(
      "Chaque matin vers 8 h, s'il y en a : le nombre de demandes envoyées à tous les dentistes que vous n'avez pas encore ouvertes.",
    );
    await user.click(morning);
    expect(sent).toEqual([{ new_requests: false }]);
    await waitFor(() => expect(box(emails, "Nouvelles demandes de patients")).not.toBeChecked());
  });

  it("dit en français que rien n'est enregistré quand le serveur refuse, la case reste comme avant", async () => {
    stubApi(patient, {
      "PATCH /api/me/email-preferences": () =>
        json(400, {
          error: {
            code: "VALIDATION_ERROR",
            message: "Choisissez oui ou non.",
            fields: { messages: "Choisissez oui ou non." },
          },
        }),
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const emails = await section();
    await user.click(box(emails, "Nouveaux messages des dentistes"));
    expect(await screen.findByText("Impossible d'enregistrer vos préférences d'e-mail")).toBeInTheDocument();
    await waitFor(() => expect(box(emails, "Nouveaux messages des dentistes")).toBeEnabled());
    expect(box(emails, "Nouveaux messages des dentistes")).toBeChecked();
  });
});
