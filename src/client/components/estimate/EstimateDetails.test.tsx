import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SOURCES } from "../../../shared/domain/acts";
import { estimateLines, resolveLine } from "../../../shared/schemas/quotes";
import { EstimateDetails } from "./EstimateDetails";

/*
 * Issue 33: 'Comment est-ce calculé ?' names the tariffs its figures use — the period in force on the
 * estimate's day (the devis's date, or the offer's day) — and their sources, as links when they have one.
 */

const words = (text: string | null) => (text ?? "").replace(/[\s\u00a0\u202f]+/g, " ");

function renderDetails(day: string | null) {
  const lines = [
    resolveLine(
      { code: "HBLD073", act: "Couronne zircone", tooth: 36, fee_cents: 45_000, br_cents: null },
      day ?? "2026-11-25",
    ),
  ];
  return render(<EstimateDetails estimate={estimateLines(lines, null, day)} cover={null} />);
}

describe("Comment est-ce calculé ? : les tarifs appliqués", () => {
  it("nomme les tarifs d'un devis de décembre 2025 et leurs sources, en liens", () => {
    const { container } = renderDetails("2025-12-15");
    const details = container.querySelector("details") as HTMLElement;
    expect(words(details.textContent)).toContain(
      "Tarifs en vigueur le 15 décembre 2025 : Convention 2018, plafonds en vigueur depuis le 1er janvier 2021.",
    );
    const sources = within(details).getByRole("list", { name: /^Sources/ });
    const links = within(sources).getAllByRole("link");
    expect(links.map((link) => link.getAttribute("href"))).toEqual([
      SOURCES.C18_IV.url,
      SOURCES.C18_V.url,
      SOURCES.ID21.url,
    ]);
    const first = within(sources).getByRole("link", {
      name: `${SOURCES.C18_IV.title} (nouvel onglet)`,
    });
    expect(first).toHaveAttribute("target", "_blank");
    expect(first).toHaveAttribute("rel", "noreferrer");
  });

  it("nomme les tarifs de 2026 ; une source sans adresse est citée sans lien", () => {
    const { container } = renderDetails("2026-01-01");
    const details = container.querySelector("details") as HTMLElement;
    expect(words(details.textContent)).toContain(
      "Tarifs en vigueur le 1er janvier 2026 : Convention 2023 : plafonds +3 % et zircone sur molaire en 100 % Santé au 1er janvier 2026.",
    );
    const sources = within(details).getByRole("list", { name: /^Sources/ });
    expect(SOURCES.C23.url).toBeNull();
    const items = within(sources).getAllByRole("listitem");
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent(SOURCES.C23.title);
    expect(within(items[0] as HTMLElement).queryByRole("link")).not.toBeInTheDocument();
    expect(within(sources).getAllByRole("link")).toHaveLength(3);
  });

  it("ne dit rien des tarifs sans jour de tarif", () => {
    renderDetails(null);
    expect(screen.queryByText(/Tarifs en vigueur/)).not.toBeInTheDocument();
    expect(screen.queryByRole("list", { name: /^Sources/ })).not.toBeInTheDocument();
  });
});
