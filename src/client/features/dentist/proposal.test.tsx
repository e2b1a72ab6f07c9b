import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { addDays, parisToday } from "../../../shared/policies/offers";
import type { DentistRequestDetail } from "../../../shared/schemas/dentist";
import { type MyOffer, OFFER_MESSAGES, type OfferDto } from "../../../shared/schemas/offers";
import { setRealtimeSocketFactory } from "../../lib/realtime";
import { CROWN_ON_21, makeDentist, makeDentistRequestDetail } from "../../test/dentist";
import { FakeSocket, resetRealtime } from "../../test/fakes";
import { json, renderApp, stubApi } from "../../test/renderApp";
import { freeLine } from "../../test/requests";
import { spaced } from "../../test/text";

const dentist = makeDentist();

afterEach(resetRealtime);

const REQUEST_ID = "22222222-2222-4222-8222-222222222222";
const PAGE = `/dentist/quote-request/${REQUEST_ID}`;
const DETAIL = `GET /api/dentist/requests/${REQUEST_ID}`;
const MINE = `GET /api/dentist/requests/${REQUEST_ID}/offer`;
const SEND = `POST /api/dentist/requests/${REQUEST_ID}/offers`;

const doc = (id: string, file_name: string, document_type: "quote" | "xray" | "photo" | "other") => ({
  id,
  file_name,
  size: 120_000,
  mime_type: "application/pdf",
  document_type,
  created_at: "2026-11-21T10:00:00.000Z",
});

const detail = (overrides: Partial<DentistRequestDetail> = {}) =>
  makeDentistRequestDetail(REQUEST_ID, {
    documents: [
      doc("d1", "devis-couronne.pdf", "quote"),
      doc("d2", "devis-second.pdf", "quote"),
      doc("d3", "panoramique.pdf", "xray"),
      doc("d4", "ordonnance.pdf", "other"),
    ],
    ...overrides,
  });

const noOffer: MyOffer = { offer: null, may_offer: true, patient_age: 42, last_fees: [] };

function sentOffer(overrides: Partial<OfferDto> = {}): OfferDto {
  return {
    id: "o-1",
    request_id: REQUEST_ID,
    amount_cents: 125_050,
    comment: "Couronne céramique, deux séances.",
    valid_until: null,
    state: "sent",
    lines: [freeLine("Couronne céramique", 36, 125_050)],
    slots: [],
    taken_slots: [],
    created_at: "2026-11-22T09:00:00.000Z",
    ...overrides,
  };
}

/** Opens the page with these answers; returns the bodies sent to POST …/offers. */
async function openForm(handlers: Parameters<typeof stubApi>[1] = {}) {
  const sent: unknown[] = [];
  stubApi(dentist, {
    [DETAIL]: () => json(200, detail()),
    [MINE]: () => json(200, noOffer),
    [SEND]: (body) => {
      sent.push(body);
      return json(201, {
        offer: sentOffer(),
        conversation_id: "c-7",
        message: "Votre proposition a été envoyée au patient",
      });
    },
    ...handlers,
  });
  const user = userEvent.setup();
  renderApp(PAGE);
  const amount = await screen.findByLabelText(/Montant de la proposition/);
  return { user, amount, sent, submit: screen.getByRole("button", { name: "Envoyer la proposition" }) };
}

const future = (days: number) => addDays(parisToday(new Date()), days);

const lineGroup = (n: number) => screen.getByRole("group", { name: `Acte ${n}` });

/** Fills line n of the offer: the tooth on the chart, the act from the combobox (or typed), the fee. */
async function fillLine(
  user: ReturnType<typeof userEvent.setup>,
  n: number,
  { tooth, search, option, fee }: { tooth?: number; search: string; option?: RegExp | string; fee: string },
) {
  const row = lineGroup(n);
  if (tooth !== undefined) {
    await user.click(within(row).getByRole("button", { name: /^Dent / }));
    await user.click(within(row).getByRole("button", { name: new RegExp(`^Dent ${tooth} \\(`) }));
  }
  await user.type(within(row).getByRole("combobox", { name: /Acte/ }), search);
  if (option) await user.click(screen.getByRole("option", { name: option }));
  else await user.tab();
  await user.type(within(row).getByRole("textbox", { name: /Honoraires/ }), fee);
}

describe("page de proposition : le formulaire", () => {
  it("n'envoie rien sans montant : le clic le dit sous le champ et y place le curseur ; montre le patient", async () => {
    const { user, amount, submit, sent } = await openForm();
    expect(submit).toBeEnabled();
    await user.type(amount, "   ");
    await user.click(submit);
    expect(await screen.findByText("Veuillez indiquer le montant de votre proposition.")).toBeInTheDocument();
    expect(amount).toHaveAttribute("aria-invalid", "true");
    expect(amount).toHaveFocus();
    expect(sent).toHaveLength(0);
    // A third decimal: said as such, not « un nombre positif ».
    await user.type(amount, "1 250,505");
    await user.click(submit);
    expect(
      await screen.findByText("Le montant a deux décimales au plus (ex. 1 250,50)."),
    ).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.clear(amount);
    await user.type(amount, "1 250,50");
    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ amount_cents: 125_050 });
    expect(screen.getByText("42 ans")).toBeInTheDocument();
    // The patient's e-mail is never shown to a dentist: they talk in the product's conversations.
    expect(screen.queryByText("E-mail")).not.toBeInTheDocument();
    expect(screen.getByText("21 novembre 2026")).toBeInTheDocument();
    expect(screen.getByText("Urgent")).toBeInTheDocument();
    expect(screen.getByText("Non spécifié")).toBeInTheDocument();
    expect(screen.getByText("Couronne sur la 36.")).toBeInTheDocument();
  });

  it("détaille les actes : le montant suit leur total, envoyés avec code, dent et BR", async () => {
    const { user, amount, submit, sent } = await openForm();
    await user.type(amount, "1000");
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await fillLine(user, 1, { tooth: 36, search: "céramo molaire", option: /HBLD734/, fee: "400" });
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await fillLine(user, 2, { search: "Gouttière", fee: "150,50" });
    // A free line's BR is not the dentist's to set (ADR 038): no field for it.
    expect(within(lineGroup(2)).queryByRole("textbox", { name: /Base de remboursement/ })).toBeNull();
    expect(screen.getByText("Total des actes").nextElementSibling).toHaveTextContent(/550,50\s€/);
    expect(amount).toHaveValue("550,50");
    expect(amount).toHaveAttribute("readonly");
    // A free-tariff crown: the devis normalisé also offers its 100 % Santé alternative — on a molar since
    // 2026, the zirconia crown.
    expect(within(lineGroup(1)).getByText(/Alternative 100 % Santé pour la dent 36/)).toHaveTextContent(
      /Couronne céramique monolithique zircone \(molaire\) \(HBLD073\), plafond 453,20\s€/,
    );
    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      amount_cents: 55_050,
      comment: "",
      lines: [
        {
          code: "HBLD734",
          act: "Couronne céramo-métallique (molaire)",
          tooth: 36,
          fee_cents: 40_000,
          br_cents: null,
        },
        { code: null, act: "Gouttière", tooth: null, fee_cents: 15_050, br_cents: null },
      ],
      valid_until: null,
      slots: [],
    });
  });

  it("refuse des honoraires au-dessus du plafond de HBLD634, en nommant le plafond", async () => {
    const { user, submit, sent } = await openForm();
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await fillLine(user, 1, { tooth: 21, search: "HBLD634", option: /HBLD634/, fee: "600" });
    const fee = within(lineGroup(1)).getByRole("textbox", { name: /Honoraires/ });
    expect(fee).toHaveAttribute("aria-invalid", "true");
    expect(fee).toHaveAccessibleDescription(
      /^Au-dessus du plafond 100\s% Santé \(515,00\s€\)\s: les honoraires de cet acte ne peuvent pas le dépasser\.$/,
    );
    expect(submit).toBeEnabled();
    expect(submit).toHaveAccessibleDescription(
      /^Corrigez d'abord l'acte 1\s: au-dessus du plafond 100\s% Santé \(515,00\s€\)/,
    );
    await user.click(submit);
    expect(sent).toHaveLength(0);
    await user.clear(fee);
    await user.type(fee, "515");
    expect(fee).not.toHaveAttribute("aria-invalid");
    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      amount_cents: 51_500,
      lines: [{ code: "HBLD634", tooth: 21, fee_cents: 51_500, br_cents: null }],
    });
  });

  it("explique un acte qui ne convient pas à la dent, et retire une ligne", async () => {
    const { user, amount, submit, sent } = await openForm();
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    // The act first (crowns of the front teeth), then a molar.
    await fillLine(user, 1, { search: "HBLD634", option: /HBLD634/, fee: "300", tooth: undefined });
    await user.click(within(lineGroup(1)).getByRole("button", { name: /^Dent / }));
    await user.click(within(lineGroup(1)).getByRole("button", { name: "Dent 36 (molaire)" }));
    expect(within(lineGroup(1)).getByText("Cet acte ne s'applique pas à la dent 36.")).toBeInTheDocument();
    expect(within(lineGroup(1)).getByRole("button", { name: /^Dent 36/ })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(submit).toBeEnabled();
    expect(
      screen.getByText(/^Corrigez d'abord l'acte 1\s: cet acte ne s'applique pas à la dent 36\.$/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Supprimer l'acte 1" }));
    expect(screen.queryByRole("group", { name: "Acte 1" })).not.toBeInTheDocument();
    expect(amount).not.toHaveAttribute("readonly");
    await user.clear(amount);
    await user.type(amount, "300");
    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ amount_cents: 30_000, lines: [] });
  });

  it("dit d'honoraires à trois décimales qu'ils en ont une de trop", async () => {
    const { user, submit, sent } = await openForm();
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await fillLine(user, 1, { search: "Gouttière", fee: "150,505" });
    await user.click(submit);
    expect(
      await within(lineGroup(1)).findByText("Les honoraires ont deux décimales au plus (ex. 650,50)."),
    ).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it("dit ce qui manque avant l'envoi, et le montre sous chaque champ au clic", async () => {
    const { user, submit, sent } = await openForm();
    expect(submit).toHaveAccessibleDescription(
      "Indiquez le montant de votre proposition, ou détaillez les actes, pour pouvoir l'envoyer.",
    );
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    expect(submit).toBeEnabled();
    expect(submit).toHaveAccessibleDescription(
      /^Indiquez les honoraires des actes\s: leur total fait le montant de la proposition\.$/,
    );
    await user.click(submit);
    // The line's missing act and fee are said on the line itself, and nothing is sent.
    const fee = within(lineGroup(1)).getByRole("textbox", { name: /Honoraires/ });
    await waitFor(() => expect(fee).toHaveAttribute("aria-invalid", "true"));
    expect(sent).toHaveLength(0);
  });

  it("reprend les actes du devis du patient", async () => {
    const quoteLines: DentistRequestDetail["quote_lines"] = [
      CROWN_ON_21,
      {
        code: null,
        act: "Gouttière de protection",
        tooth: null,
        fee_cents: 150_00,
        basket: "libre",
        br_cents: 0,
        ceiling_cents: null,
      },
    ];
    const { user, amount, submit, sent } = await openForm({
      [DETAIL]: () => json(200, detail({ quote_lines: quoteLines })),
    });
    const card = screen
      .getByRole("heading", { name: "Devis du patient" })
      .closest("div.rounded-ui") as HTMLElement;
    const list = within(card).getByRole("list", { name: "Actes du devis du patient" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
    expect(list).toHaveTextContent("Dent 21");
    expect(list).toHaveTextContent("HBLD634");
    expect(list).toHaveTextContent(/au-dessus du plafond 100 % Santé \(515,00\s€\)/);
    expect(within(card).getByText(/Total du devis/)).toHaveTextContent(/750,00\s€/);

    await user.click(screen.getByRole("button", { name: "Reprendre les actes du devis" }));
    expect(within(lineGroup(1)).getByRole("combobox", { name: /Acte/ })).toHaveValue(
      "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
    );
    expect(within(lineGroup(1)).getByRole("button", { name: /^Dent 21/ })).toBeInTheDocument();
    expect(within(lineGroup(2)).getByRole("combobox", { name: /Acte/ })).toHaveValue(
      "Gouttière de protection",
    );
    expect(amount).toHaveValue("750");
    // The patient's dentist was above the ceiling: an offer may not be.
    const fee = within(lineGroup(1)).getByRole("textbox", { name: /Honoraires/ });
    expect(fee).toHaveValue("600,00");
    expect(fee).toHaveAttribute("aria-invalid", "true");
    await user.clear(fee);
    await user.type(fee, "480");
    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      amount_cents: 630_00,
      lines: [
        { code: "HBLD634", tooth: 21, fee_cents: 480_00, br_cents: null },
        { code: null, act: "Gouttière de protection", tooth: null, fee_cents: 150_00, br_cents: null },
      ],
    });
  });

  it("part de vos derniers honoraires par acte (ADR 097)", async () => {
    const quoteLines: DentistRequestDetail["quote_lines"] = [
      CROWN_ON_21,
      freeLine("Gouttière de protection", null, 150_00),
    ];
    const { user, amount, submit, sent } = await openForm({
      [DETAIL]: () => json(200, detail({ quote_lines: quoteLines })),
      [MINE]: () =>
        json(200, {
          ...noOffer,
          last_fees: [
            { code: "HBLD634", fee_cents: 480_00, offered_at: "2026-11-12T10:00:00.000Z" },
            { code: "HBLD734", fee_cents: 390_00, offered_at: "2026-11-02T10:00:00.000Z" },
            { code: "HBLD073", fee_cents: 440_00, offered_at: "2026-11-03T10:00:00.000Z" },
          ],
        }),
    });
    await user.click(screen.getByRole("button", { name: "Reprendre les actes du devis" }));
    expect(
      await screen.findByText(
        spaced(
          "Les actes du devis ont été repris, avec vos derniers honoraires pour 1 acte sur 2 : vérifiez les honoraires et ajustez les matériaux.",
        ),
      ),
    ).toBeInTheDocument();
    // His 480 € instead of the patient's dentist's 600 € (above the ceiling); the free line as it was.
    const fee = within(lineGroup(1)).getByRole("textbox", { name: /Honoraires/ });
    expect(fee).toHaveValue("480,00");
    expect(fee).not.toHaveAttribute("aria-invalid");
    expect(within(lineGroup(2)).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("150,00");
    expect(amount).toHaveValue("630");
    const note = screen.getByText(/Vos derniers honoraires pour cet acte/);
    expect(note).toHaveTextContent(
      /^Vos derniers honoraires pour cet acte\s:\s480,00\s€ \(proposition du 12\/11\/2026\)$/,
    );
    expect(screen.queryByRole("button", { name: /^Reprendre ce montant .* pour l'acte 1$/ })).toBeNull();

    // Another amount typed: the button puts his last one back.
    await user.clear(fee);
    await user.type(fee, "500");
    await user.click(
      screen.getByRole("button", { name: /^Reprendre ce montant \(480,00\s€\) pour l'acte 1$/ }),
    );
    expect(fee).toHaveValue("480,00");

    // An act he has proposed, chosen on a new line: its fee is his last one.
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    const third = lineGroup(3);
    await user.click(within(third).getByRole("button", { name: /^Dent / }));
    await user.click(within(third).getByRole("button", { name: /^Dent 36 \(/ }));
    await user.type(within(third).getByRole("combobox", { name: /Acte/ }), "céramo molaire");
    await user.click(screen.getByRole("option", { name: /HBLD734/ }));
    expect(within(lineGroup(3)).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("390,00");
    // Replaced by its 100 % Santé alternative: the alternative's last fee, not the crown's.
    await user.click(within(third).getByRole("button", { name: "Remplacer l'acte 3" }));
    expect(within(lineGroup(3)).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("440,00");
    await user.click(within(third).getByRole("button", { name: /^Dent / }));
    await user.click(within(third).getByRole("button", { name: /^Dent 36 \(/ }));
    await user.clear(within(third).getByRole("combobox", { name: /Acte/ }));
    await user.type(within(third).getByRole("combobox", { name: /Acte/ }), "céramo molaire");
    await user.click(screen.getByRole("option", { name: /HBLD734/ }));
    expect(within(lineGroup(3)).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("390,00");
    // Emptied by him on the same act, it stays empty.
    await user.clear(within(lineGroup(3)).getByRole("textbox", { name: /Honoraires/ }));
    expect(within(lineGroup(3)).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("");
    await user.type(within(lineGroup(3)).getByRole("textbox", { name: /Honoraires/ }), "400");

    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      amount_cents: 1_030_00,
      lines: [
        { code: "HBLD634", tooth: 21, fee_cents: 480_00 },
        { code: null, fee_cents: 150_00 },
        { code: "HBLD734", tooth: 36, fee_cents: 400_00 },
      ],
    });
  });

  it("ne reprend pas un dernier tarif au-dessus du plafond en vigueur (ADR 097)", async () => {
    const { user } = await openForm({
      [DETAIL]: () => json(200, detail({ quote_lines: [CROWN_ON_21] })),
      [MINE]: () =>
        json(200, {
          ...noOffer,
          last_fees: [{ code: "HBLD634", fee_cents: 530_00, offered_at: "2026-11-12T10:00:00.000Z" }],
        }),
    });
    await user.click(screen.getByRole("button", { name: "Reprendre les actes du devis" }));
    expect(
      await screen.findByText(
        spaced("Les actes du devis ont été repris : ajustez les honoraires et les matériaux."),
      ),
    ).toBeInTheDocument();
    // The devis's fee (above the ceiling, said on the line), and his last one beside it to take if he will.
    expect(within(lineGroup(1)).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("600,00");
    expect(screen.getByText(/Vos derniers honoraires pour cet acte/)).toHaveTextContent(/530,00\s€/);
  });

  it("demande confirmation avant de remplacer des actes déjà saisis", async () => {
    const { user } = await openForm({
      [DETAIL]: () =>
        json(
          200,
          detail({
            quote_lines: [
              {
                code: null,
                act: "Gouttière",
                tooth: null,
                fee_cents: 100_00,
                basket: "libre",
                br_cents: 0,
                ceiling_cents: null,
              },
            ],
          }),
        ),
    });
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await fillLine(user, 1, { search: "Détartrage", fee: "80" });
    await user.click(screen.getByRole("button", { name: "Reprendre les actes du devis" }));
    const dialog = await screen.findByRole("dialog", { name: /^Remplacer vos actes\s\?$/ });
    await user.click(within(dialog).getByRole("button", { name: "Remplacer" }));
    await waitFor(() =>
      expect(within(lineGroup(1)).getByRole("combobox", { name: /Acte/ })).toHaveValue("Gouttière"),
    );
  });

  it("propose trois créneaux au plus", async () => {
    const { user } = await openForm();
    const add = screen.getByRole("button", { name: "Ajouter un créneau" });
    await user.click(add);
    await user.click(add);
    expect(add).toBeEnabled();
    await user.click(add);
    expect(add).toBeDisabled();
    expect(screen.getByLabelText("Date du créneau 3")).toBeInTheDocument();
    expect(screen.queryByLabelText("Date du créneau 4")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Retirer le créneau 2" }));
    expect(add).toBeEnabled();
    expect(screen.queryByLabelText("Date du créneau 3")).not.toBeInTheDocument();
    // Not the body: « Ajouter un créneau », enabled again.
    await waitFor(() => expect(add).toHaveFocus());
  });

  it("refuse un créneau passé et une validité passée, avant tout envoi", async () => {
    const { user, amount, submit, sent } = await openForm();
    await user.type(amount, "900");
    await user.click(screen.getByRole("button", { name: "Ajouter un créneau" }));
    fireEvent.change(screen.getByLabelText("Date du créneau 1"), { target: { value: "2020-01-15" } });
    fireEvent.change(screen.getByLabelText("Heure du créneau 1"), { target: { value: "10:00" } });
    fireEvent.change(screen.getByLabelText("Valable jusqu'au (optionnel)"), {
      target: { value: "2020-01-01" },
    });
    await user.click(submit);
    expect(await screen.findByText("Les créneaux proposés doivent être dans le futur.")).toBeInTheDocument();
    expect(screen.getByText("La date de validité doit être aujourd'hui ou plus tard.")).toBeInTheDocument();
    expect(screen.getByLabelText("Date du créneau 1")).toHaveAttribute("aria-invalid", "true");
    expect(sent).toEqual([]);
  });

  it("montre l'erreur du serveur sous le bon champ", async () => {
    const { user, amount, submit } = await openForm({
      [SEND]: () =>
        json(400, {
          error: {
            code: "VALIDATION_ERROR",
            message: "Certains champs sont invalides.",
            fields: {
              "lines.0.fee_cents": "Honoraires refusés par le serveur.",
              "slots.0": "Créneau refusé.",
            },
          },
        }),
    });
    await user.type(amount, "500");
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await fillLine(user, 1, { search: "Couronne provisoire sur mesure", fee: "500" });
    await user.click(screen.getByRole("button", { name: "Ajouter un créneau" }));
    fireEvent.change(screen.getByLabelText("Date du créneau 1"), { target: { value: future(10) } });
    fireEvent.change(screen.getByLabelText("Heure du créneau 1"), { target: { value: "14:30" } });
    await user.click(submit);
    const message = await screen.findByText("Honoraires refusés par le serveur.");
    const fee = within(lineGroup(1)).getByRole("textbox", { name: /Honoraires/ });
    expect(fee).toHaveAttribute("aria-invalid", "true");
    expect(fee.getAttribute("aria-describedby")).toContain(message.id);
    expect(screen.getByText("Créneau refusé.")).toBeInTheDocument();
    expect(await screen.findByText("Impossible d'envoyer la proposition")).toBeInTheDocument();
  });

  it("envoie la proposition puis la montre en lecture seule", async () => {
    const { user, amount, submit, sent } = await openForm({
      [SEND]: (body) => {
        sent.push(body);
        return json(201, {
          offer: sentOffer({
            amount_cents: 125_050,
            valid_until: "2026-12-31",
            slots: ["2026-12-03T13:30:00.000Z"],
          }),
          conversation_id: "c-7",
          message: "Votre proposition a été envoyée au patient",
        });
      },
    });
    await user.type(amount, "1 250,50");
    await user.type(screen.getByLabelText("Commentaire (optionnel)"), "  Deux séances.  ");
    await user.click(screen.getByRole("button", { name: "Ajouter un créneau" }));
    fireEvent.change(screen.getByLabelText("Date du créneau 1"), { target: { value: future(12) } });
    fireEvent.change(screen.getByLabelText("Heure du créneau 1"), { target: { value: "14:30" } });
    fireEvent.change(screen.getByLabelText("Valable jusqu'au (optionnel)"), {
      target: { value: future(30) },
    });
    await user.click(submit);
    expect((await screen.findAllByText("Votre proposition a été envoyée au patient")).length).toBeGreaterThan(
      0,
    );
    expect(sent).toEqual([
      {
        amount_cents: 125_050,
        comment: "Deux séances.",
        lines: [],
        valid_until: future(30),
        slots: [`${future(12)}T14:30`],
      },
    ]);
    expect(screen.queryByRole("button", { name: "Envoyer la proposition" })).not.toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Ma proposition" })).toBeInTheDocument();
    expect(screen.getByText("Envoyée")).toBeInTheDocument();
    expect(screen.getByText("Montant proposé").nextElementSibling).toHaveTextContent(/1\s250,50\s€/);
    expect(screen.getByText("Valable jusqu'au 31 décembre 2026")).toBeInTheDocument();
    expect(screen.getByText("jeudi 3 décembre 2026 à 14:30")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Voir la conversation" })).toHaveAttribute(
      "href",
      "/dentist/messages/c-7",
    );
  });
});

describe("page de proposition : les états", () => {
  it("après un refus 409, montre la proposition déjà envoyée", async () => {
    let mine: MyOffer = noOffer;
    const { user, amount, submit } = await openForm({
      [MINE]: () => json(200, mine),
      [SEND]: () => {
        mine = {
          offer: sentOffer({ comment: "Envoyée depuis un autre onglet." }),
          may_offer: true,
          patient_age: 42,
          last_fees: [],
        };
        return json(409, {
          error: { code: "CONFLICT", message: "Vous avez déjà envoyé une proposition pour cette demande." },
        });
      },
    });
    await user.type(amount, "300");
    await user.click(submit);
    expect(
      await screen.findByText("Vous avez déjà envoyé une proposition pour cette demande."),
    ).toBeInTheDocument();
    expect(await screen.findByText("Envoyée depuis un autre onglet.")).toBeInTheDocument();
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();
  });

  it("la page de la demande mène à « Voir ma proposition » une fois envoyée", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, { offer: sentOffer(), may_offer: true, patient_age: null, last_fees: [] }),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const link = await screen.findByRole("link", { name: "Voir ma proposition" });
    expect(link).toHaveAttribute("href", PAGE);
    expect(screen.queryByRole("link", { name: "Proposer un devis" })).not.toBeInTheDocument();
  });

  it("montre une proposition déjà envoyée en lecture seule", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () =>
        json(200, {
          offer: sentOffer({
            state: "expired",
            slots: ["2026-12-03T13:30:00.000Z", "2026-12-04T08:00:00.000Z"],
            taken_slots: ["2026-12-03T13:30:00.000Z"],
          }),
          may_offer: true,
          patient_age: null,
          last_fees: [],
        }),
    });
    renderApp(PAGE);
    expect(await screen.findByText("Couronne céramique, deux séances.")).toBeInTheDocument();
    expect(screen.getByText("Expirée")).toBeInTheDocument();
    // A time he has since confirmed for another patient is said taken, in his words.
    expect(
      within(screen.getByRole("list", { name: "Créneaux proposés" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "jeudi 3 décembre 2026 à 14:30 — déjà pris par un autre de vos rendez-vous",
      "vendredi 4 décembre 2026 à 09:00",
    ]);
    expect(screen.getByText("dent 36", { exact: false })).toBeInTheDocument();
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();
    expect(screen.queryByText(/ans$/)).not.toBeInTheDocument();
  });

  it("explique qu'une demande n'accepte plus de propositions", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, { offer: null, may_offer: false, patient_age: 30, last_fees: [] }),
    });
    renderApp(PAGE);
    expect(await screen.findByText("Cette demande n'accepte plus de propositions.")).toBeInTheDocument();
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();
  });

  it("apprend en direct que la demande vient d'être close, puis rouverte, sans relire la demande", async () => {
    setRealtimeSocketFactory(() => new FakeSocket());
    let open = true;
    const fetchMock = stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, { ...noOffer, may_offer: open }),
    });
    renderApp(PAGE);
    expect(await screen.findByLabelText(/Montant de la proposition/)).toBeInTheDocument();
    await waitFor(() => expect(FakeSocket.last).not.toBeNull());
    const reads = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith(REQUEST_ID)).length;
    const detailReads = reads();
    expect(detailReads).toBeGreaterThan(0);
    // The patient chose another dentist: every dentist is told that the open requests changed.
    open = false;
    act(() => {
      FakeSocket.last?.push({ type: "ready", user_id: dentist.id });
      FakeSocket.last?.push({ type: "requests" });
    });
    expect(await screen.findByText("Cette demande n'accepte plus de propositions.")).toBeInTheDocument();
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();
    // She withdrew her acceptance: the form is back.
    open = true;
    act(() => FakeSocket.last?.push({ type: "requests" }));
    expect(await screen.findByLabelText(/Montant de la proposition/)).toBeInTheDocument();
    // The request's detail was not read again (each reading is recorded in her access history).
    expect(reads()).toBe(detailReads);
  });

  it("dit quand la demande est introuvable", async () => {
    stubApi(dentist, {
      [DETAIL]: () =>
        json(404, { error: { code: "NOT_FOUND", message: "Impossible de trouver cette demande." } }),
    });
    renderApp(PAGE);
    expect(await screen.findByRole("heading", { level: 1, name: "Demande non trouvée" })).toBeInTheDocument();
    expect(screen.getByText("Impossible de trouver cette demande.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Retour" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Retour aux demandes" })).toHaveAttribute(
      "href",
      "/dentist/quote-requests",
    );
  });

  it("ne montre rien d'un patient à un dentiste non vérifié", async () => {
    const calls = stubApi({ ...dentist, is_verified: false }, { [DETAIL]: () => json(200, detail()) });
    renderApp(PAGE);
    expect(await screen.findByRole("heading", { name: "En attente de vérification" })).toBeInTheDocument();
    expect(screen.queryByText("Inès Martin")).not.toBeInTheDocument();
    expect(calls.mock.calls.map(([url]) => String(url))).not.toContain(`/api/dentist/requests/${REQUEST_ID}`);
  });
});

describe("page de proposition : retirer sa proposition", () => {
  const WITHDRAW = "POST /api/dentist/offers/o-1/withdraw";

  it("retire la proposition après confirmation, puis permet d'en envoyer une nouvelle", async () => {
    let mine: MyOffer = { offer: sentOffer(), may_offer: false, patient_age: 42, last_fees: [] };
    const posted: string[] = [];
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, mine),
      [WITHDRAW]: () => {
        posted.push("o-1");
        mine = { offer: sentOffer({ state: "withdrawn" }), may_offer: true, patient_age: 42, last_fees: [] };
        return json(200, { offer: sentOffer({ state: "withdrawn" }), message: OFFER_MESSAGES.withdrawnDone });
      },
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    const withdraw = await screen.findByRole("button", { name: "Retirer ma proposition" });
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();

    await user.click(withdraw);
    let dialog = await screen.findByRole("dialog", { name: /^Retirer cette proposition\s\?$/ });
    expect(dialog).toHaveTextContent(
      /Le patient ne verra plus votre proposition de 1\s250,50\s€ à Inès Martin/,
    );
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(posted).toEqual([]);

    await user.click(withdraw);
    dialog = await screen.findByRole("dialog", { name: /^Retirer cette proposition\s\?$/ });
    await user.click(within(dialog).getByRole("button", { name: "Retirer la proposition" }));
    expect(await screen.findByText(OFFER_MESSAGES.withdrawnDone)).toBeInTheDocument();
    expect(posted).toEqual(["o-1"]);
    expect(await screen.findByText("Retirée")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Votre proposition retirée" })).toBeInTheDocument();
    expect(screen.getByText("Couronne céramique, deux séances.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Retirer ma proposition" })).not.toBeInTheDocument();
    // The server now says may_offer: the form is back, under the withdrawn offer.
    expect(await screen.findByRole("heading", { name: "Nouvelle proposition" })).toBeInTheDocument();
    // It starts from the withdrawn one, to correct rather than retype: amount, comment and acts.
    expect(screen.getByLabelText(/Montant de la proposition/)).toHaveValue("1250,50");
    expect(screen.getByLabelText(/Commentaire/)).toHaveValue("Couronne céramique, deux séances.");
    expect(screen.getByRole("group", { name: "Acte 1" })).toBeInTheDocument();
    expect(screen.getByText(/Reprise de votre proposition retirée/)).toBeInTheDocument();
    expect(screen.getByText("Vous pouvez envoyer une nouvelle proposition ci-dessous.")).toBeInTheDocument();
  });

  it("peut retirer une proposition expirée, pas une proposition acceptée ou clôturée", async () => {
    for (const [state, withdrawable] of [
      ["expired", true],
      ["accepted", false],
      ["closed", false],
    ] as const) {
      stubApi(dentist, {
        [DETAIL]: () => json(200, detail()),
        [MINE]: () =>
          json(200, { offer: sentOffer({ state }), may_offer: false, patient_age: null, last_fees: [] }),
      });
      const { unmount } = renderApp(PAGE);
      await screen.findByText("Couronne céramique, deux séances.");
      expect(screen.queryByRole("button", { name: "Retirer ma proposition" }) !== null).toBe(withdrawable);
      unmount();
    }
  });

  it("dit pourquoi le retrait est refusé", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, { offer: sentOffer(), may_offer: false, patient_age: null, last_fees: [] }),
      [WITHDRAW]: () => json(409, { error: { code: "CONFLICT", message: OFFER_MESSAGES.notWithdrawable } }),
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    await user.click(await screen.findByRole("button", { name: "Retirer ma proposition" }));
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Retirer la proposition" }),
    );
    expect(await screen.findByText(OFFER_MESSAGES.withdrawFailed)).toBeInTheDocument();
    expect(screen.getByText(spaced(OFFER_MESSAGES.notWithdrawable))).toBeInTheDocument();
  });
});

describe("page de proposition : les documents", () => {
  it("filtre les documents par onglet, avec les nombres et un texte par onglet vide", async () => {
    stubApi(dentist, { [DETAIL]: () => json(200, detail()), [MINE]: () => json(200, noOffer) });
    const user = userEvent.setup();
    renderApp(PAGE);
    const all = await screen.findByRole("tab", { name: "Tous (4)" });
    expect(all).toHaveAttribute("aria-selected", "true");
    const panel = () => screen.getByRole("tabpanel");
    expect(within(panel()).getAllByRole("listitem")).toHaveLength(4);

    await user.click(screen.getByRole("tab", { name: "Devis (2)" }));
    expect(within(panel()).getByText("devis-couronne.pdf")).toBeInTheDocument();
    expect(within(panel()).getByText("devis-second.pdf")).toBeInTheDocument();
    expect(within(panel()).queryByText("panoramique.pdf")).not.toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Radiographies (1)" }));
    expect(within(panel()).getAllByRole("listitem")).toHaveLength(1);
    expect(
      within(panel()).getByRole("button", { name: "Voir panoramique.pdf (nouvel onglet)" }),
    ).toBeInTheDocument();
    expect(within(panel()).getByRole("button", { name: "Télécharger panoramique.pdf" })).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Photos (0)" }));
    expect(within(panel()).getByText("Aucune photo pour cette demande.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Tout télécharger" })).toBeEnabled();
  });

  it("désactive 'Tout télécharger' sans document", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail({ documents: [] })),
      [MINE]: () => json(200, noOffer),
    });
    renderApp(PAGE);
    expect(await screen.findByText("Aucun document pour cette demande.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Tout télécharger" })).toBeDisabled();
  });
});
