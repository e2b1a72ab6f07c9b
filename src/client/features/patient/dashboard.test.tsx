import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";

const NO_APPOINTMENTS = { items: [], page: 1, page_size: 10, has_more: false };

describe("tableau de bord du patient", () => {
  it("sans la réponse du serveur, ne montre pas « 0 » ni « Aucune demande » comme des chiffres, puis les montre une fois rechargé", async () => {
    let fail = true;
    stubApi(makeProfile(), {
      "GET /api/patient/dashboard": () =>
        fail
          ? json(500, { error: { code: "INTERNAL", message: "Erreur interne." } })
          : json(200, {
              counts: { active: 2, completed: 1, latest_at: null, support_unread: 0 },
              recent: [],
            }),
      "GET /api/appointments": () => json(200, NO_APPOINTMENTS),
    });
    const user = userEvent.setup();
    renderApp("/patient/dashboard");
    expect(await screen.findByText("Impossible de charger vos demandes")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Mes chiffres" })).not.toBeInTheDocument();
    expect(screen.queryByText("Aucune demande")).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole("button", { name: "Réessayer" }));
    const figures = await screen.findByRole("region", { name: "Mes chiffres" });
    expect(within(figures).getByText("Demandes actives").closest("div")).toHaveTextContent("2");
    expect(screen.getByRole("link", { name: "Écrire à l'équipe" })).toHaveAttribute("href", "/patient/help");
  });

  it("dit quand l'équipe a répondu et que la réponse n'est pas lue", async () => {
    stubApi(makeProfile(), {
      "GET /api/patient/dashboard": () =>
        json(200, { counts: { active: 0, completed: 0, latest_at: null, support_unread: 2 }, recent: [] }),
      "GET /api/appointments": () => json(200, NO_APPOINTMENTS),
    });
    renderApp("/patient/dashboard");
    expect(await screen.findByRole("heading", { name: "L'équipe vous a répondu" })).toBeInTheDocument();
    expect(screen.getByText("2 nouveaux messages de notre équipe à lire.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Lire la réponse" })).toHaveAttribute("href", "/patient/help");
  });
});
