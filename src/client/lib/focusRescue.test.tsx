/** The focus is never left on the body when an action removes the focused element. */
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useEffect, useRef, useState } from "react";
import { describe, expect, it } from "vitest";
import { useFocusRescue } from "./focusRescue";

/** A page with a button its action removes; `focusHeading`: the page focuses its new heading itself. */
function Page({ focusHeading = false }: { focusHeading?: boolean }) {
  useFocusRescue();
  const [sent, setSent] = useState(false);
  return (
    <main id="main" tabIndex={-1}>
      <button type="button">Avant</button>
      {sent ? (
        <Result focus={focusHeading} />
      ) : (
        <button type="button" onClick={() => setSent(true)}>
          Envoyer
        </button>
      )}
    </main>
  );
}

function Result({ focus }: { focus: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <h2 ref={heading} tabIndex={-1}>
      Demande envoyée
    </h2>
  );
}

describe("useFocusRescue", () => {
  it("puts the focus on the main content when the focused button is removed", async () => {
    const user = userEvent.setup();
    render(<Page />);
    screen.getByRole("button", { name: "Envoyer" }).focus();
    await user.keyboard("{Enter}");
    expect(screen.getByRole("heading", { name: "Demande envoyée" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("main")).toHaveFocus());
  });

  it("leaves it where the page put it", async () => {
    const user = userEvent.setup();
    render(<Page focusHeading />);
    screen.getByRole("button", { name: "Envoyer" }).focus();
    await user.keyboard("{Enter}");
    const heading = screen.getByRole("heading", { name: "Demande envoyée" });
    await waitFor(() => expect(heading).toHaveFocus());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heading).toHaveFocus();
  });

  it("does nothing when what is removed was not focused", async () => {
    render(<Page />);
    screen.getByRole("button", { name: "Avant" }).focus();
    // Removed without taking the focus (as by a live update).
    fireEvent.click(screen.getByRole("button", { name: "Envoyer" }));
    expect(screen.getByRole("heading", { name: "Demande envoyée" })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole("button", { name: "Avant" })).toHaveFocus();
  });
});
