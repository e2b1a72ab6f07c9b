import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { PatientOffer } from "../../../shared/schemas/offers";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { savingText, sortOffers } from "./RequestPage";

const patient = makeProfile();
const REQUEST_ID = "33333333-3333-4333-8333-333333333333";
const PAGE = `/patient/request/${REQUEST_ID}`;

function offer(id: string, overrides: Partial<PatientOffer> = {}): PatientOffer {
  return {
    id,
    request_id: REQUEST_ID,
    amount_cents: 100_000,
    comment: "",
    valid_until: null,
    state: "sent",
    lines: [],
    slots: [],
    created_at: "2026-11-22T09:00:00.000Z",
    dentist: {
      id: `dentist-${id}`,
      full_name: "Paul Martin",
      city: "Paris",
      avatar_url: null,
      specialties: [],
      is_verified: true,
    },
    conversation_id: null,
    ...overrides,
  };
}

function detail(overrides: Partial<RequestDetail> = {}): RequestDetail {
  return {
    id: REQUEST_ID,
    treatment_type: "crown",
    status: "in_review",
    urgency: "medium",
    created_at: "2026-11-21T10:00:00.000Z",
    document_count: 0,
    description: "",
    budget: "",
    quote_amount_cents: 120_000,
    recipient: null,
    updated_at: "2026-11-21T10:00:00.000Z",
    documents: [],
    access_log: [],
    replies: [],
    offers: [],
    ...overrides,
  };
}

async function open(request: RequestDetail) {
  stubApi(patient, { [`GET /api/patient/requests/${REQUEST_ID}`]: () => json(200, request) });
  renderApp(PAGE);
  await screen.findByRole("heading", { level: 2, name: "Propositions" }, { timeout: 5000 });
}

const offerNames = () =>
  within(screen.getByRole("list", { name: "Propositions reçues" }))
    .getAllByRole("heading", { level: 3 })
    .map((h) => h.textContent?.replace("Vérifié", "").trim());

describe("propositions des dentistes (patient)", () => {
  it("dit qu'il n'y a pas encore de proposition", async () => {
    await open(detail());
    expect(screen.getByText("Aucune proposition pour le moment.")).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: "Trier par" })).not.toBeInTheDocument();
    // The replies section is still there.
    expect(screen.getByRole("heading", { name: "Réponses des dentistes" })).toBeInTheDocument();
  });

  it("montre le dentiste, le montant, l'économie, la validité, les actes et les créneaux", async () => {
    await open(
      detail({
        offers: [
          offer("a", {
            amount_cents: 78_000,
            comment: "Couronne céramique en deux séances.",
            valid_until: "2026-12-31",
            lines: [
              { act: "Couronne céramique", tooth: 36, fee_cents: 65_000 },
              { act: "Inlay-core", tooth: null, fee_cents: 13_000 },
            ],
            slots: ["2026-12-03T13:30:00.000Z"],
            dentist: {
              id: "d-a",
              full_name: "Sophie Leroy",
              city: "Lyon",
              avatar_url: null,
              specialties: ["Implantologie", "Prothèse"],
              is_verified: true,
            },
          }),
        ],
      }),
    );
    const item = screen.getByRole("listitem", { name: "Proposition du Dr Sophie Leroy" });
    const inItem = within(item);
    expect(inItem.getByRole("heading", { level: 3 })).toHaveTextContent("Dr Sophie Leroy");
    expect(inItem.getByText("Vérifié")).toBeInTheDocument();
    expect(inItem.getByText("Lyon")).toBeInTheDocument();
    expect(inItem.getByText("Implantologie · Prothèse")).toBeInTheDocument();
    expect(inItem.getByText(/^780,00\s€$/)).toBeInTheDocument();
    expect(inItem.getByText(/^Économie estimée\s: 420,00\s€ \(35\s%\)$/)).toBeInTheDocument();
    expect(inItem.getByText("Envoyée")).toBeInTheDocument();
    expect(inItem.getByText(/Valable jusqu'au 31 décembre 2026/)).toBeInTheDocument();
    expect(inItem.getByText("Couronne céramique en deux séances.")).toBeInTheDocument();
    expect(inItem.getByText("· dent 36", { exact: false })).toBeInTheDocument();
    expect(inItem.getByText(/^650,00\s€$/)).toBeInTheDocument();
    expect(inItem.getByText("jeudi 3 décembre 2026 à 14:30")).toBeInTheDocument();
    expect(inItem.queryByRole("button")).not.toBeInTheDocument();
  });

  it("ne parle pas d'économie sans devis d'origine ni quand la proposition est plus chère", async () => {
    expect(savingText(null, 50_000)).toBeNull();
    expect(savingText(40_000, 50_000)).toBeNull();
    expect(savingText(40_000, 40_000)).toBeNull();
    await open(
      detail({
        quote_amount_cents: 50_000,
        offers: [
          offer("a", { amount_cents: 60_000, dentist: { ...offer("a").dentist, is_verified: false } }),
        ],
      }),
    );
    expect(screen.queryByText(/Économie estimée/)).not.toBeInTheDocument();
    expect(screen.queryByText("Vérifié")).not.toBeInTheDocument();
  });

  it("trie par prix croissant, ou par les plus récentes au choix du patient", async () => {
    const dentist = (name: string) => ({ ...offer("x").dentist, id: name, full_name: name });
    await open(
      detail({
        offers: [
          offer("old-cheap", {
            amount_cents: 70_000,
            created_at: "2026-11-22T09:00:00.000Z",
            dentist: dentist("Ancien"),
          }),
          offer("mid", {
            amount_cents: 90_000,
            created_at: "2026-11-24T09:00:00.000Z",
            dentist: dentist("Récent"),
          }),
          offer("new-dear", {
            amount_cents: 110_000,
            created_at: "2026-11-23T09:00:00.000Z",
            dentist: dentist("Moyen"),
          }),
        ],
      }),
    );
    const sort = screen.getByRole("combobox", { name: "Trier par" });
    expect(sort).toHaveTextContent("Prix croissant");
    expect(offerNames()).toEqual(["Dr Ancien", "Dr Récent", "Dr Moyen"]);

    const user = userEvent.setup();
    await user.click(sort);
    await user.click(await screen.findByRole("option", { name: "Plus récentes" }));
    expect(offerNames()).toEqual(["Dr Récent", "Dr Moyen", "Dr Ancien"]);

    await user.click(sort);
    await user.click(await screen.findByRole("option", { name: "Prix croissant" }));
    expect(offerNames()).toEqual(["Dr Ancien", "Dr Récent", "Dr Moyen"]);
  });

  it("départage deux prix égaux par la plus ancienne", () => {
    const a = offer("a", { amount_cents: 500, created_at: "2026-11-23T00:00:00.000Z" });
    const b = offer("b", { amount_cents: 500, created_at: "2026-11-22T00:00:00.000Z" });
    expect(sortOffers([a, b], "price").map((o) => o.id)).toEqual(["b", "a"]);
    expect(sortOffers([b, a], "recent").map((o) => o.id)).toEqual(["a", "b"]);
  });
});

describe("date de naissance (profil patient)", () => {
  it("envoie la date de naissance, et une date vide l'efface", async () => {
    const bodies: unknown[] = [];
    stubApi(makeProfile({ birth_date: "1984-05-12" }), {
      "PATCH /api/me": (body) => {
        bodies.push(body);
        return json(200, { profile: makeProfile({ birth_date: null }) });
      },
    });
    const user = userEvent.setup();
    renderApp("/patient/profile");
    const field = await screen.findByLabelText("Date de naissance (optionnel)", {}, { timeout: 5000 });
    expect(field).toHaveValue("1984-05-12");
    expect(field).toHaveAccessibleDescription(
      "Les dentistes voient seulement votre âge, jamais votre date de naissance.",
    );
    await user.clear(field);
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    await screen.findByText("Profil mis à jour avec succès");
    expect(bodies).toEqual([expect.objectContaining({ birth_date: "" })]);
  });
});
