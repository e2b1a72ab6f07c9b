import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { parseCover, valuesOf } from "../../../shared/forms/coverForm";
import type { PatientOffer } from "../../../shared/schemas/offers";
import {
  COVER_MESSAGES,
  type Comparison,
  type Cover,
  compareQuotes,
  type QuoteLineDto,
  resolveLine,
} from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { makeRequestDetail } from "../../test/requests";
import { spaced } from "../../test/text";
import { chooseCompared } from "./ComparePage";
import { patientOffer } from "./offerFixture";

/*
 * Issue 15 on the patient's screens: 'Ma mutuelle', the reste à charge of each offer from the
 * comparison endpoint (sorting, saving, 'Comment est-ce calculé ?') and the tooth-by-tooth alignment.
 * The comparison answered here is computed by the shared function the server uses.
 */

const patient = makeProfile();
const REQUEST_ID = "55555555-5555-4555-8555-555555555555";
const PAGE = `/patient/request/${REQUEST_ID}`;
const DETAIL = `GET /api/patient/requests/${REQUEST_ID}`;
const COMPARISON = `GET /api/patient/requests/${REQUEST_ID}/comparison`;
const DAY = "2026-11-25";

const line = (code: string, act: string, tooth: number, fee: number): QuoteLineDto =>
  resolveLine({ code, act, tooth, fee_cents: fee, br_cents: null }, DAY);
const MOLAR = "Couronne céramo-métallique (molaire)";
const ORIGINAL = [
  line("HBLD734", MOLAR, 36, 100_000),
  line("HBLD634", "Couronne céramo-métallique", 11, 60_000),
];
const COVER: Cover = {
  percent_of_br: 200,
  ro_included: true,
  annual_ceiling_cents: null,
  implant_allowance_cents: null,
  responsible: true,
};

function offer(id: string, name: string, lines: QuoteLineDto[], createdAt: string): PatientOffer {
  const amount_cents = lines.reduce((sum, l) => sum + l.fee_cents, 0);
  return { ...patientOffer(id, REQUEST_ID, { full_name: name }), amount_cents, lines, created_at: createdAt };
}

// Leroy: 790 € of 100 % Santé crowns (nothing left to pay); Bernard: cheaper (700 €) but free-priced.
const leroy = offer(
  "a",
  "Sophie Leroy",
  [
    line("HBLD038", "Couronne métallique", 36, 29_000),
    line("HBLD634", "Couronne céramo-métallique", 11, 50_000),
  ],
  "2026-11-22T09:00:00.000Z",
);
const bernard = offer("b", "Lucie Bernard", [line("HBLD734", MOLAR, 36, 70_000)], "2026-11-23T09:00:00.000Z");

function detail(overrides: Partial<RequestDetail> = {}): RequestDetail {
  return makeRequestDetail(REQUEST_ID, {
    quote_amount_cents: 160_000,
    quote_lines: ORIGINAL,
    offers: [bernard, leroy],
    ...overrides,
  });
}

const comparisonFor = (request: RequestDetail, cover: Cover | null): Comparison =>
  compareQuotes(request.quote_lines, request.offers, cover);

function stub(request: RequestDetail, cover: Cover | null) {
  return stubApi(patient, {
    [DETAIL]: () => json(200, request),
    [COMPARISON]: () => json(200, comparisonFor(request, cover)),
  });
}

/** Money as the page prints it, whatever the kind of space ("1 600,00 €"). */
const money = (text: string) => new RegExp(text.replace(/ /g, "\\s"));
const offerNames = () =>
  within(screen.getByRole("list", { name: "Propositions reçues" }))
    .getAllByRole("heading", { level: 3 })
    .map((h) => h.textContent?.replace("Vérifié", "").trim());
/** The main figure of a card: 'Reste à charge estimé', the amount and the price beside it. */
const figure = (container: HTMLElement) =>
  within(container).getByText("Reste à charge estimé").parentElement?.textContent?.replace(/\s/g, " ");
const item = (name: string) => screen.getByRole("listitem", { name: `Proposition du Dr ${name}` });

describe("reste à charge sur la page de la demande", () => {
  it("montre mon devis et son reste à charge, puis les propositions par reste à charge estimé", async () => {
    stub(detail(), COVER);
    renderApp(PAGE);
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    // Wait for the estimate (the comparison comes after the request).
    expect(await within(mine).findByText("Reste à charge estimé")).toBeInTheDocument();
    expect(figure(mine)).toBe("Reste à charge estimé845,00 €Prix : 1 600,00 €");
    // The crown of tooth 11 is above its 100 % Santé ceiling on the patient's own quote: said.
    expect(
      within(mine).getByText(money("^au-dessus du plafond 100 % Santé \\(515,00 €\\)$")),
    ).toBeInTheDocument();
    expect(within(mine).getByText("Comment est-ce calculé ?")).toBeInTheDocument();
    expect(screen.queryByText(/Sans mutuelle renseignée/)).not.toBeInTheDocument();

    // By reste à charge first (Leroy: nothing to pay), although Bernard's price is lower.
    const sort = screen.getByRole("combobox", { name: "Trier par" });
    expect(sort).toHaveTextContent("Reste à charge estimé");
    expect(offerNames()).toEqual(["Dr Sophie Leroy", "Dr Lucie Bernard"]);

    expect(figure(item("Sophie Leroy"))).toBe("Reste à charge estimé0,00 €Prix : 790,00 €");
    const first = within(item("Sophie Leroy"));
    expect(
      first.getByText(money("^Économie estimée sur votre reste à charge : 845,00 € \\(100 %\\)$")),
    ).toBeInTheDocument();
    expect(first.getByTitle("Tous les actes de ce devis sont du panier 100 % Santé")).toBeInTheDocument();
    expect(figure(item("Lucie Bernard"))).toBe("Reste à charge estimé460,00 €Prix : 700,00 €");
    const second = within(item("Lucie Bernard"));
    // Bernard treats 36 only (not 11): the saving is on 36 alone, 760 − 460 = 300 €, 39 % of 760 € (it
    // was 845 − 460 = 385 €, 46 %: the whole devis against one tooth); the offer says it is partial.
    expect(
      second.getByText(
        money(
          "^Économie estimée sur votre reste à charge : 300,00 € \\(39 %\\), sur la partie de votre devis qu'elle traite$",
        ),
      ),
    ).toBeInTheDocument();
    expect(second.getByText("Proposition partielle")).toBeInTheDocument();
    expect(second.getByText("Ne traite pas la dent 11 de votre devis.")).toBeInTheDocument();
    expect(second.queryByTitle(/100 % Santé/)).not.toBeInTheDocument();

    // 'Comment est-ce calculé ?': the amounts of each part, line by line.
    const user = userEvent.setup();
    await user.click(second.getByText("Comment est-ce calculé ?"));
    const details = second.getByText("Comment est-ce calculé ?").closest("details") as HTMLElement;
    expect(details).toHaveAttribute("open");
    const parts = within(details).getByText("Assurance Maladie (60 % de la BR)").closest("dl") as HTMLElement;
    expect(parts.textContent?.replace(/\s/g, " ")).toBe(
      "Honoraires700,00 €Base de remboursement (BR)120,00 €Assurance Maladie (60 % de la BR)72,00 €Mutuelle168,00 €Reste à charge460,00 €",
    );
    expect(
      within(details).getByText(/jusqu'à 200 % de la BR, Assurance Maladie comprise/),
    ).toBeInTheDocument();

    // The price order is still there.
    await user.click(sort);
    await user.click(await screen.findByRole("option", { name: "Prix croissant" }));
    expect(offerNames()).toEqual(["Dr Lucie Bernard", "Dr Sophie Leroy"]);
  });

  it("dit quand l'estimation ne compte que l'Assurance Maladie, et où renseigner sa mutuelle", async () => {
    // An offer sent without lines: its price only, said so.
    const martin = { ...offer("m", "Paul Martin", [], "2026-11-24T09:00:00.000Z"), amount_cents: 65_000 };
    stub(detail({ quote_lines: [], offers: [bernard, leroy, martin] }), null);
    renderApp(PAGE);
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    expect(within(mine).getByText(/Votre devis n'est pas détaillé/)).toBeInTheDocument();
    expect(
      await screen.findByText(/Sans mutuelle renseignée, l'estimation ne compte que l'Assurance Maladie/),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "renseignez votre mutuelle" })).toHaveAttribute(
      "href",
      "/patient/profile#ma-mutuelle",
    );
    const notDetailed = within(item("Paul Martin"));
    expect(
      notDetailed.getByText("Proposition non détaillée : reste à charge non estimé"),
    ).toBeInTheDocument();
    expect(notDetailed.getByText(money("^650,00 €$"))).toBeInTheDocument();
    expect(notDetailed.queryByText("Reste à charge estimé")).not.toBeInTheDocument();
    expect(notDetailed.queryByText("Comment est-ce calculé ?")).not.toBeInTheDocument();
    expect(within(item("Lucie Bernard")).getByText("Comment est-ce calculé ?")).toBeInTheDocument();
    // Without a structured quote of the patient's, the saving is the price's, as before.
    expect(
      within(item("Lucie Bernard")).getByText(money("^Économie estimée sur le prix : 900,00 € \\(56 %\\)$")),
    ).toBeInTheDocument();
  });
});

describe("propositions sans lignes", () => {
  it("restent comparées sur leur prix, sans estimation, tant qu'aucune n'est détaillée", async () => {
    const plain = (id: string, name: string, cents: number) => ({
      ...offer(id, name, [], "2026-11-22T09:00:00.000Z"),
      amount_cents: cents,
    });
    const request = detail({ offers: [plain("p", "Paul Martin", 120_000), plain("q", "Anne Roy", 90_000)] });
    stub(request, COVER);
    const first = renderApp(PAGE);
    await screen.findByRole("region", { name: "Mon devis" });
    // The comparison has arrived (my devis has its estimate), yet the offers keep their prices.
    expect(await screen.findByText(money("^Prix : 1 600,00 €$"))).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "Trier par" })).toHaveTextContent("Prix croissant");
    expect(offerNames()).toEqual(["Dr Anne Roy", "Dr Paul Martin"]);
    expect(screen.queryByText(/non détaillée/)).not.toBeInTheDocument();
    expect(within(item("Anne Roy")).queryByText("Reste à charge estimé")).not.toBeInTheDocument();
    first.unmount();

    stub(request, COVER);
    renderApp(`${PAGE}/compare`);
    const table = await screen.findByRole("table");
    expect(within(table).getByRole("rowheader", { name: "Montant" })).toBeInTheDocument();
    expect(within(table).queryByRole("rowheader", { name: "Reste à charge estimé" })).not.toBeInTheDocument();
    expect(within(table).getByText("Le moins cher")).toBeInTheDocument();
    expect(screen.queryByRole("table", { name: /dent par dent/ })).not.toBeInTheDocument();
  });
});

/**
 * Worked example, no mutuelle: the devis HBLD734 on 36 and 46 at 800 € each (728 € left to pay on each,
 * 1 456 €). Dr Roy treats 36 only at 700 € (628 €); Dr Petit both teeth at 700 € (1 256 €).
 */
function stubPartialOffer() {
  const devis = [line("HBLD734", MOLAR, 36, 80_000), line("HBLD734", MOLAR, 46, 80_000)];
  const roy = offer("r", "Anne Roy", [line("HBLD734", MOLAR, 36, 70_000)], "2026-11-22T09:00:00.000Z");
  const petit = offer(
    "p",
    "Marc Petit",
    [line("HBLD734", MOLAR, 36, 70_000), line("HBLD734", MOLAR, 46, 70_000)],
    "2026-11-23T09:00:00.000Z",
  );
  stub(detail({ quote_amount_cents: 160_000, quote_lines: devis, offers: [roy, petit] }), null);
}

describe("comparaison par reste à charge", () => {
  const row = (criterion: string | RegExp) => {
    const header = screen.getByRole("rowheader", { name: criterion });
    return within(header.closest("tr") as HTMLElement).getAllByRole("cell");
  };

  it("compare les restes à charge, les économies et les actes dent par dent", async () => {
    stub(detail(), COVER);
    renderApp(`${PAGE}/compare`);
    const table = await screen.findByRole("table", {
      name: "Comparaison des propositions pour votre demande\u202f: Couronne",
    });
    const heads = within(table)
      .getAllByRole("columnheader")
      .map((th) => within(th).getByText(/^Dr /).textContent);
    expect(heads).toEqual(["Dr Sophie Leroy", "Dr Lucie Bernard"]);
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((th) => th.textContent),
    ).toContain("Calcul du reste à charge");
    expect(screen.getByText(/Votre devis : reste à charge estimé/)).toHaveTextContent(
      /845,00\s€ pour un prix de 1\s600,00\s€/,
    );

    const rests = row("Reste à charge estimé");
    expect(rests[0]).toHaveTextContent(money("0,00 €Prix : 790,00 €Reste à charge le plus bas100 % Santé"));
    // Bernard leaves tooth 11 untreated: said beside the total.
    expect(rests[1]).toHaveTextContent(
      money(
        "^Reste à charge estimé460,00 €Prix : 700,00 €Proposition partielleNe traite pas la dent 11 de votre devis.$",
      ),
    );
    const savings = row(/^Économie estimée/);
    expect(screen.getByRole("rowheader", { name: /^Économie estimée/ })).toHaveTextContent(
      money("sur le reste à charge de votre devis \\(845,00 €\\)$"),
    );
    expect(savings.map((c) => c.textContent?.replace(/\s/g, " "))).toEqual([
      "845,00 € (100 %)",
      // On tooth 36 only: 760 − 460 = 300 €, 39 % of the devis's 760 € there (it was 385 € (46 %)).
      "300,00 € (39 %)sur la partie de votre devis qu'elle traite (760,00 €)",
    ]);
    expect(
      within(row("Calcul du reste à charge")[1] as HTMLElement).getByText("Mutuelle"),
    ).toBeInTheDocument();

    const teeth = screen.getByRole("table", { name: "Votre devis et les propositions, dent par dent" });
    expect(
      within(teeth)
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Dent", "Votre devis", "Dr Sophie Leroy", "Dr Lucie Bernard"]);
    // On a phone its columns run past the edge: a line says to slide it (hidden from 640 px up).
    expect(screen.getByText("Faites glisser le tableau pour voir chaque proposition.")).toHaveClass(
      "sm:hidden",
    );
    const tooth = (label: string) => {
      const header = within(teeth).getByRole("rowheader", { name: label });
      return within(header.closest("tr") as HTMLElement).getAllByRole("cell");
    };
    const [mine11, leroy11, bernard11] = tooth("Dent 11") as HTMLElement[];
    expect(mine11).toHaveTextContent("HBLD634 · Couronne céramo-métallique");
    expect(leroy11).toHaveTextContent(money("^HBLD634 · Couronne céramo-métalliqueReste à charge : 0,00 €$"));
    expect(
      within(bernard11 as HTMLElement).getByText("dent non traitée dans cette proposition"),
    ).toBeInTheDocument();
    const [, leroy36, bernard36] = tooth("Dent 36") as HTMLElement[];
    expect(within(leroy36 as HTMLElement).getByText("matériau différent")).toBeInTheDocument();
    expect(bernard36).toHaveTextContent(
      money(`^HBLD734 · ${MOLAR.replace(/[()]/g, "\\$&")}Reste à charge : 460,00 €$`),
    );
  });

  it("une proposition non détaillée : son prix dit comme un prix, son économie sur le prix, aucune dent « non traitée »", async () => {
    const martin = { ...offer("g", "Paul Martin", [], "2026-11-24T09:00:00.000Z"), amount_cents: 129_050 };
    stub(detail({ offers: [leroy, martin] }), COVER);
    renderApp(`${PAGE}/compare`);
    await screen.findByRole("table", { name: /^Comparaison des propositions/ });

    const [, global] = row("Reste à charge estimé") as HTMLElement[];
    // Not under the figure it does not have: « Non estimé », then its price.
    expect(global).toHaveTextContent(
      money("^—Non estiméPrix : 1 290,50 €Proposition non détaillée : reste à charge non estimé$"),
    );
    // Its saving is on the price, as the request page says it: 1 600 − 1 290,50 = 309,50 € (19 %).
    const [, saving] = row(/^Économie estimée/) as HTMLElement[];
    expect(saving?.textContent?.replace(/\s/g, " ")).toBe(
      "309,50 € (19 %)sur le prix (proposition non détaillée)",
    );
    // The row's heading names both bases: Dr Leroy's saving is on the reste à charge, his on the price.
    expect(screen.getByRole("rowheader", { name: /^Économie estimée/ })).toHaveTextContent(
      money(
        "^Économie estiméesur le reste à charge de votre devis \\(845,00 €\\), ou sur son prix \\(1 600,00 €\\) pour une proposition non détaillée$",
      ),
    );

    const teeth = screen.getByRole("table", { name: "Votre devis et les propositions, dent par dent" });
    expect(within(teeth).queryByText("dent non traitée dans cette proposition")).toBeNull();
    const none = within(teeth)
      .getByRole("rowheader", { name: "Sans dent précise" })
      .closest("tr") as HTMLElement;
    const [, , martinCell] = within(none).getAllByRole("cell");
    expect(martinCell).toHaveTextContent(money("^Proposition globalePrix : 1 290,50 €$"));
  });

  it("dit partielle une proposition qui ne traite pas toutes les dents du devis, sans la mettre en avant", async () => {
    stubPartialOffer();
    renderApp(`${PAGE}/compare`);
    const table = await screen.findByRole("table", { name: /^Comparaison des propositions/ });
    // The whole offer first, although the partial one's total is lower.
    const heads = within(table)
      .getAllByRole("columnheader")
      .map((th) => within(th).getByText(/^Dr /).textContent);
    expect(heads).toEqual(["Dr Marc Petit", "Dr Anne Roy"]);
    const rests = row("Reste à charge estimé");
    // Set apart among the offers treating the whole devis, and said so: the partial one's is lower.
    expect(rests[0]).toHaveTextContent(
      money("^Reste à charge estimé1 256,00 €Prix : 1 400,00 €Le plus bas pour tout le devis$"),
    );
    expect(rests[1]).toHaveTextContent(
      money(
        "^Reste à charge estimé628,00 €Prix : 700,00 €Proposition partielleNe traite pas la dent 46 de votre devis.$",
      ),
    );
    expect(within(rests[1] as HTMLElement).queryByText(/le plus bas/i)).not.toBeInTheDocument();
    // Like with like: 1 456 − 1 256 = 200 € (14 %); on 36 only, 728 − 628 = 100 € (14 %), not 828 € (57 %).
    expect(row(/^Économie estimée/).map((c) => c.textContent?.replace(/\s/g, " "))).toEqual([
      "200,00 € (14 %)",
      "100,00 € (14 %)sur la partie de votre devis qu'elle traite (728,00 €)",
    ]);
  });

  it("sur la page de la demande aussi, la proposition partielle vient après et le dit", async () => {
    stubPartialOffer();
    renderApp(PAGE);
    expect(
      await within(await screen.findByRole("region", { name: "Mon devis" })).findByText(
        "Reste à charge estimé",
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(offerNames()).toEqual(["Dr Marc Petit", "Dr Anne Roy"]));
    const partial = within(item("Anne Roy"));
    expect(partial.getByText("Proposition partielle")).toBeInTheDocument();
    expect(partial.getByText("Ne traite pas la dent 46 de votre devis.")).toBeInTheDocument();
    expect(
      partial.getByText(
        money(
          "^Économie estimée sur votre reste à charge : 100,00 € \\(14 %\\), sur la partie de votre devis qu'elle traite$",
        ),
      ),
    ).toBeInTheDocument();
    expect(within(item("Marc Petit")).queryByText("Proposition partielle")).not.toBeInTheDocument();
  });

  it("choisit les quatre restes à charge les plus bas quand il y a trop de propositions", () => {
    const many = ["1", "2", "3", "4", "5"].map((id, i) =>
      offer(
        id,
        `Dentiste ${id}`,
        [line("HBLD734", MOLAR, 36, 60_000 + i * 1000)],
        "2026-11-22T09:00:00.000Z",
      ),
    );
    // The cheapest price has the highest reste à charge here.
    const rests = new Map(many.map((o, i) => [o.id, 10_000 - i * 1000]));
    const chosen = chooseCompared(many, null, rests, "in_review");
    expect(chosen.offers.map((o) => o.id)).toEqual(["5", "4", "3", "2"]);
    expect(chosen.notice).toMatch(
      /Les quatre propositions au reste à charge estimé le plus bas sont comparées/,
    );
  });
});

describe("ma mutuelle (profil patient)", () => {
  const open = (handlers: Parameters<typeof stubApi>[1]) => {
    const calls = stubApi(patient, handlers);
    renderApp("/patient/profile");
    return { calls, user: userEvent.setup() };
  };
  const percent = () => screen.getByRole("textbox", { name: /Remboursement des prothèses dentaires/ });

  it("enregistre la mutuelle saisie et le dit", async () => {
    const bodies: unknown[] = [];
    const { user } = open({
      "GET /api/patient/cover": () => json(200, { cover: null }),
      "PUT /api/patient/cover": (body) => {
        bodies.push(body);
        return json(200, { cover: body, message: COVER_MESSAGES.saved });
      },
    });
    const form = await screen.findByRole("form", { name: "Ma mutuelle" });
    expect(screen.getByText(/pour estimer votre reste à charge sur chaque proposition/)).toBeInTheDocument();
    expect(within(form).getByRole("radio", { name: /^RO inclus/ })).toBeChecked();
    expect(within(form).getByRole("checkbox", { name: "Contrat responsable" })).toBeChecked();
    expect(within(form).queryByRole("button", { name: "Retirer ma mutuelle" })).not.toBeInTheDocument();

    await user.click(within(form).getByRole("button", { name: /^200\s%$/ }));
    expect(percent()).toHaveValue("200");
    await user.click(within(form).getByRole("radio", { name: /^En plus de l'Assurance Maladie/ }));
    await user.type(within(form).getByLabelText("Plafond annuel pour les prothèses (optionnel)"), "1 500");
    await user.click(within(form).getByRole("button", { name: "Enregistrer ma mutuelle" }));
    expect(await screen.findByText(COVER_MESSAGES.saved)).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        percent_of_br: 200,
        ro_included: false,
        annual_ceiling_cents: 150_000,
        implant_allowance_cents: null,
        responsible: true,
      },
    ]);
    expect(await within(form).findByRole("button", { name: "Retirer ma mutuelle" })).toBeInTheDocument();
  });

  it("montre l'erreur sur le champ, du navigateur comme du serveur", async () => {
    const bodies: unknown[] = [];
    const refusal = "Le plafond annuel est trop élevé.";
    const { user } = open({
      "GET /api/patient/cover": () => json(200, { cover: COVER }),
      "PUT /api/patient/cover": (body) => {
        bodies.push(body);
        return json(400, {
          error: { code: "VALIDATION", message: refusal, fields: { annual_ceiling_cents: refusal } },
        });
      },
    });
    const form = await screen.findByRole("form", { name: "Ma mutuelle" });
    expect(percent()).toHaveValue("200");
    await user.clear(percent());
    await user.type(percent(), "600");
    await user.click(within(form).getByRole("button", { name: "Enregistrer ma mutuelle" }));
    expect(percent()).toHaveAttribute("aria-invalid", "true");
    expect(percent()).toHaveAccessibleDescription(expect.stringContaining(COVER_MESSAGES.percentInvalid));
    expect(bodies).toEqual([]);

    await user.clear(percent());
    await user.type(percent(), "250");
    expect(percent()).not.toHaveAttribute("aria-invalid");
    const ceiling = within(form).getByLabelText("Plafond annuel pour les prothèses (optionnel)");
    await user.type(ceiling, "99999");
    await user.click(within(form).getByRole("button", { name: "Enregistrer ma mutuelle" }));
    await waitFor(() => expect(ceiling).toHaveAttribute("aria-invalid", "true"));
    expect(ceiling).toHaveAccessibleDescription(expect.stringContaining(refusal));
    expect(bodies).toEqual([
      expect.objectContaining({ percent_of_br: 250, annual_ceiling_cents: 9_999_900 }),
    ]);
  });

  it("relit la mutuelle enregistrée dans le formulaire et la renvoie à l'identique", () => {
    const cover: Cover = { ...COVER, annual_ceiling_cents: 150_000, implant_allowance_cents: 80_050 };
    const values = valuesOf(cover);
    expect(values).toMatchObject({ percent: "200", ceiling: "1 500,00", implant: "800,50" });
    expect(parseCover(values)).toEqual({ cover });
    expect(parseCover({ ...values, percent: "200 %" })).toEqual({ cover });
    expect(parseCover({ ...values, percent: "99", implant: "beaucoup" })).toEqual({
      errors: {
        percent_of_br: COVER_MESSAGES.percentInvalid,
        implant_allowance_cents: COVER_MESSAGES.amountInvalid,
      },
    });
    expect(parseCover({ ...values, percent: "150,5" })).toEqual({
      errors: { percent_of_br: COVER_MESSAGES.percentInvalid },
    });
  });

  it("retire la mutuelle après confirmation", async () => {
    const { user, calls } = open({
      "GET /api/patient/cover": () => json(200, { cover: COVER }),
      "DELETE /api/patient/cover": () => json(200, { cover: null, message: COVER_MESSAGES.removed }),
    });
    const deleted = () => calls.mock.calls.some(([, init]) => init?.method === "DELETE");
    const form = await screen.findByRole("form", { name: "Ma mutuelle" });
    const remove = within(form).getByRole("button", { name: "Retirer ma mutuelle" });
    await user.click(remove);
    let dialog = await screen.findByRole("dialog", { name: "Retirer votre mutuelle\u202f?" });
    await user.click(within(dialog).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(deleted()).toBe(false);
    await waitFor(() => expect(remove).toHaveFocus());
    expect(percent()).toHaveValue("200");

    await user.click(remove);
    dialog = await screen.findByRole("dialog", { name: "Retirer votre mutuelle\u202f?" });
    await user.click(within(dialog).getByRole("button", { name: "Retirer ma mutuelle" }));
    expect(await screen.findByText(spaced(COVER_MESSAGES.removed))).toBeInTheDocument();
    expect(deleted()).toBe(true);
    expect(percent()).toHaveValue("");
    expect(within(form).queryByRole("button", { name: "Retirer ma mutuelle" })).not.toBeInTheDocument();
  });
});
