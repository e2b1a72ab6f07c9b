import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

/* /patient/dentists/:id/reviews: a dentist's published reviews, as a patient reads them (issue 36). */

const patient = makeProfile();

describe("avis sur un dentiste (patient)", () => {
  it("dit « Dentiste introuvable » quand le serveur répond 404, sans proposer de réessayer", async () => {
    stubApi(patient, {
      "GET /api/dentists/abc/reviews": () =>
        json(404, { error: { code: "NOT_FOUND", message: "Avis introuvable." } }),
    });
    renderApp("/patient/dentists/abc/reviews");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Dentiste introuvable" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Retour au tableau de bord" })).toHaveAttribute(
      "href",
      "/patient/dashboard",
    );
    expect(screen.queryByText("Impossible de charger les avis de ce dentiste")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Réessayer" })).not.toBeInTheDocument();
    expect(document.title).toMatch(/^Dentiste introuvable/);
  });

  it("propose de réessayer quand les avis ne se chargent pas pour une autre raison", async () => {
    let fail = true;
    stubApi(patient, {
      "GET /api/dentists/d-a/reviews": () =>
        fail
          ? json(500, { error: { code: "INTERNAL", message: "Erreur interne." } })
          : json(200, {
              dentist: { id: "d-a", full_name: "Sophie Leroy" },
              summary: { average: null, count: 0 },
              items: [],
              page: 1,
              page_size: 10,
              has_more: false,
            }),
    });
    const user = userEvent.setup();
    renderApp("/patient/dentists/d-a/reviews");
    expect(await screen.findByText("Impossible de charger les avis de ce dentiste")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    expect(
      await screen.findByRole("heading", { level: 1, name: "Avis sur le Dr Sophie Leroy" }),
    ).toBeInTheDocument();
  });
});
