import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { type ModerationReview, REVIEW_MESSAGES } from "../../../shared/schemas/reviews";
import { renderPiece } from "../../test/appointments";
import { json, makeAdmin, renderApp, stubApi } from "../../test/renderApp";
import { spaced } from "../../test/text";
import { DentistReviewsSummary } from "./ReviewsPage";

/*
 * /admin/reviews 'Avis' (issue 36): a decision carries the version of the review the team read, so a
 * text its author rewrote after the page was loaded is never published unread.
 */

const admin = makeAdmin();
const ID = "88888888-8888-4888-8888-888888888888";
const READ = "2026-12-04T09:00:00.000Z";
const REWRITTEN = "2026-12-04T09:05:00.000Z";

function review(overrides: Partial<ModerationReview>): ModerationReview {
  return {
    id: ID,
    rating: 5,
    explanations: null,
    listening: null,
    punctuality: null,
    text: "Très bon accueil, tout a été expliqué avant la pose.",
    author: "Paula D., patiente vérifiée",
    appointment_month: "rendez-vous en décembre 2026",
    published_at: null,
    answer: null,
    answered_at: null,
    status: "pending",
    flags: [],
    refusal_reason: null,
    dentist: { id: "55555555-5555-4555-8555-555555555555", full_name: "Anne Martin" },
    created_at: READ,
    updated_at: READ,
    reports: [],
    ...overrides,
  };
}

/** Dr Martin's report on the review, open or closed by the team's decision. */
function dentistReport(state: {
  closed_at: string | null;
  decision: "kept" | "withdrawn" | null;
  earlier_text?: boolean;
}) {
  return {
    id: "99999999-9999-4999-8999-999999999999",
    reason: "Ce n'est pas ce qui s'est passé.",
    created_at: READ,
    dentist_name: "Anne Martin",
    earlier_text: false,
    ...state,
  };
}

describe("avis à modérer (équipe)", () => {
  it("publie la version lue ; réécrit depuis, l'avis est rechargé avec le message, puis publié relu", async () => {
    let current = review({});
    const decisions: unknown[] = [];
    stubApi(admin, {
      "GET /api/admin/reviews": () =>
        json(200, { items: [current], page: 1, page_size: 20, has_more: false }),
      [`POST /api/admin/reviews/${ID}/decision`]: (body) => {
        decisions.push(body);
        const { version } = body as { version?: string };
        if (version !== current.updated_at)
          return json(409, {
            error: { code: ERROR_CODES.conflict, message: REVIEW_MESSAGES.changedSinceRead },
          });
        current = { ...current, status: "published", published_at: REWRITTEN };
        return json(200, { review: current, message: REVIEW_MESSAGES.approved });
      },
    });
    const user = userEvent.setup();
    renderApp("/admin/reviews");
    expect(
      await screen.findByText("Très bon accueil, tout a été expliqué avant la pose."),
    ).toBeInTheDocument();

    // The author rewrites it while the page shows the first text.
    current = review({
      text: "Deux heures d'attente, des explications trop rapides.",
      updated_at: REWRITTEN,
    });
    const card = screen.getByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    await user.click(within(card).getByRole("button", { name: "Publier" }));
    expect(await screen.findByText(REVIEW_MESSAGES.changedSinceRead)).toBeInTheDocument();
    expect(decisions).toEqual([{ decision: "publish", version: READ }]);
    // The list is read again: the new text, to read before deciding.
    expect(
      await screen.findByText("Deux heures d'attente, des explications trop rapides."),
    ).toBeInTheDocument();

    const again = screen.getByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    await user.click(within(again).getByRole("button", { name: "Publier" }));
    expect(await screen.findByText(REVIEW_MESSAGES.approved)).toBeInTheDocument();
    expect(decisions.at(-1)).toEqual({ decision: "publish", version: REWRITTEN });
  });

  it("demande la raison d'un refus avant tout envoi, puis envoie aussi la version lue", async () => {
    const decisions: unknown[] = [];
    stubApi(admin, {
      "GET /api/admin/reviews": () =>
        json(200, { items: [review({})], page: 1, page_size: 20, has_more: false }),
      [`POST /api/admin/reviews/${ID}/decision`]: (body) => {
        decisions.push(body);
        return json(200, {
          review: review({ status: "refused", refusal_reason: "Hors sujet." }),
          message: REVIEW_MESSAGES.refused,
        });
      },
    });
    const user = userEvent.setup();
    renderApp("/admin/reviews");
    const card = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    await user.click(within(card).getByRole("button", { name: "Refuser" }));
    const dialog = await screen.findByRole("dialog", { name: "Refuser cet avis" });
    // Without its reason, the refusal is refused under the field, nothing sent.
    await user.click(within(dialog).getByRole("button", { name: "Refuser l'avis" }));
    expect(within(dialog).getByLabelText(/Raison, envoyée à l'auteur/)).toHaveAccessibleDescription(
      REVIEW_MESSAGES.refuseReasonRequired,
    );
    expect(within(dialog).getByLabelText(/Raison, envoyée à l'auteur/)).toHaveFocus();
    expect(decisions).toEqual([]);
    await user.type(within(dialog).getByLabelText(/Raison, envoyée à l'auteur/), "Hors sujet.");
    // A double click (both before the pending state disables the button) refuses once.
    const refuse = within(dialog).getByRole("button", { name: "Refuser l'avis" });
    fireEvent.click(refuse);
    fireEvent.click(refuse);
    expect(await screen.findByText(spaced(REVIEW_MESSAGES.refused))).toBeInTheDocument();
    expect(decisions).toEqual([{ decision: "refuse", version: READ, reason: "Hors sujet." }]);
  });

  it("garde en ligne un avis signalé, avec la version lue : message, puis la liste rechargée sans lui", async () => {
    const reported = review({
      status: "published",
      published_at: READ,
      reports: [dentistReport({ closed_at: null, decision: null })],
    });
    let items = [reported];
    const decisions: unknown[] = [];
    stubApi(admin, {
      "GET /api/admin/reviews": () => json(200, { items, page: 1, page_size: 20, has_more: false }),
      [`POST /api/admin/reviews/${ID}/decision`]: (body) => {
        decisions.push(body);
        items = [];
        return json(200, { review: { ...reported, reports: [] }, message: REVIEW_MESSAGES.kept });
      },
    });
    const user = userEvent.setup();
    renderApp("/admin/reviews");
    await user.click(await screen.findByRole("tab", { name: "Signalés" }));
    const card = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    expect(within(card).getByRole("button", { name: "Retirer" })).toBeInTheDocument();
    await user.click(within(card).getByRole("button", { name: "Garder en ligne" }));
    expect(await screen.findByText(spaced(REVIEW_MESSAGES.kept))).toBeInTheDocument();
    expect(decisions).toEqual([{ decision: "keep", version: READ }]);
    expect(await screen.findByText("Aucun avis ici")).toBeInTheDocument();
  });

  it("rend le focus au bouton « Refuser » quand sa boîte de dialogue se ferme (Échap, Annuler)", async () => {
    stubApi(admin, {
      "GET /api/admin/reviews": () =>
        json(200, { items: [review({})], page: 1, page_size: 20, has_more: false }),
    });
    const user = userEvent.setup();
    renderApp("/admin/reviews");
    const card = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    const refuse = within(card).getByRole("button", { name: "Refuser" });
    refuse.focus();
    await user.keyboard("{Enter}");
    await screen.findByRole("dialog", { name: "Refuser cet avis" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(refuse).toHaveFocus();

    await user.keyboard("{Enter}");
    const dialog = await screen.findByRole("dialog", { name: "Refuser cet avis" });
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(refuse).toHaveFocus();
  });

  it("publié, l'avis quitte la liste et le focus va au premier bouton du suivant, puis au panneau une fois la liste vide", async () => {
    const second = review({
      id: "44444444-4444-4444-8444-444444444444",
      author: "Quentin D., patient vérifié",
    });
    let items = [review({}), second];
    stubApi(admin, {
      "GET /api/admin/reviews": () => json(200, { items, page: 1, page_size: 20, has_more: false }),
      [`POST /api/admin/reviews/${ID}/decision`]: () => json(200, { message: REVIEW_MESSAGES.approved }),
      [`POST /api/admin/reviews/${second.id}/decision`]: () =>
        json(200, { message: REVIEW_MESSAGES.approved }),
    });
    const user = userEvent.setup();
    renderApp("/admin/reviews");
    const first = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    items = [second];
    await user.click(within(first).getByRole("button", { name: "Publier" }));
    await waitFor(() => expect(first).not.toBeInTheDocument());
    const next = screen.getByRole("article", { name: "Avis de Quentin D., patient vérifié" });
    await waitFor(() => expect(within(next).getByRole("button", { name: "Publier" })).toHaveFocus());

    items = [];
    await user.keyboard("{Enter}");
    expect(await screen.findByText("Aucun avis ici")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("tabpanel", { name: "À modérer" })).toHaveFocus());
  });

  it("ne propose « Garder en ligne » que sur un avis publié et signalé", async () => {
    stubApi(admin, {
      "GET /api/admin/reviews": () =>
        json(200, {
          items: [review({ status: "published", published_at: READ })],
          page: 1,
          page_size: 20,
          has_more: false,
        }),
    });
    renderApp("/admin/reviews");
    const card = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    expect(within(card).getByRole("button", { name: "Retirer" })).toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: "Garder en ligne" })).toBeNull();
  });

  it("garde lisible la raison d'un signalement examiné et gardé en ligne, sans reproposer « Garder en ligne »", async () => {
    stubApi(admin, {
      "GET /api/admin/reviews": () =>
        json(200, {
          items: [
            review({
              status: "published",
              published_at: READ,
              reports: [dentistReport({ closed_at: REWRITTEN, decision: "kept" })],
            }),
          ],
          page: 1,
          page_size: 20,
          has_more: false,
        }),
    });
    const user = userEvent.setup();
    renderApp("/admin/reviews");
    await user.click(await screen.findByRole("tab", { name: "Publiés" }));
    const card = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    const reports = within(card).getByRole("list", { name: "Signalements" });
    expect(reports).toHaveTextContent("Signalé par le Dr Anne Martin");
    expect(reports).toHaveTextContent("Ce n'est pas ce qui s'est passé.");
    expect(reports).toHaveTextContent(/examiné le 4 décembre 2026 à 10:05\s: avis gardé en ligne/);
    expect(within(card).queryByRole("button", { name: "Garder en ligne" })).toBeNull();
    expect(within(card).getByRole("button", { name: "Retirer" })).toBeInTheDocument();
  });

  it("sur la fiche d'un dentiste : compte les signalements à examiner, et dit lesquels portaient sur un texte réécrit depuis", async () => {
    stubApi(admin, {
      "GET /api/admin/reviews": () =>
        json(200, {
          items: [
            review({
              status: "published",
              published_at: READ,
              reports: [
                { ...dentistReport({ closed_at: READ, decision: "kept", earlier_text: true }), id: "r-1" },
                {
                  ...dentistReport({ closed_at: null, decision: null }),
                  id: "r-2",
                  reason: "Texte réécrit, toujours faux.",
                },
              ],
            }),
          ],
          page: 1,
          page_size: 20,
          has_more: false,
        }),
    });
    renderPiece(<DentistReviewsSummary dentistId={ID} />);
    expect(
      await screen.findByText(/Avis publiés\s:\s1\s·\ssignalements à examiner\s:\s1/),
    ).toBeInTheDocument();
    const [kept, open] = within(screen.getByRole("list", { name: "Signalements" })).getAllByRole("listitem");
    expect(kept).toHaveTextContent("(sur une version antérieure du texte)");
    expect(kept).toHaveTextContent(/avis gardé en ligne/);
    expect(open).toHaveTextContent("Texte réécrit, toujours faux.");
    expect(open).not.toHaveTextContent("version antérieure");
  });
});

describe("les pages d'avis", () => {
  it("disent leur numéro et passent à la suivante depuis le haut de la liste", async () => {
    const pages: string[] = [];
    const fetchMock = stubApi(admin, {});
    const base = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      const url = new URL(String(input), "http://localhost");
      if (url.pathname === "/api/admin/reviews") {
        const page = Number(url.searchParams.get("page"));
        pages.push(String(page));
        const items = [
          review({
            id: `${page}0000000-0000-4000-8000-000000000000`,
            text: `Avis de la page ${page}, très clair.`,
          }),
        ];
        return new Response(JSON.stringify({ items, page, page_size: 20, has_more: page < 2 }), {
          status: 200,
          headers: { "Content-Type": "application/json" },
        });
      }
      return (base as NonNullable<typeof base>)(input, init);
    });
    const scroll = vi.spyOn(Element.prototype, "scrollIntoView");
    const user = userEvent.setup();
    renderApp("/admin/reviews");
    expect(await screen.findByText("Avis de la page 1, très clair.")).toBeInTheDocument();
    expect(screen.getByText("Page 1")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Suivant" }));
    expect(await screen.findByText("Avis de la page 2, très clair.")).toBeInTheDocument();
    expect(screen.getByText("Page 2")).toBeInTheDocument();
    expect(pages).toContain("2");
    expect(scroll).toHaveBeenCalledWith({ block: "start" });
    scroll.mockRestore();
  });
});
