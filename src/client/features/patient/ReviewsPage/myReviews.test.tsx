/** « Mes avis »: deleting one says what it does to the dentist's profile, as it stands. */
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OwnReview } from "../../../../shared/schemas/reviews";
import { json, makeProfile, renderApp, stubApi } from "../../../test/renderApp";
import { openReviewForm } from "../../../test/reviews";

afterEach(() => vi.unstubAllGlobals());

function review(id: string, status: OwnReview["status"], name: string): OwnReview {
  return {
    id,
    rating: 5,
    explanations: null,
    listening: null,
    punctuality: null,
    text: "Très à l'écoute, explications claires.",
    author: "Marie D., patiente vérifiée",
    appointment_month: "rendez-vous en novembre 2026",
    published_at: status === "published" ? "2026-11-20T10:00:00.000Z" : null,
    answer: null,
    answered_at: null,
    status,
    refusal_reason: null,
    author_title: "patient",
    appointment_id: `rdv-${id}`,
    dentist: { id: `d-${id}`, full_name: name },
    created_at: "2026-11-19T10:00:00.000Z",
    may_edit: true,
  } as OwnReview;
}

describe("supprimer un de mes avis", () => {
  it("publié, il disparaît du profil du dentiste ; en attente, il n'y a jamais été", async () => {
    stubApi(makeProfile(), {
      "GET /api/patient/reviews": () =>
        json(200, {
          reviews: [review("a", "published", "Paul Martin"), review("b", "pending", "Sophie Leroy")],
          invitations: [],
        }),
    });
    const user = userEvent.setup();
    renderApp("/patient/reviews");
    const buttons = await screen.findAllByRole("button", { name: "Supprimer" });
    expect(buttons).toHaveLength(2);

    await user.click(buttons[0] as HTMLElement);
    let dialog = await screen.findByRole("dialog", { name: /^Supprimer cet avis/ });
    expect(
      within(dialog).getByText(/^Il disparaîtra tout de suite du profil du dentiste\./),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));

    await user.click(buttons[1] as HTMLElement);
    dialog = await screen.findByRole("dialog", { name: /^Supprimer cet avis/ });
    expect(
      within(dialog).getByText(/^Il n'est pas publié sur le profil du dentiste et ne le sera pas\./),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/disparaîtra/)).toBeNull();
  });
});

describe("modifier un de mes avis", () => {
  it("dit le mois du rendez-vous une fois : « Rendez-vous en novembre 2026. »", async () => {
    stubApi(makeProfile(), {
      "GET /api/patient/reviews": () =>
        json(200, { reviews: [review("a", "published", "Paul Martin")], invitations: [] }),
    });
    renderApp("/patient/reviews/a/edit");
    expect(
      await screen.findByText(/^Rendez-vous en novembre 2026\. Votre avis sera relu par l'équipe/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/rendez-vous du rendez-vous/i)).toBeNull();
  });

  it("et le jour du rendez-vous quand elle le donne : « Rendez-vous du 20 novembre 2026. »", async () => {
    openReviewForm();
    expect(await screen.findByText(/^Rendez-vous du 20 novembre 2026\. Votre avis/)).toBeInTheDocument();
  });
});
