import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, makeProfile, renderApp, stubApi } from "../test/renderApp";

describe("protected routes", () => {
  it("sends a signed-out visitor to the area's login page and remembers the page", async () => {
    stubApi(null);
    const { router } = renderApp("/patient/requests?tri=date");
    // The area's skeleton first (session loading), then the login page once the session is known.
    expect(await screen.findByRole("heading", { level: 1, name: "Connexion" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/patient/requests?tri=date");
  });

  it("remembers the section a link led to (an e-mail's « Notifications » of the profile)", async () => {
    stubApi(null);
    const { router } = renderApp("/dentist/profile#notifications");
    expect(await screen.findByRole("heading", { level: 1, name: /Connexion/ })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dentist/login");
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe(
      "/dentist/profile#notifications",
    );
  });

  // The dentist and admin areas use their own login page; a person without the role, or a
  // non-admin, goes to /, told why.
  it.each([
    ["a visitor", "/dentist/quote-requests", "/dentist/login", null, null],
    ["a visitor", "/admin/chat-messages", "/admin/login", null, null],
    [
      "a dentist",
      "/patient/dashboard",
      "/",
      makeProfile({ role: "dentist" }),
      "Cette page est réservée aux patients.",
    ],
    [
      "a dentist",
      "/admin/dashboard",
      "/",
      makeProfile({ role: "dentist" }),
      "Cette page est réservée à l'équipe.",
    ],
    ["a patient", "/dentist/quote-requests", "/", makeProfile(), "Cette page est réservée aux dentistes."],
  ])("sends %s on %s to %s", async (_who, path, target, profile, told) => {
    stubApi(profile);
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
    if (told) expect(await screen.findByText(told)).toBeInTheDocument();
    else expect(screen.queryByText(/Cette page est réservée/)).toBeNull();
  });

  it("lets a patient in and greets them by first name", async () => {
    stubApi(makeProfile(), {
      "GET /api/patient/dashboard": () =>
        json(200, { counts: { active: 0, completed: 0, latest_at: null, support_unread: 0 }, recent: [] }),
    });
    const { router } = renderApp("/patient");
    expect(await screen.findByRole("heading", { level: 1, name: "Bonjour Marie" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/patient/dashboard");
    expect(await screen.findByRole("link", { name: "Créer ma première demande" })).toHaveAttribute(
      "href",
      "/patient/upload",
    );
    expect(screen.getAllByRole("link", { name: "Déposer un devis" })[0]).toHaveAttribute(
      "href",
      "/patient/upload",
    );
    expect(screen.getAllByRole("link", { name: "Mes demandes" })[0]).toHaveAttribute(
      "href",
      "/patient/requests",
    );
    expect(screen.getAllByRole("link", { name: "Besoin d'aide\u202f?" })[0]).toHaveAttribute(
      "href",
      "/patient/help",
    );
    expect(screen.queryByRole("link", { name: "Documents" })).not.toBeInTheDocument();
  });

  it("redirects the login page of a signed-in admin to the admin dashboard", async () => {
    stubApi(makeProfile({ is_admin: true }));
    const { router } = renderApp("/admin/login");
    expect(await screen.findByRole("heading", { level: 1, name: "Administration" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin/dashboard");
  });

  it("renders 'Page non trouvée' for an unknown path", async () => {
    stubApi(null);
    renderApp("/nulle-part");
    expect(await screen.findByRole("heading", { level: 1, name: "Page non trouvée" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");
  });
});
