import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
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

  it("says where the replies will appear while there is none", () => {
    render(<RepliesCard replies={[]} />);
    expect(screen.getByText(/Les réponses des dentistes apparaîtront ici/)).toBeInTheDocument();
  });
});
