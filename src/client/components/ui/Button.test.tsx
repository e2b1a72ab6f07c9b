import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Button } from "./Button";

/** A form whose button loads once it is submitted. */
function Form({ onSubmit }: { onSubmit: (event: React.FormEvent) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        onSubmit(event);
        setBusy(true);
      }}
    >
      <label>
        Message
        <input />
      </label>
      <Button type="submit" loading={busy}>
        Envoyer
      </Button>
    </form>
  );
}

describe("Button", () => {
  it("keeps the focus while it loads and refuses presses, by the keyboard as by the pointer", async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const { rerender } = render(<Button onClick={onClick}>Écarter</Button>);
    const button = screen.getByRole("button", { name: "Écarter" });
    await user.tab();
    expect(button).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(onClick).toHaveBeenCalledTimes(1);

    rerender(
      <Button onClick={onClick} loading>
        Écarter
      </Button>,
    );
    // Not `disabled`: Chromium moves the focus of a disabled button to the page's body.
    expect(button).not.toHaveAttribute("disabled");
    expect(button).toHaveAttribute("aria-disabled", "true");
    expect(button).toHaveAttribute("aria-busy", "true");
    expect(button).toHaveAccessibleName("Écarter");
    expect(button).toHaveFocus();
    await user.keyboard("{Enter}");
    await user.keyboard(" ");
    button.click();
    expect(onClick).toHaveBeenCalledTimes(1);

    rerender(<Button onClick={onClick}>Écarter</Button>);
    expect(button).not.toHaveAttribute("aria-disabled");
    await user.keyboard("{Enter}");
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it("does not submit its form again while it loads, nor by Enter in a field", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: React.FormEvent) => event.preventDefault());
    render(<Form onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText("Message"), "Bonjour{Enter}");
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Envoyer" })).toHaveAttribute("aria-disabled", "true");
    await user.type(screen.getByLabelText("Message"), "{Enter}");
    await user.click(screen.getByRole("button", { name: "Envoyer" }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("stays disabled, not only busy, when it is disabled and loading", () => {
    render(
      <Button disabled loading>
        Envoyer
      </Button>,
    );
    const button = screen.getByRole("button", { name: "Envoyer" });
    expect(button).toBeDisabled();
    expect(button).not.toHaveAttribute("aria-disabled");
  });
});
