import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ERASED_NAME } from "../../../../shared/schemas/account";
import { RepliesCard } from "./RepliesCard";

describe("RepliesCard", () => {
  it("names each dentist « Dr … » and links to the conversation « avec le Dr … »", () => {
    render(
      <MemoryRouter>
        <RepliesCard
          replies={[
            {
              conversation_id: "c1",
              dentist: { id: "d1", full_name: "Julien Martin", city: "Paris", avatar_url: null },
              message: "Bonjour, pouvez-vous m'envoyer une radio récente ?",
              created_at: "2026-12-03T09:30:00.000Z",
            },
          ]}
        />
      </MemoryRouter>,
    );
    const reply = within(screen.getByRole("list", { name: "Réponses reçues" })).getByRole("listitem");
    expect(reply).toHaveTextContent("Dr Julien Martin · Paris");
    expect(
      within(reply).getByRole("link", { name: "Continuer la conversation avec le Dr Julien Martin" }),
    ).toHaveAttribute("href", "/patient/messages?c=c1");
  });

  it("names a dentist whose account was erased « Dentiste (compte supprimé) », not « Dr Compte supprimé »", () => {
    render(
      <MemoryRouter>
        <RepliesCard
          replies={[
            {
              conversation_id: "c2",
              dentist: { id: "d2", full_name: ERASED_NAME, city: null, avatar_url: null },
              message: "Message supprimé",
              created_at: "2026-12-03T09:30:00.000Z",
            },
          ]}
        />
      </MemoryRouter>,
    );
    const reply = within(screen.getByRole("list", { name: "Réponses reçues" })).getByRole("listitem");
    expect(reply).toHaveTextContent("Dentiste (compte supprimé)");
    expect(reply).not.toHaveTextContent("Dr Compte supprimé");
    expect(
      within(reply).getByRole("link", {
        name: "Continuer la conversation avec le dentiste (compte supprimé)",
      }),
    ).toBeInTheDocument();
  });

  it("says where the replies will appear while there is none", () => {
    render(
      <MemoryRouter>
        <RepliesCard replies={[]} />
      </MemoryRouter>,
    );
    expect(screen.getByText(/Les réponses des dentistes apparaîtront ici/)).toBeInTheDocument();
  });
});
