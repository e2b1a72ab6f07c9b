import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { journeyOf } from "../../../shared/domain/journey";
import { JourneyCard } from "./JourneyCard";
import { StepIndicator } from "./StepIndicator";

const id = "7f1e3c55-0000-4000-8000-000000000001";
const now = new Date("2026-11-25T12:00:00Z");

describe("StepIndicator", () => {
  it("is an ordered list of the six steps with the current one marked aria-current='step'", () => {
    render(<StepIndicator state="accepted" />);
    const nav = screen.getByRole("navigation", { name: "Étapes de votre demande" });
    const steps = within(nav).getAllByRole("listitem");
    expect(within(nav).getByRole("list").tagName).toBe("OL");
    expect(steps.map((s) => s.textContent)).toEqual([
      "Envoyée (terminée)",
      "Propositions (terminée)",
      "3Proposition acceptée (étape actuelle)",
      "4Rendez-vous à confirmer (à venir)",
      "5Rendez-vous confirmé (à venir)",
      "6Terminée (à venir)",
    ]);
    const current = steps.filter((s) => s.getAttribute("aria-current") === "step");
    expect(current).toHaveLength(1);
    expect(current[0]).toHaveTextContent("Proposition acceptée");
    expect(screen.getByText(/Étape 3 sur 6/)).toBeInTheDocument();
  });

  it("marks every step done once the appointment has taken place, and none current", () => {
    render(<StepIndicator state="done" />);
    const steps = screen.getAllByRole("listitem");
    expect(steps.every((s) => s.getAttribute("aria-current") === null)).toBe(true);
    expect(steps.every((s) => s.textContent?.endsWith("(terminée)"))).toBe(true);
  });

  it("says plainly that a cancelled request is cancelled, without steps", () => {
    render(<StepIndicator state="cancelled" />);
    expect(screen.getByText("Demande annulée")).toBeInTheDocument();
    expect(screen.queryByRole("list")).toBeNull();
  });
});

describe("JourneyCard", () => {
  /** The card of a request with this status and this many offers open, and no appointment. */
  const renderCard = (status: "new" | "in_review", openOffers: number) =>
    render(
      <MemoryRouter>
        <JourneyCard journey={journeyOf({ id, status, open_offers: openOffers, appointment: null }, now)} />
      </MemoryRouter>,
    );

  it("puts the next action right under the steps, as a link to where it is done", () => {
    renderCard("in_review", 2);
    expect(screen.getByRole("heading", { name: "2 propositions à comparer" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Comparer 2 propositions" })).toHaveAttribute(
      "href",
      `/patient/request/${id}/compare`,
    );
  });

  it("has no button when there is nothing to do but wait", () => {
    renderCard("new", 0);
    expect(screen.getByText(/Un e-mail vous préviendra de chaque réponse/)).toBeInTheDocument();
    expect(screen.queryByRole("link")).toBeNull();
  });
});
