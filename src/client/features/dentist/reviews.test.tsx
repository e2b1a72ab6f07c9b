import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { DentistOwnReviews, RatingSummary } from "../../../shared/schemas/reviews";
import { makeDentist } from "../../test/dentist";
import { json, renderApp, stubApi } from "../../test/renderApp";

/*
 * /dentist/reviews 'Avis des patients' (issue 36): a dentist not verified reads no review (D6), so
 * the page shows neither a count nor an empty list; a report the team examined and kept says so.
 */

type Item = DentistOwnReviews["items"][number];

function received(item: Partial<Item>): Item {
  return {
    id: "77777777-7777-4777-8777-777777777777",
    rating: 2,
    explanations: null,
    listening: null,
    punctuality: null,
    text: "Deux heures d'attente et des explications trop rapides.",
    author: "Paula D., patiente vérifiée",
    appointment_month: "rendez-vous en décembre 2026",
    published_at: "2026-12-05T09:00:00.000Z",
    answer: null,
    answered_at: null,
    reported: false,
    report_kept: false,
    ...item,
  };
}

const page = (items: Item[], summary: RatingSummary = { average: 2, count: items.length }) =>
  json(200, { items, summary, page: 1, page_size: 10, has_more: false });

describe("avis des patients (dentiste)", () => {
  it("« Avis plus anciens » met la page dans l'adresse (rechargée, elle reste) et demande la suivante", async () => {
    const fetchMock = stubApi(makeDentist(), {
      "GET /api/dentist/reviews": () =>
        json(200, {
          items: [received({})],
          summary: { average: 2, count: 11 },
          page: 1,
          page_size: 10,
          has_more: true,
        }),
    });
    const user = userEvent.setup();
    const { router } = renderApp("/dentist/reviews");
    await user.click(await screen.findByRole("button", { name: "Avis plus anciens" }));
    await waitFor(() => expect(router.state.location.search).toBe("?page=2"));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain("/api/dentist/reviews?page=2"),
    );
  });

  it("à un dentiste non vérifié : l'attente de vérification, ni note ni nombre d'avis", async () => {
    const calls = stubApi(makeDentist({ is_verified: false }), {
      "GET /api/dentist/reviews": () => page([], { average: null, count: 0 }),
    });
    renderApp("/dentist/reviews");
    expect(await screen.findByText("En attente de vérification")).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Avis des patients" })).toBeInTheDocument();
    expect(screen.queryByText(/Pas encore d'avis|\d+ avis/)).toBeNull();
    expect(screen.queryByText("Aucun avis publié pour le moment")).toBeNull();
    expect(calls.mock.calls.map(([url]) => String(url))).not.toContainEqual(
      expect.stringContaining("/api/dentist/reviews"),
    );
  });

  it("dit qu'un signalement a été examiné et l'avis gardé en ligne, sans reproposer de le signaler", async () => {
    stubApi(makeDentist(), {
      "GET /api/dentist/reviews": () =>
        page([
          received({ reported: true, report_kept: true }),
          received({
            id: "66666666-6666-4666-8666-666666666666",
            author: "Quentin D., patient vérifié",
            reported: true,
          }),
        ]),
    });
    renderApp("/dentist/reviews");
    const kept = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    expect(kept).toHaveTextContent(/Signalement examiné par l'équipe\s: avis gardé en ligne/);
    expect(within(kept).queryByRole("button", { name: "Signaler" })).toBeNull();
    const open = screen.getByRole("article", { name: "Avis de Quentin D., patient vérifié" });
    expect(open).toHaveTextContent("Signalé à l'équipe");
    expect(open).not.toHaveTextContent("examiné");
    // Verified: his average and count, over the list they count.
    expect(screen.getByText("2 avis")).toBeInTheDocument();
  });

  it("rend le focus au bouton « Répondre » ou « Signaler » de l'avis quand la boîte de dialogue se ferme", async () => {
    stubApi(makeDentist(), {
      "GET /api/dentist/reviews": () =>
        page([
          received({}),
          received({ id: "66666666-6666-4666-8666-666666666666", author: "Quentin D., patient vérifié" }),
        ]),
    });
    const user = userEvent.setup();
    renderApp("/dentist/reviews");
    const second = await screen.findByRole("article", { name: "Avis de Quentin D., patient vérifié" });
    const answer = within(second).getByRole("button", { name: /^Répondre/ });
    answer.focus();
    await user.keyboard("{Enter}");
    await screen.findByRole("dialog", { name: "Répondre à cet avis" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(answer).toHaveFocus();

    const report = within(second).getByRole("button", { name: /^Signaler/ });
    report.focus();
    await user.keyboard("{Enter}");
    const dialog = await screen.findByRole("dialog", { name: "Signaler cet avis à l'équipe" });
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(report).toHaveFocus();
  });

  it("nomme chaque « Répondre » et « Signaler » par l'auteur et la date de son avis", async () => {
    stubApi(makeDentist(), {
      "GET /api/dentist/reviews": () =>
        page([
          received({}),
          received({
            id: "66666666-6666-4666-8666-666666666666",
            author: "Amélie R., patiente vérifiée",
            published_at: "2026-11-20T09:00:00.000Z",
          }),
        ]),
    });
    renderApp("/dentist/reviews");
    const first = await screen.findByRole("article", { name: "Avis de Paula D., patiente vérifiée" });
    expect(within(first).getByRole("button", { name: /^Répondre/ })).toHaveAccessibleName(
      "Répondre à l'avis de Paula D., patiente vérifiée, publié le 5 décembre 2026",
    );
    expect(within(first).getByRole("button", { name: /^Signaler/ })).toHaveAccessibleName(
      "Signaler l'avis de Paula D., patiente vérifiée, publié le 5 décembre 2026",
    );
    const second = screen.getByRole("article", { name: "Avis d'Amélie R., patiente vérifiée" });
    expect(within(second).getByRole("button", { name: /^Répondre/ })).toHaveAccessibleName(
      "Répondre à l'avis d'Amélie R., patiente vérifiée, publié le 20 novembre 2026",
    );
    // No two buttons of the page share a name.
    const names = screen
      .getAllByRole("button", { name: /^(Répondre|Signaler)/ })
      .map((button) => button.getAttribute("aria-label"));
    expect(new Set(names).size).toBe(4);
  });
});
