import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { parisToday } from "../../../shared/policies/offers";
import { QUOTE_MESSAGES, type QuoteLineDto, resolveLine } from "../../../shared/schemas/quotes";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { FakeXhr } from "../../test/fakes";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { makeRequestDetail } from "../../test/requests";
import { openUploadReadyToSend } from "../../test/upload";

/*
 * Issue 15: the patient enters the devis line by line — on the upload page (sent as the multipart
 * field quote_lines) or later on the request page (PUT …/quote) — with the server's refusals shown
 * on the line.
 */

type User = ReturnType<typeof userEvent.setup>;

/** Fills the first line of the editor: tooth 36, the molar crown HBLD734, 1 000 €. */
async function fillMolarCrown(user: User) {
  const row = screen.getByRole("group", { name: "Acte 1" });
  await user.click(within(row).getByRole("button", { name: "Dent Sans dent" }));
  await user.click(within(row).getByRole("button", { name: "Dent 36 (molaire)" }));
  await user.type(within(row).getByRole("combobox", { name: /Acte/ }), "HBLD734");
  await user.click(await screen.findByRole("option", { name: /HBLD734/ }));
  await user.type(within(row).getByRole("textbox", { name: /Honoraires/ }), "1 000");
  return row;
}

describe("détailler son devis au téléversement", () => {
  it("n'envoie pas un acte laissé vide, et le dit sur la ligne", async () => {
    const user = await openUploadReadyToSend();
    expect(screen.getByRole("heading", { name: "Détaillez votre devis (facultatif)" })).toBeInTheDocument();
    expect(
      screen.getByText(/pour comparer votre reste à charge avec chaque proposition/),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    await user.click(screen.getByRole("button", { name: "Envoyer ma demande" }));
    expect(
      within(screen.getByRole("group", { name: "Acte 1" })).getByText(QUOTE_MESSAGES.actRequired),
    ).toBeInTheDocument();
    expect(FakeXhr.last).toBeNull();
  });

  it("envoie les lignes du devis dans quote_lines, et montre le refus du serveur sur la ligne", async () => {
    const user = await openUploadReadyToSend();
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    const row = await fillMolarCrown(user);
    // The amount of the devis is now the lines' total.
    const amount = screen.getByLabelText("Montant de votre devis actuel (optionnel)");
    expect(amount).toHaveValue("1 000,00");
    expect(amount).toHaveAttribute("readonly");

    await user.click(screen.getByRole("button", { name: "Envoyer ma demande" }));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const xhr = FakeXhr.last as unknown as FakeXhr;
    const fields = Object.fromEntries([...(xhr.body?.entries() ?? [])].filter(([name]) => name !== "files"));
    expect(fields.quote_amount).toBe("");
    expect(JSON.parse(String(fields.quote_lines))).toEqual([
      expect.objectContaining({ code: "HBLD734", tooth: 36, fee_cents: 100_000, br_cents: null }),
    ]);

    const refusal = QUOTE_MESSAGES.toothNotFit(36);
    act(() =>
      xhr.answer(400, {
        error: { code: "VALIDATION", message: refusal, fields: { "quote_lines.0.tooth": refusal } },
      }),
    );
    expect(await within(row).findByText(refusal)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Envoyer ma demande" })).toBeEnabled();
  });
});

describe("saisir son devis depuis la demande", () => {
  const REQUEST_ID = "66666666-6666-4666-8666-666666666666";
  const PAGE = `/patient/request/${REQUEST_ID}`;
  const PUT = `PUT /api/patient/requests/${REQUEST_ID}/quote`;

  const detail = (overrides: Partial<RequestDetail> = {}) => makeRequestDetail(REQUEST_ID, overrides);

  it("ouvre l'éditeur, enregistre les lignes, et montre d'abord le refus du serveur sur la ligne", async () => {
    let current = detail();
    const bodies: unknown[] = [];
    let refuse = true;
    stubApi(makeProfile(), {
      [`GET /api/patient/requests/${REQUEST_ID}`]: () => json(200, current),
      [`GET /api/patient/requests/${REQUEST_ID}/comparison`]: () =>
        json(200, { cover: null, original: null, offers: [], rows: [] }),
      [PUT]: (body) => {
        bodies.push(body);
        if (refuse) {
          refuse = false;
          return json(400, {
            error: {
              code: "VALIDATION",
              message: QUOTE_MESSAGES.feeTooHigh,
              fields: { "lines.0.fee_cents": QUOTE_MESSAGES.feeTooHigh },
            },
          });
        }
        const lines: QuoteLineDto[] = (body as { lines: Parameters<typeof resolveLine>[0][] }).lines.map(
          (line) => resolveLine(line, "2026-11-25"),
        );
        current = { ...current, quote_lines: lines, quote_amount_cents: 100_000 };
        return json(200, { lines, quote_amount_cents: 100_000, message: QUOTE_MESSAGES.saved });
      },
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    expect(within(mine).getByText(/Votre devis n'est pas détaillé/)).toBeInTheDocument();
    await user.click(within(mine).getByRole("button", { name: "Saisir mon devis ligne par ligne" }));
    const row = await fillMolarCrown(user);

    await user.click(within(mine).getByRole("button", { name: "Enregistrer mon devis" }));
    const fee = within(row).getByRole("textbox", { name: /Honoraires/ });
    await waitFor(() => expect(fee).toHaveAttribute("aria-invalid", "true"));
    expect(within(row).getByText(QUOTE_MESSAGES.feeTooHigh)).toBeInTheDocument();

    await user.click(within(mine).getByRole("button", { name: "Enregistrer mon devis" }));
    expect(await screen.findByText(QUOTE_MESSAGES.saved)).toBeInTheDocument();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual({
      lines: [expect.objectContaining({ code: "HBLD734", tooth: 36, fee_cents: 100_000 })],
      quote_date: parisToday(new Date()),
    });
    // The editor closes; the card shows the lines, and 'Modifier' reopens them.
    await waitFor(() =>
      expect(within(mine).queryByRole("group", { name: "Acte 1" })).not.toBeInTheDocument(),
    );
    expect(within(mine).getByText(/HBLD734/)).toBeInTheDocument();
    await user.click(within(mine).getByRole("button", { name: "Modifier" }));
    expect(within(mine).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("1 000,00");
  });

  it("« Modifier » met le focus sur « Date du devis », « Annuler » le rend à « Modifier »", async () => {
    const lines = [
      resolveLine(
        { code: "HBLD734", act: "Couronne", tooth: 36, fee_cents: 100_000, br_cents: null },
        "2026-11-25",
      ),
    ];
    stubApi(makeProfile(), {
      [`GET /api/patient/requests/${REQUEST_ID}`]: () =>
        json(200, detail({ quote_lines: lines, quote_amount_cents: 100_000 })),
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    within(mine).getByRole("button", { name: "Modifier" }).focus();
    await user.keyboard("{Enter}");
    await waitFor(() => expect(within(mine).getByLabelText(/^Date du devis/)).toHaveFocus());

    await user.click(within(mine).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(within(mine).getByRole("button", { name: "Modifier" })).toHaveFocus());
  });

  it("ne propose pas de modifier le devis d'une demande terminée", async () => {
    const lines = [
      resolveLine(
        { code: "HBLD734", act: "Couronne", tooth: 36, fee_cents: 100_000, br_cents: null },
        "2026-11-25",
      ),
    ];
    stubApi(makeProfile(), {
      [`GET /api/patient/requests/${REQUEST_ID}`]: () =>
        json(200, detail({ status: "completed", quote_lines: lines, quote_amount_cents: 100_000 })),
    });
    const first = renderApp(PAGE);
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    expect(within(mine).getByText(/HBLD734/)).toBeInTheDocument();
    expect(within(mine).queryByRole("button")).not.toBeInTheDocument();

    // Never detailed and now cancelled: no card at all.
    first.unmount();
    stubApi(makeProfile(), {
      [`GET /api/patient/requests/${REQUEST_ID}`]: () => json(200, detail({ status: "cancelled" })),
    });
    renderApp(PAGE);
    await screen.findByRole("heading", { level: 2, name: "Propositions" });
    expect(screen.queryByRole("region", { name: "Mon devis" })).not.toBeInTheDocument();
  });
});
