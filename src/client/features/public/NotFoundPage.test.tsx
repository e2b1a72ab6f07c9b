/** The 404 page's « Retour »: back within the site, else to the person's home or to /. */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Link, MemoryRouter, Route, Routes } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import type { Profile } from "../../../shared/schemas/profile";
import { resetSessionStore, setSession } from "../../lib/session";
import { makeAdmin, makeProfile } from "../../test/renderApp";
import { NotFoundPage } from "./NotFoundPage";

function renderAt(entries: string[]) {
  render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <Routes>
        <Route
          path="/"
          element={
            <>
              <h1>Accueil du site</h1>
              <Link to="/nulle-part">Un lien cassé</Link>
            </>
          }
        />
        <Route path="/faq" element={<h1>FAQ</h1>} />
        <Route path="/patient/dashboard" element={<h1>Accueil patient</h1>} />
        <Route path="/dentist/dashboard" element={<h1>Accueil dentiste</h1>} />
        <Route path="/admin/dashboard" element={<h1>Administration</h1>} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const back = () => screen.getByRole("button", { name: "Retour" });

describe("NotFoundPage « Retour »", () => {
  beforeEach(() => {
    resetSessionStore();
  });

  it("goes back to the previous page of the site when there is one", async () => {
    const user = userEvent.setup();
    setSession(null);
    renderAt(["/"]);
    await user.click(screen.getByRole("link", { name: "Un lien cassé" }));
    expect(screen.getByRole("heading", { level: 1, name: "Page non trouvée" })).toBeInTheDocument();
    await user.click(back());
    expect(await screen.findByRole("heading", { level: 1, name: "Accueil du site" })).toBeInTheDocument();
  });

  it("opened first in its tab, a visitor goes to the home page /", async () => {
    const user = userEvent.setup();
    setSession(null);
    renderAt(["/nulle-part"]);
    await user.click(back());
    expect(await screen.findByRole("heading", { level: 1, name: "Accueil du site" })).toBeInTheDocument();
  });

  it.each([
    ["a patient", makeProfile(), "Accueil patient"],
    ["a dentist", makeProfile({ role: "dentist" }), "Accueil dentiste"],
    ["an administrator", makeAdmin(), "Administration"],
  ] as [string, Profile, string][])(
    "opened first in its tab, %s goes to their area's home page",
    async (_who, profile, home) => {
      const user = userEvent.setup();
      setSession(profile);
      renderAt(["/patient/nulle-part"]);
      await user.click(back());
      expect(await screen.findByRole("heading", { level: 1, name: home })).toBeInTheDocument();
    },
  );
});
