/** The auth pages' grey background: down to the footer, whatever the card's height. */
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderApp, stubApi } from "../../test/renderApp";

describe("AuthCard's background", () => {
  it.each([
    ["/login", "Connexion"],
    ["/signup", "Créer un compte patient"],
    ["/forgot-password", "Mot de passe oublié"],
    ["/reset-password?token=abc", "Nouveau mot de passe"],
  ])("%s: as tall as the main (a screen at least), no white strip above the footer", async (path, title) => {
    stubApi(null);
    renderApp(path);
    const heading = await screen.findByRole("heading", { level: 1, name: title });
    const main = screen.getByRole("main");
    const background = main.firstElementChild;
    expect(background).toContainElement(heading);
    // jsdom lays nothing out: the classes are what the browser sizes them by. The main is at least a
    // screen tall (the layout's min-h-dvh) and grows with the card; the grey block fills it either way.
    expect(main).toHaveClass("min-h-dvh");
    expect(background).toHaveClass("bg-slate-50", "min-h-dvh");
  });
});
