import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { spaced } from "../../test/text";
import { CharacterCount, maxLengthOf } from "./CharacterCount";
import { TextareaField } from "./FormField";

const HINT = "Vos symptômes, vos questions.";

function Harness({ max, always }: { max: number; always?: boolean }) {
  const [value, setValue] = useState("");
  return (
    <TextareaField
      label="Description"
      description={HINT}
      counter={{ value, max, always }}
      value={value}
      onChange={(event) => setValue(event.target.value)}
    />
  );
}

const field = () => screen.getByRole("textbox", { name: "Description" });
const live = (container: HTMLElement) => container.querySelector('[aria-live="polite"]');
/** As written: an accessible description keeps the narrow no-break space (`spaced` for the texts). */
const REACHED = (max: number) =>
  `${max} / ${max} caractères. Limite atteinte : le texte au-delà n'est pas conservé.`;

describe("CharacterCount", () => {
  it("ne montre ni n'annonce rien sous 80 % de la limite, puis « N / MAX caractères » lié au champ", async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness max={10} />);
    await user.type(field(), "1234567");
    expect(screen.queryByText(/caractères/)).not.toBeInTheDocument();
    expect(field()).toHaveAccessibleDescription(HINT);
    expect(live(container)).toBeEmptyDOMElement();

    await user.type(field(), "8");
    const count = screen.getByText("8 / 10 caractères");
    expect(count).toHaveAttribute("aria-live", "polite");
    expect(count.closest("p")).not.toHaveClass("sr-only");
    expect(count.closest("p")).not.toHaveClass("text-red-700");
    expect(field()).toHaveAccessibleDescription(`${HINT} 8 / 10 caractères`);
    expect(field()).toHaveAttribute("maxlength", "10");
  });

  it("à la limite, un texte collé trop long est coupé et le message rouge le dit", async () => {
    const user = userEvent.setup();
    render(<Harness max={10} />);
    await user.click(field());
    await user.paste("abcdefghijklmnop");
    expect(field()).toHaveValue("abcdefghij");
    const message = screen.getByText(spaced(REACHED(10)));
    expect(message.closest("p")).toHaveClass("text-red-700");
    expect(field()).toHaveAccessibleDescription(`${HINT} ${REACHED(10)}`);
  });

  it("toujours visible avec `always`, mais annoncé seulement près de la limite", async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness max={10} always />);
    expect(field()).toHaveAccessibleDescription(`${HINT} 0 / 10 caractères`);
    await user.type(field(), "abc");
    expect(screen.getByText("3 / 10 caractères")).not.toHaveAttribute("aria-live");
    expect(live(container)).toBeEmptyDOMElement();
    await user.type(field(), "defgh");
    expect(live(container)).toHaveTextContent("8 / 10 caractères");
  });

  it("écrit les nombres à la française, avec une espace fine insécable", () => {
    render(<CharacterCount id="c" value={"a".repeat(4000)} max={5000} />);
    expect(document.getElementById("c")).toHaveTextContent("4\u202f000 / 5\u202f000 caractères", {
      normalizeWhitespace: false,
    });
  });

  it("lit la limite d'un schéma partagé", () => {
    expect(maxLengthOf(z.string().trim().max(200))).toBe(200);
    expect(() => maxLengthOf(z.string())).toThrow();
  });
});
