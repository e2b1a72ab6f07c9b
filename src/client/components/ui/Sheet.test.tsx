/** The side drawer menus (the areas' and the public site's phone menus). */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Button } from "./Button";
import { MenuSheet } from "./Sheet";

function Menu() {
  const [open, setOpen] = useState(false);
  return (
    <MenuSheet open={open} onOpenChange={setOpen} side="left" title="Espace patient" description="Navigation">
      <nav aria-label="Navigation mobile" className="grid gap-1">
        <a href="/patient/dashboard">Accueil</a>
        <a href="/patient/requests">Mes demandes</a>
      </nav>
      <Button variant="outline" className="mt-auto">
        Déconnexion
      </Button>
    </MenuSheet>
  );
}

describe("MenuSheet", () => {
  it("opens on its first entry, not on its first button (Radix's own choice skips links)", async () => {
    const user = userEvent.setup();
    render(<Menu />);
    screen.getByRole("button", { name: "Ouvrir le menu" }).focus();
    await user.keyboard("{Enter}");
    const drawer = await screen.findByRole("dialog", { name: "Espace patient" });
    await waitFor(() => expect(within(drawer).getByRole("link", { name: "Accueil" })).toHaveFocus());
    expect(within(drawer).getByRole("button", { name: "Déconnexion" })).not.toHaveFocus();
    // The focus stays trapped; Escape closes and gives it back to the button.
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.getByRole("button", { name: "Ouvrir le menu" })).toHaveFocus());
  });

  it("is the screen's height and scrolls when its entries are taller", async () => {
    const user = userEvent.setup();
    render(<Menu />);
    await user.click(screen.getByRole("button", { name: "Ouvrir le menu" }));
    expect(await screen.findByRole("dialog")).toHaveClass("fixed", "inset-y-0", "overflow-y-auto");
  });
});
