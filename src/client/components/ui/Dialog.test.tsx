/** The centred dialogs: never taller than the screen, scrolled inside; focus trap and close button kept. */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
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
