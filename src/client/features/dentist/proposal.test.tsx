import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { addDays, parisToday } from "../../../shared/policies/offers";
import type { DentistRequestDetail } from "../../../shared/schemas/dentist";
import { type MyOffer, OFFER_MESSAGES, type OfferDto } from "../../../shared/schemas/offers";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { formPathOf, toOfferInput } from "./ProposalPage";

const dentist = makeProfile({
  role: "dentist",
  first_name: "Sophie",
  last_name: "Leroy",
  full_name: "Sophie Leroy",
  is_verified: true,
});

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

function detail(overrides: Partial<DentistRequestDetail> = {}): DentistRequestDetail {
  return {
    id: REQUEST_ID,
    patient_name: "Inès Martin",
    treatment_type: "crown",
    created_at: "2026-11-21T10:00:00.000Z",
    budget: "",
    urgency: "high",
    my_status: "pending",
    is_new: false,
    description: "Couronne sur la 36.",
    assigned: false,
    addressed_to_me: false,
    documents: [
      doc("d1", "devis-couronne.pdf", "quote"),
      doc("d2", "devis-second.pdf", "quote"),
      doc("d3", "panoramique.pdf", "xray"),
      doc("d4", "ordonnance.pdf", "other"),
    ],
    conversation_id: null,
    quote_lines: [],
    ...overrides,
  };
}

const noOffer: MyOffer = { offer: null, may_offer: true, patient_age: 42 };

function sentOffer(overrides: Partial<OfferDto> = {}): OfferDto {
  return {
    id: "o-1",
    request_id: REQUEST_ID,
    amount_cents: 125_050,
    comment: "Couronne céramique, deux séances.",
    valid_until: null,
    state: "sent",
    lines: [{ code: null, basket: "libre" as const, br_cents: 0, ceiling_cents: null, act: "Couronne céramique", tooth: 36, fee_cents: 125_050 }],
    slots: [],
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
  const amount = await screen.findByLabelText(/Montant de la proposition/, {}, { timeout: 5000 });
  return { user, amount, sent, submit: screen.getByRole("button", { name: "Envoyer la proposition" }) };
}

const future = (days: number) => addDays(parisToday(new Date()), days);

describe("page de proposition : le formulaire", () => {
  it("désactive l'envoi tant que le montant est vide, et montre le patient", async () => {
    const { user, amount, submit } = await openForm();
    expect(submit).toBeDisabled();
    await user.type(amount, "   ");
    expect(submit).toBeDisabled();
    await user.clear(amount);
    await user.type(amount, "1 250,50");
    expect(submit).toBeEnabled();
    expect(screen.getByText("42 ans")).toBeInTheDocument();
    // The patient's e-mail is never shown to a dentist: they talk in the product's conversations.
    expect(screen.queryByText("E-mail")).not.toBeInTheDocument();
    expect(screen.getByText("21 novembre 2026")).toBeInTheDocument();
    expect(screen.getByText("Urgent")).toBeInTheDocument();
    expect(screen.getByText("Non spécifié")).toBeInTheDocument();
    expect(screen.getByText("Couronne sur la 36.")).toBeInTheDocument();
  });

  it("refuse un montant différent du total des actes, puis utilise le total", async () => {
    const { user, amount, submit, sent } = await openForm();
    await user.type(amount, "1000");
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await user.type(screen.getByLabelText("Acte de la ligne 1"), "Couronne céramique");
    await user.type(screen.getByLabelText("Dent de la ligne 1"), "36");
    await user.type(screen.getByLabelText("Honoraires (€) de la ligne 1"), "650");
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await user.type(screen.getByLabelText("Acte de la ligne 2"), "Inlay-core");
    await user.type(screen.getByLabelText("Honoraires (€) de la ligne 2"), "150,50");
    expect(screen.getByText(/Total des actes/)).toHaveTextContent(/800,50\s€/);
    await user.click(submit);
    expect(
      await screen.findByText("Le total des actes doit être égal au montant de la proposition."),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Utiliser le total comme montant" }));
    expect(amount).toHaveValue("800,50");
    await waitFor(() =>
      expect(
        screen.queryByText("Le total des actes doit être égal au montant de la proposition."),
      ).not.toBeInTheDocument(),
    );
    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      amount_cents: 80_050,
      comment: "",
      lines: [
        { act: "Couronne céramique", tooth: 36, fee_cents: 65_000 },
        { act: "Inlay-core", tooth: null, fee_cents: 15_050 },
      ],
      valid_until: null,
      slots: [],
    });
  });

  it("explique un numéro de dent invalide et retire une ligne", async () => {
    const { user, amount, submit, sent } = await openForm();
    await user.type(amount, "300");
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await user.type(screen.getByLabelText("Acte de la ligne 1"), "Détartrage");
    await user.type(screen.getByLabelText("Dent de la ligne 1"), "19");
    await user.type(screen.getByLabelText("Honoraires (€) de la ligne 1"), "300");
    await user.click(submit);
    expect(await screen.findByText(/Numéro de dent invalide/)).toBeInTheDocument();
    expect(screen.getByLabelText("Dent de la ligne 1")).toHaveAttribute("aria-invalid", "true");
    await user.click(screen.getByRole("button", { name: "Retirer la ligne 1" }));
    expect(screen.queryByLabelText("Acte de la ligne 1")).not.toBeInTheDocument();
    await user.click(submit);
    await waitFor(() => expect(sent).toHaveLength(1));
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
            fields: { "lines.0.tooth": "Numéro de dent inconnu du serveur.", "slots.0": "Créneau refusé." },
          },
        }),
    });
    await user.type(amount, "500");
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await user.type(screen.getByLabelText("Acte de la ligne 1"), "Couronne");
    await user.type(screen.getByLabelText("Dent de la ligne 1"), "36");
    await user.type(screen.getByLabelText("Honoraires (€) de la ligne 1"), "500");
    await user.click(screen.getByRole("button", { name: "Ajouter un créneau" }));
    fireEvent.change(screen.getByLabelText("Date du créneau 1"), { target: { value: future(10) } });
    fireEvent.change(screen.getByLabelText("Heure du créneau 1"), { target: { value: "14:30" } });
    await user.click(submit);
    const message = await screen.findByText("Numéro de dent inconnu du serveur.");
    const tooth = screen.getByLabelText("Dent de la ligne 1");
    expect(tooth).toHaveAttribute("aria-invalid", "true");
    expect(tooth.getAttribute("aria-describedby")).toContain(message.id);
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
      [MINE]: () => json(200, { offer: sentOffer(), may_offer: true, patient_age: null }),
    });
    renderApp(`/dentist/patient-submission/${REQUEST_ID}`);
    const link = await screen.findByRole("link", { name: "Voir ma proposition" }, { timeout: 5000 });
    expect(link).toHaveAttribute("href", PAGE);
    expect(screen.queryByRole("link", { name: "Proposer un devis" })).not.toBeInTheDocument();
  });

  it("montre une proposition déjà envoyée en lecture seule", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, { offer: sentOffer({ state: "expired" }), may_offer: true, patient_age: null }),
    });
    renderApp(PAGE);
    expect(
      await screen.findByText("Couronne céramique, deux séances.", {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText("Expirée")).toBeInTheDocument();
    expect(screen.getByText("dent 36", { exact: false })).toBeInTheDocument();
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();
    expect(screen.queryByText(/ans$/)).not.toBeInTheDocument();
  });

  it("explique qu'une demande n'accepte plus de propositions", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, { offer: null, may_offer: false, patient_age: 30 }),
    });
    renderApp(PAGE);
    expect(
      await screen.findByText("Cette demande n'accepte plus de propositions.", {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();
  });

  it("dit quand la demande est introuvable", async () => {
    stubApi(dentist, {
      [DETAIL]: () =>
        json(404, { error: { code: "NOT_FOUND", message: "Impossible de trouver cette demande." } }),
    });
    renderApp(PAGE);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Demande non trouvée" }, { timeout: 5000 }),
    ).toBeInTheDocument();
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
    expect(
      await screen.findByRole("heading", { name: "En attente de vérification" }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText("Inès Martin")).not.toBeInTheDocument();
    expect(calls.mock.calls.map(([url]) => String(url))).not.toContain(`/api/dentist/requests/${REQUEST_ID}`);
  });
});

describe("page de proposition : retirer sa proposition", () => {
  const WITHDRAW = "POST /api/dentist/offers/o-1/withdraw";

  it("retire la proposition après confirmation, puis permet d'en envoyer une nouvelle", async () => {
    let mine: MyOffer = { offer: sentOffer(), may_offer: false, patient_age: 42 };
    const posted: string[] = [];
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, mine),
      [WITHDRAW]: () => {
        posted.push("o-1");
        mine = { offer: sentOffer({ state: "withdrawn" }), may_offer: true, patient_age: 42 };
        return json(200, { offer: sentOffer({ state: "withdrawn" }), message: OFFER_MESSAGES.withdrawnDone });
      },
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    const withdraw = await screen.findByRole("button", { name: "Retirer ma proposition" }, { timeout: 5000 });
    expect(screen.queryByLabelText(/Montant de la proposition/)).not.toBeInTheDocument();

    await user.click(withdraw);
    let dialog = await screen.findByRole("dialog", { name: "Retirer cette proposition ?" });
    expect(dialog).toHaveTextContent(
      /Le patient ne verra plus votre proposition de 1\s250,50\s€ à Inès Martin/,
    );
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(posted).toEqual([]);

    await user.click(withdraw);
    dialog = await screen.findByRole("dialog", { name: "Retirer cette proposition ?" });
    await user.click(within(dialog).getByRole("button", { name: "Retirer la proposition" }));
    expect(await screen.findByText(OFFER_MESSAGES.withdrawnDone)).toBeInTheDocument();
    expect(posted).toEqual(["o-1"]);
    expect(await screen.findByText("Retirée")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Votre proposition retirée" })).toBeInTheDocument();
    expect(screen.getByText("Couronne céramique, deux séances.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Retirer ma proposition" })).not.toBeInTheDocument();
    // The server now says may_offer: the form is back, under the withdrawn offer.
    expect(await screen.findByRole("heading", { name: "Nouvelle proposition" })).toBeInTheDocument();
    expect(screen.getByLabelText(/Montant de la proposition/)).toBeInTheDocument();
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
        [MINE]: () => json(200, { offer: sentOffer({ state }), may_offer: false, patient_age: null }),
      });
      const { unmount } = renderApp(PAGE);
      await screen.findByText("Couronne céramique, deux séances.", {}, { timeout: 5000 });
      expect(screen.queryByRole("button", { name: "Retirer ma proposition" }) !== null).toBe(withdrawable);
      unmount();
    }
  });

  it("dit pourquoi le retrait est refusé", async () => {
    stubApi(dentist, {
      [DETAIL]: () => json(200, detail()),
      [MINE]: () => json(200, { offer: sentOffer(), may_offer: false, patient_age: null }),
      [WITHDRAW]: () => json(409, { error: { code: "CONFLICT", message: OFFER_MESSAGES.notWithdrawable } }),
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    await user.click(
      await screen.findByRole("button", { name: "Retirer ma proposition" }, { timeout: 5000 }),
    );
    await user.click(
      within(await screen.findByRole("dialog")).getByRole("button", { name: "Retirer la proposition" }),
    );
    expect(await screen.findByText(OFFER_MESSAGES.withdrawFailed)).toBeInTheDocument();
    expect(screen.getByText(OFFER_MESSAGES.notWithdrawable)).toBeInTheDocument();
  });
});

describe("page de proposition : les documents", () => {
  it("filtre les documents par onglet, avec les nombres et un texte par onglet vide", async () => {
    stubApi(dentist, { [DETAIL]: () => json(200, detail()), [MINE]: () => json(200, noOffer) });
    const user = userEvent.setup();
    renderApp(PAGE);
    const all = await screen.findByRole("tab", { name: "Tous (4)" }, { timeout: 5000 });
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
    expect(
      await screen.findByText("Aucun document pour cette demande.", {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Tout télécharger" })).toBeDisabled();
  });
});

describe("page de proposition : règles du formulaire", () => {
  it("lit les montants français et les champs vides", () => {
    expect(
      toOfferInput({
        amount: "1 234,5",
        comment: "",
        lines: [{ act: "A", tooth: "", fee: "" }],
        valid_until: "",
        slots: [
          { date: "2027-01-02", time: "09:05:00" },
          { date: "2027-01-02", time: "" },
        ],
      }),
    ).toEqual({
      amount_cents: 123_450,
      comment: "",
      lines: [{ act: "A", tooth: null, fee_cents: undefined }],
      valid_until: null,
      slots: ["2027-01-02T09:05", ""],
    });
    expect(
      toOfferInput({ amount: "douze", comment: "", lines: [], valid_until: "", slots: [] }).amount_cents,
    ).toBeNaN();
  });

  it("place les erreurs du serveur sous le bon champ", () => {
    expect(formPathOf("amount_cents")).toBe("amount");
    expect(formPathOf("lines.2.fee_cents")).toBe("lines.2.fee");
    expect(formPathOf("lines.0.tooth")).toBe("lines.0.tooth");
    expect(formPathOf("lines.1.act")).toBe("lines.1.act");
    expect(formPathOf("lines")).toBe("lines.root");
    expect(formPathOf("slots.1")).toBe("slots.1.date");
    expect(formPathOf("valid_until")).toBe("valid_until");
    expect(formPathOf("comment")).toBe("comment");
    expect(formPathOf("something_else")).toBe("root.server");
  });
});
