import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { OFFER_LIMITS } from "../../shared/domain/offers";
import { REVIEW_LIMITS } from "../../shared/domain/reviews";
import { MESSAGE_MAX_LENGTH } from "../../shared/schemas/conversations";
import type { MyOffer } from "../../shared/schemas/offers";
import { profileUpdateSchema } from "../../shared/schemas/profile";
import { requestFieldsSchema } from "../../shared/schemas/requests";
import { QueryProvider } from "../lib/QueryProvider";
import { makeDentist, makeDentistRequestDetail } from "../test/dentist";
import { json, makeProfile, renderApp, stubApi } from "../test/renderApp";
import { openReviewForm } from "../test/reviews";
import { spaced } from "../test/text";
import { Composer } from "./messages/Composer";

/*
 * The long texts show « N / MAX caractères » near the server's limit, and say when a text typed or
 * pasted was cut there: each form's field is tied to its own limit, read from the shared schemas.
 */

const fr = (n: number) => n.toLocaleString("fr-FR");
/** The count at the limit, as written (its accessible description keeps the narrow no-break spaces). */
const reached = (max: number) =>
  `${fr(max)} / ${fr(max)} caractères. Limite atteinte : le texte au-delà n'est pas conservé.`;

/** Pastes a text longer than `max` into the emptied field: it keeps `max` characters and says so. */
async function pasteTooLong(field: HTMLElement, max: number) {
  const user = userEvent.setup();
  await user.clear(field);
  await user.paste("a".repeat(max + 25));
  expect(field).toHaveValue("a".repeat(max));
  expect(field).toHaveAccessibleDescription(expect.stringContaining(reached(max)));
  expect(screen.getByText(spaced(reached(max)))).toHaveAttribute("aria-live", "polite");
}

describe("compteurs de caractères", () => {
  it("nouvelle demande : « Description » et « Budget » aux limites du schéma de la demande", async () => {
    stubApi(makeProfile(), { "GET /api/dentists/verified": () => json(200, { items: [] }) });
    renderApp("/patient/upload");
    const description = await screen.findByRole("textbox", { name: "Description" });
    expect(description).toHaveAccessibleDescription(
      "Vos symptômes, ce que votre dentiste vous a proposé, vos questions.",
    );
    const descriptionMax = requestFieldsSchema.shape.description.in.unwrap().maxLength ?? 0;
    expect(descriptionMax).toBe(5000);
    await pasteTooLong(description, descriptionMax);

    const budget = screen.getByRole("textbox", { name: "Budget" });
    const budgetMax = requestFieldsSchema.shape.budget.in.unwrap().maxLength ?? 0;
    expect(budgetMax).toBe(100);
    await pasteTooLong(budget, budgetMax);
  });

  it("proposition du dentiste : « Commentaire » à OFFER_LIMITS.commentMax", async () => {
    const id = "22222222-2222-4222-8222-222222222222";
    const noOffer: MyOffer = { offer: null, may_offer: true, patient_age: 42, last_fees: [] };
    stubApi(makeDentist(), {
      [`GET /api/dentist/requests/${id}`]: () => json(200, makeDentistRequestDetail(id)),
      [`GET /api/dentist/requests/${id}/offer`]: () => json(200, noOffer),
    });
    renderApp(`/dentist/quote-request/${id}`);
    const comment = await screen.findByRole("textbox", { name: "Commentaire (optionnel)" });
    await pasteTooLong(comment, OFFER_LIMITS.commentMax);
  });

  it("messagerie : le message à MESSAGE_MAX_LENGTH, après la ligne d'aide", async () => {
    render(
      <QueryProvider>
        <Composer onSend={vi.fn()} sending={false} recipient="Julien Martin" conversationId="c-1" />
      </QueryProvider>,
    );
    const field = screen.getByRole("textbox");
    await pasteTooLong(field, MESSAGE_MAX_LENGTH);
    expect(field).toHaveAccessibleDescription(expect.stringMatching(/^Entrée pour envoyer/));
  });

  it("profil patient : « Nom complet » à la limite du schéma du profil", async () => {
    stubApi(makeProfile());
    renderApp("/patient/profile");
    const name = await screen.findByRole("textbox", { name: /^Nom complet/ });
    await pasteTooLong(name, profileUpdateSchema.shape.full_name.maxLength ?? 0);
  });

  it("profil dentiste : « Nom complet » à la limite du schéma du profil", async () => {
    stubApi(makeDentist());
    renderApp("/dentist/profile");
    const name = await screen.findByRole("textbox", { name: /^Nom complet/ });
    await pasteTooLong(name, profileUpdateSchema.shape.full_name.maxLength ?? 0);
  });

  it("avis du patient : le compte reste visible dès le début, jusqu'à REVIEW_LIMITS.textMax", async () => {
    openReviewForm();
    const text = await screen.findByRole("textbox", { name: /^Votre avis/ });
    expect(screen.getByText(spaced(`0 / ${fr(REVIEW_LIMITS.textMax)} caractères`))).toBeInTheDocument();
    await userEvent.setup().type(text, "Très bien");
    expect(text).toHaveAccessibleDescription(
      expect.stringContaining(`9 / ${fr(REVIEW_LIMITS.textMax)} caractères`),
    );
    await pasteTooLong(text, REVIEW_LIMITS.textMax);
  });
});
