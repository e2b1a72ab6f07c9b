/** The centred dialogs: never taller than the screen, scrolled inside; focus trap and close button kept. */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ReactNode, useState } from "react";
import { describe, expect, it } from "vitest";
import { useFocusRescue } from "../../lib/focusRescue";
import { Button } from "./Button";
import { ActionDialog, ConfirmDialog, DialogActions } from "./Dialog";

/** A dialog as long as the admin's « Suspendre » one: a description, two fields, the actions. */
function LongDialog() {
  const [open, setOpen] = useState(true);
  return (
    <ActionDialog
      open={open}
      onOpenChange={setOpen}
      title="Suspendre le compte Marie Curie ?"
      description="Elle ne pourra plus se connecter."
    >
      <form className="grid gap-4">
        <label>
          Raison
          <textarea rows={12} />
        </label>
        <label>
          Rétablir le
          <input type="date" />
        </label>
        <DialogActions>
          <Button type="submit" variant="destructive">
            Suspendre le compte
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}

describe("DialogContent", () => {
  it("is at most the screen's height less 1 rem above and below, and scrolls inside (a small phone)", () => {
    render(<LongDialog />);
    const dialog = screen.getByRole("dialog", { name: "Suspendre le compte Marie Curie ?" });
    // jsdom lays nothing out: the classes are what the browser sizes it by.
    expect(dialog).toHaveClass("max-h-[calc(100dvh-2rem)]", "overflow-y-auto");
    // Still centred, with its own width.
    expect(dialog).toHaveClass("fixed", "top-1/2", "-translate-y-1/2", "max-w-lg");
  });

  it("keeps the focus inside and its close button in it", async () => {
    const user = userEvent.setup();
    render(<LongDialog />);
    const dialog = screen.getByRole("dialog");
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    // Tab goes round the dialog's controls, never out of it.
    for (let step = 0; step < 6; step += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.click(within(dialog).getByRole("button", { name: "Fermer" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("a confirmation gets the same height cap", () => {
    render(
      <ConfirmDialog
        open
        onOpenChange={() => {}}
        title="Supprimer ?"
        description="C'est définitif."
        confirmLabel="Supprimer"
        onConfirm={() => {}}
      />,
    );
    expect(screen.getByRole("dialog", { name: "Supprimer ?" })).toHaveClass(
      "max-h-[calc(100dvh-2rem)]",
      "overflow-y-auto",
    );
  });
});

/** A dialog opened from a state by a card's button: no Radix trigger (as « Répondre », « Refuser »). */
function OpenedFromState({ onCloseAutoFocus }: { onCloseAutoFocus?: (event: Event) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Répondre</Button>
      <Button>Signaler</Button>
      <ActionDialog
        open={open}
        onOpenChange={setOpen}
        title="Répondre à cet avis"
        description="Une seule réponse est possible."
        {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
      >
        <DialogActions>
          <Button>Publier ma réponse</Button>
        </DialogActions>
      </ActionDialog>
    </>
  );
}

/** A confirmation opened from a state by its button (no Radix trigger). */
function Confirmed() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Supprimer</Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Supprimer ?"
        description="C'est définitif."
        confirmLabel="Supprimer définitivement"
        onConfirm={() => setOpen(false)}
      />
    </>
  );
}

/** The app's root keeps the focus on the page when an action removes the focused element. */
function WithFocusRescue({ children }: { children: ReactNode }) {
  useFocusRescue();
  return children;
}

/** A row whose confirmed action removes it, and its button with it (a dentist verified, an account deleted). */
function RemovedByItsAction() {
  const [open, setOpen] = useState(false);
  const [gone, setGone] = useState(false);
  return (
    <main id="main" tabIndex={-1}>
      {gone ? <p>Aucune demande en attente.</p> : <Button onClick={() => setOpen(true)}>Vérifier</Button>}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Vérifier ce dentiste ?"
        description="Il verra les demandes des patients."
        confirmLabel="Confirmer"
        onConfirm={() => {
          setGone(true);
          setOpen(false);
        }}
      />
    </main>
  );
}

describe("ActionDialog without a trigger", () => {
  it("gives the focus to the page's main content when its action removed the button that opened it", async () => {
    const user = userEvent.setup();
    render(<RemovedByItsAction />, { wrapper: WithFocusRescue });
    await user.click(screen.getByRole("button", { name: "Vérifier" }));
    await user.click(await screen.findByRole("button", { name: "Confirmer" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByRole("main")).toHaveFocus();
  });

  it("gives the focus back to the button that opened it, on Escape and on Annuler", async () => {
    const user = userEvent.setup();
    render(<OpenedFromState />);
    const opener = screen.getByRole("button", { name: "Répondre" });

    await user.click(opener);
    const dialog = await screen.findByRole("dialog", { name: "Répondre à cet avis" });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(opener).toHaveFocus();

    await user.keyboard("{Enter}");
    await user.click(await screen.findByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });

  it("leaves the focus where the page's own onCloseAutoFocus put it", async () => {
    const user = userEvent.setup();
    render(
      <OpenedFromState
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          screen.getByRole("button", { name: "Signaler" }).focus();
        }}
      />,
    );
    await user.click(screen.getByRole("button", { name: "Répondre" }));
    await screen.findByRole("dialog");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Signaler" })).toHaveFocus();
  });

  it("a confirmation opened from a state gives the focus back too", async () => {
    const user = userEvent.setup();
    render(<Confirmed />);
    const opener = screen.getByRole("button", { name: "Supprimer" });
    await user.click(opener);
    await user.click(await screen.findByRole("button", { name: "Supprimer définitivement" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });
});
