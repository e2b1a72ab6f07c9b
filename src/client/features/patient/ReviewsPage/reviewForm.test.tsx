import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { REVIEW_MESSAGES } from "../../../../shared/schemas/reviews";
import { openReviewForm } from "../../../test/reviews";
import { spaced } from "../../../test/text";

/*
 * /patient/reviews/new/:appointmentId 'Donner mon avis': a review sent incomplete takes the keyboard
 * to the first field to correct, and each error is read with its field (the radios of a mark, the
 * choices of « Comment vous présenter »).
 */

describe("donner mon avis", () => {
  it("envoyé vide : le focus va à la note globale, dont chaque bouton radio est décrit par l'erreur", async () => {
    openReviewForm();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Envoyer mon avis" }));
    const overall = screen.getByRole("group", { name: /^Note globale/ });
    const marks = within(overall).getAllByRole("radio");
    await waitFor(() => expect(marks[0]).toHaveFocus());
    for (const mark of marks) {
      expect(mark).toHaveAttribute("aria-invalid", "true");
      expect(mark).toHaveAccessibleDescription(REVIEW_MESSAGES.ratingRequired);
    }
    expect(overall).toHaveAccessibleDescription(REVIEW_MESSAGES.ratingRequired);
  });

  it("sans « Comment vous présenter » : le focus va à son premier choix, décrit par l'erreur comme le groupe", async () => {
    openReviewForm();
    const user = userEvent.setup();
    const overall = await screen.findByRole("group", { name: /^Note globale/ });
    await user.click(within(overall).getByRole("radio", { name: "4/5" }));
    await user.type(
      screen.getByRole("textbox", { name: /^Votre avis/ }),
      "Très bon accueil, les explications étaient claires et le soin rapide.",
    );
    await user.click(screen.getByRole("button", { name: "Envoyer mon avis" }));

    const group = screen.getByRole("group", { name: /^Comment vous présenter/ });
    const choices = within(group).getAllByRole("radio");
    await waitFor(() => expect(choices[0]).toHaveFocus());
    const error = spaced(REVIEW_MESSAGES.titleRequired);
    for (const choice of choices) {
      expect(choice).toHaveAttribute("aria-invalid", "true");
      expect(choice).toHaveAccessibleDescription(error);
    }
    expect(group).toHaveAccessibleDescription(error);
  });
});
