/** /how-it-works#exemple: the example table scrolls sideways on a phone, so the keyboard reaches it. */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ExampleComparison } from "./ExampleComparison";

describe("ExampleComparison", () => {
  it("wraps the table in a focusable region named by its caption (axe's scrollable-region-focusable)", async () => {
    render(<ExampleComparison />);
    const region = screen.getByRole("region", {
      name: /^Exemple illustratif\s: trois propositions pour un devis de 2 400 €$/,
    });
    expect(region).toHaveClass("overflow-x-auto", "focus-visible:outline-2");
    expect(region).toContainElement(screen.getByRole("table"));
    await userEvent.setup().tab();
    expect(region).toHaveFocus();
  });
});
