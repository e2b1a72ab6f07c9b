import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GEO_MESSAGES } from "../../../shared/domain/geo";
import { json, makeProfile, renderApp, stubApi, toResponse } from "../../test/renderApp";

/** The recipient chooser: distances, and 'Les plus proches' as a sort the patient picks (ADR 019). */
const LYON = {
  id: "11111111-1111-4111-8111-111111111111",
  full_name: "Aurore Blanc",
  city: "Lyon",
  specialties: [],
  distance_km: 392,
};
const PARIS = {
  id: "22222222-2222-4222-8222-222222222222",
  full_name: "Zoé Roux",
  city: "Paris",
  specialties: [],
  distance_km: 0,
};
const NOWHERE = {
  id: "33333333-3333-4333-8333-333333333333",
  full_name: "Céline Noir",
  city: null,
  specialties: [],
  distance_km: null,
};

function open(postalCode: string | null) {
  const base = stubApi(makeProfile({ postal_code: postalCode }), {
    "GET /api/dentists/verified": () => json(200, { items: [LYON, NOWHERE, PARIS] }),
  });
  const asked: string[] = [];
  // The server sorts; this stub answers 'sort=distance' as the server would.
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    if (url.pathname === "/api/dentists/verified") {
      asked.push(url.search);
      if (url.searchParams.get("sort") === "distance")
        return toResponse(json(200, { items: [PARIS, LYON, NOWHERE] }));
    }
    return base(input, init);
  });
  renderApp("/patient/upload");
  return { user: userEvent.setup(), asked };
}

async function recipientOptions(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole("combobox", { name: "Dentiste destinataire" }));
  const listbox = await screen.findByRole("listbox");
  const names = within(listbox)
    .getAllByRole("option")
    .map((option) => option.textContent ?? "");
  await user.keyboard("{Escape}");
  return names;
}

afterEach(() => vi.unstubAllGlobals());

describe("choix du dentiste destinataire", () => {
  it("garde l'ordre alphabétique par défaut, avec la distance de chaque dentiste connue", async () => {
    const { user, asked } = open("75001");
    const group = await screen.findByRole("group", { name: GEO_MESSAGES.sortLabel });
    expect(within(group).getByRole("radio", { name: GEO_MESSAGES.sortNeutral })).toBeChecked();
    expect(within(group).getByRole("radio", { name: GEO_MESSAGES.sortNearest })).not.toBeChecked();
    await screen.findByText(GEO_MESSAGES.sortLabel);
    const options = await recipientOptions(user);
    expect(options).toEqual([
      "Tous les dentistes vérifiés",
      "Dr Aurore Blanc — Lyon · 392\u00a0km",
      "Dr Céline Noir",
      "Dr Zoé Roux — Paris · <\u00a01\u00a0km",
    ]);
    expect(asked).toEqual([""]);
    expect(screen.queryByText(GEO_MESSAGES.sortNeedsPostalCode, { exact: false })).not.toBeInTheDocument();
  });

  it("demande au serveur les plus proches d'abord quand le patient choisit « Les plus proches »", async () => {
    const { user, asked } = open("75001");
    await user.click(await screen.findByRole("radio", { name: GEO_MESSAGES.sortNearest }));
    expect(screen.getByRole("radio", { name: GEO_MESSAGES.sortNearest })).toBeChecked();
    await screen.findByRole("combobox", { name: "Dentiste destinataire" });
    // Wait for the sorted answer before reading the list.
    await waitFor(() => expect(asked).toContain("?sort=distance"));
    await waitFor(async () => {
      const options = await recipientOptions(user);
      expect(options.slice(1)).toEqual([
        "Dr Zoé Roux — Paris · <\u00a01\u00a0km",
        "Dr Aurore Blanc — Lyon · 392\u00a0km",
        "Dr Céline Noir",
      ]);
    });
  });

  it("dit comment voir les distances quand le patient n'a pas de code postal", async () => {
    open(null);
    expect(await screen.findByText(GEO_MESSAGES.sortNeedsPostalCode, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Renseigner mon code postal" })).toHaveAttribute(
      "href",
      "/patient/profile",
    );
  });
});
