import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { parisToday } from "../../../shared/policies/offers";
import { QUOTE_MESSAGES, type QuoteLineDto, resolveLine } from "../../../shared/schemas/quotes";
import type { QuoteReading, ReadResult } from "../../../shared/schemas/reading";
import type { DocumentDto, RequestDetail } from "../../../shared/schemas/requests";
import { FakeXhr } from "../../test/fakes";
import { json, makeProfile, renderApp, stubApi } from "../../test/renderApp";
import { makeRequestDetail } from "../../test/requests";
import { openUploadReadyToSend } from "../../test/upload";
import { QUOTE_DATE_HINT } from "./QuoteDateField";

/*
 * Issue 33: 'Date du devis' wherever the patient types or confirms her devis lines (the request's
 * 'Mon devis', the review of a reading, the upload page). It chooses the tariffs the lines are shown
 * and checked with — a zirconia crown on a molar (HBLD073) is 'Tarifs maîtrisés' under 440 € in 2025,
 * 100 % Santé under 453,20 € from 2026 — and is sent as quote_date; the server's refusal shows beside it.
 */

type User = ReturnType<typeof userEvent.setup>;

const REQUEST_ID = "66666666-6666-4666-8666-666666666666";
const READING_ID = "77777777-7777-4777-8777-777777777777";
const DOCUMENT_ID = "88888888-8888-4888-8888-888888888888";
const PAGE = `/patient/request/${REQUEST_ID}`;
const BASE = `/api/patient/requests/${REQUEST_ID}`;
const PUT = `PUT ${BASE}/quote`;
const ZIRCONIA_MOLAR = "Couronne céramique monolithique zircone (molaire)";

/** A French text as the screen reads it (no-break spaces as spaces). */
const words = (text: string | null) => (text ?? "").replace(/[\s\u00a0\u202f]+/g, " ");

/** The figures under line `n` (basket, BR, ceiling). */
const figures = (scope: HTMLElement, n = 1) =>
  words(within(scope).getByRole("list", { name: `Acte ${n}\u202f: remboursement` }).textContent);

const dateField = (scope: HTMLElement) => within(scope).getByLabelText(/Date du devis/);

/** A native date input: the value the browser gives once a whole date is chosen. */
const chooseDate = (input: HTMLElement, day: string) => fireEvent.change(input, { target: { value: day } });

/** Fills the first line: tooth 36, the zirconia molar crown HBLD073, 450 €. */
async function fillZirconiaMolar(user: User, scope: HTMLElement) {
  const row = within(scope).getByRole("group", { name: "Acte 1" });
  await user.click(within(row).getByRole("button", { name: "Dent Sans dent" }));
  await user.click(within(row).getByRole("button", { name: "Dent 36 (molaire)" }));
  await user.type(within(row).getByRole("combobox", { name: /Acte/ }), "HBLD073");
  await user.click(await screen.findByRole("option", { name: /HBLD073/ }));
  await user.type(within(row).getByRole("textbox", { name: /Honoraires/ }), "450");
  return row;
}

const refusal = (message: string) =>
  json(400, { error: { code: "VALIDATION", message, fields: { quote_date: message } } });

describe("la date du devis, dans 'Mon devis'", () => {
  const today = parisToday(new Date());

  it("choisit les tarifs des lignes, est envoyée dans quote_date, et montre le refus du serveur à côté", async () => {
    let current = makeRequestDetail(REQUEST_ID);
    const bodies: unknown[] = [];
    let refuse = true;
    stubApi(makeProfile(), {
      [`GET ${BASE}`]: () => json(200, current),
      [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
      [PUT]: (body) => {
        bodies.push(body);
        if (refuse) {
          refuse = false;
          return refusal(QUOTE_MESSAGES.dateTooOld);
        }
        const sent = body as { lines: Parameters<typeof resolveLine>[0][]; quote_date: string };
        const lines: QuoteLineDto[] = sent.lines.map((line) => resolveLine(line, sent.quote_date));
        current = { ...current, quote_lines: lines, quote_date: sent.quote_date, quote_amount_cents: 45_000 };
        return json(200, {
          lines,
          quote_date: sent.quote_date,
          quote_amount_cents: 45_000,
          message: QUOTE_MESSAGES.saved,
        });
      },
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    await user.click(within(mine).getByRole("button", { name: "Saisir mon devis ligne par ligne" }));

    // Today by default (2026 or later): the zirconia molar crown is 100 % Santé.
    const date = dateField(mine);
    expect(date).toHaveAttribute("type", "date");
    expect(date).toHaveValue(today);
    expect(date).toHaveAttribute("max", today);
    expect(date).toHaveAccessibleDescription(QUOTE_DATE_HINT);
    await fillZirconiaMolar(user, mine);
    expect(figures(mine)).toContain("100 % Santé");
    expect(figures(mine)).toContain("Plafond 100 % Santé : 453,20 €");

    // A devis of December 2025: the 2025 basket and ceiling.
    chooseDate(date, "2025-12-15");
    expect(figures(mine)).toContain("Tarifs maîtrisés");
    expect(figures(mine)).toContain("Plafond Tarifs maîtrisés : 440,00 €");
    expect(figures(mine)).not.toContain("453,20");

    // The server's refusal of the date, beside the field.
    await user.click(within(mine).getByRole("button", { name: "Enregistrer mon devis" }));
    await waitFor(() => expect(date).toHaveAttribute("aria-invalid", "true"));
    expect(date).toHaveAccessibleDescription(`${QUOTE_DATE_HINT} ${QUOTE_MESSAGES.dateTooOld}`);
    expect(bodies[0]).toEqual({
      lines: [expect.objectContaining({ code: "HBLD073", tooth: 36, fee_cents: 45_000 })],
      quote_date: "2025-12-15",
    });
    // Changed, the error goes; saved, the date is kept with the devis and shown again by 'Modifier'.
    chooseDate(date, "2025-12-16");
    expect(date).not.toHaveAttribute("aria-invalid");
    await user.click(within(mine).getByRole("button", { name: "Enregistrer mon devis" }));
    expect(await screen.findByText(QUOTE_MESSAGES.saved)).toBeInTheDocument();
    expect(bodies[1]).toEqual(expect.objectContaining({ quote_date: "2025-12-16" }));
    await user.click(await within(mine).findByRole("button", { name: "Modifier" }));
    expect(dateField(mine)).toHaveValue("2025-12-16");
    expect(figures(mine)).toContain("Plafond Tarifs maîtrisés : 440,00 €");
  });

  it("refuse une date dans le futur sans rien envoyer", async () => {
    const put = vi.fn();
    stubApi(makeProfile(), {
      [`GET ${BASE}`]: () => json(200, makeRequestDetail(REQUEST_ID)),
      [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
      [PUT]: put,
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    await user.click(within(mine).getByRole("button", { name: "Saisir mon devis ligne par ligne" }));
    await fillZirconiaMolar(user, mine);
    const date = dateField(mine);
    chooseDate(date, `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`);
    await user.click(within(mine).getByRole("button", { name: "Enregistrer mon devis" }));
    expect(date).toHaveAccessibleDescription(`${QUOTE_DATE_HINT} ${QUOTE_MESSAGES.dateFuture}`);
    chooseDate(date, "");
    await user.click(within(mine).getByRole("button", { name: "Enregistrer mon devis" }));
    expect(date).toHaveAccessibleDescription(`${QUOTE_DATE_HINT} ${QUOTE_MESSAGES.dateInvalid}`);
    expect(put).not.toHaveBeenCalled();
  });
});

describe("la date lue sur le devis, à la vérification de la lecture", () => {
  const devis: DocumentDto = {
    id: DOCUMENT_ID,
    file_name: "devis-dupont.pdf",
    size: 48_000,
    mime_type: "application/pdf",
    document_type: "quote",
    created_at: "2026-11-25T10:00:00.000Z",
  };
  const result: ReadResult = {
    lines: [
      {
        tooth: 36,
        code: "HBLD073",
        act: ZIRCONIA_MOLAR,
        basket: "maitrise",
        fee_cents: 45_000,
        br_cents: 12_000,
        amo_cents: 7200,
        uncertain: [],
      },
    ],
    total_cents: 45_000,
    lines_total_cents: 45_000,
    total_matches: true,
    patient_name: "Jean Dupont",
    practitioner_name: "Dr Claire Martin",
    practitioner_number: null,
    quote_date: "2025-12-15",
    confidence: 0.95,
  };
  const reading: QuoteReading = {
    id: READING_ID,
    request_id: REQUEST_ID,
    document_id: DOCUMENT_ID,
    file_name: devis.file_name,
    status: "done",
    kind: "text_pdf",
    pages: 0,
    result,
    message: null,
    created_at: "2026-11-25T10:00:00.000Z",
    finished_at: "2026-11-25T10:00:02.000Z",
    confirmed_at: null,
    dismissed_at: null,
    choices: [],
    recognised: false,
  };

  function openReview(handlers: Record<string, (body: unknown) => { status: number; body?: unknown }>) {
    const request: RequestDetail = makeRequestDetail(REQUEST_ID, { documents: [devis], document_count: 1 });
    stubApi(makeProfile(), {
      [`GET ${BASE}`]: () => json(200, request),
      [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
      [`GET ${BASE}/reading`]: () => json(200, { reading }),
      ...handlers,
    });
    const user = userEvent.setup();
    renderApp(PAGE);
    return user;
  }

  it("reprend la date lue, en montre les tarifs, et l'envoie avec la lecture", async () => {
    const bodies: unknown[] = [];
    const user = openReview({
      [PUT]: (body) => {
        bodies.push(body);
        return refusal(QUOTE_MESSAGES.dateFuture);
      },
    });
    const mine = await screen.findByRole("region", { name: "Mon devis" });
    await within(mine).findByRole("group", { name: "Acte 1" });
    const date = dateField(mine);
    expect(date).toHaveValue("2025-12-15");
    expect(figures(mine)).toContain("Tarifs maîtrisés");
    expect(figures(mine)).toContain("Plafond Tarifs maîtrisés : 440,00 €");
    chooseDate(date, "2026-03-01");
    expect(figures(mine)).toContain("100 % Santé");
    expect(figures(mine)).toContain("Plafond 100 % Santé : 453,20 €");

    await user.click(within(mine).getByRole("button", { name: "Enregistrer ces lignes" }));
    await waitFor(() => expect(date).toHaveAttribute("aria-invalid", "true"));
    expect(date).toHaveAccessibleDescription(`${QUOTE_DATE_HINT} ${QUOTE_MESSAGES.dateFuture}`);
    expect(bodies).toEqual([
      {
        lines: [expect.objectContaining({ code: "HBLD073", tooth: 36, fee_cents: 45_000 })],
        quote_date: "2026-03-01",
        reading_id: READING_ID,
      },
    ]);
  });
});

describe("la date du devis au téléversement", () => {
  it("n'est demandée qu'avec des lignes, choisit leurs tarifs, part dans quote_date et montre le refus", async () => {
    const user = await openUploadReadyToSend();
    expect(screen.queryByLabelText(/Date du devis/)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    const date = dateField(document.body);
    expect(date).toHaveValue(parisToday(new Date()));
    await fillZirconiaMolar(user, document.body);
    expect(figures(document.body)).toContain("Plafond 100 % Santé : 453,20 €");
    chooseDate(date, "2025-06-01");
    expect(figures(document.body)).toContain("Tarifs maîtrisés");
    expect(figures(document.body)).toContain("Plafond Tarifs maîtrisés : 440,00 €");

    await user.click(screen.getByRole("button", { name: "Envoyer ma demande" }));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const xhr = FakeXhr.last as unknown as FakeXhr;
    const fields = Object.fromEntries([...(xhr.body?.entries() ?? [])].filter(([name]) => name !== "files"));
    expect(fields.quote_date).toBe("2025-06-01");
    expect(JSON.parse(String(fields.quote_lines))).toEqual([
      expect.objectContaining({ code: "HBLD073", tooth: 36, fee_cents: 45_000 }),
    ]);

    act(() => xhr.answer(400, refusal(QUOTE_MESSAGES.dateTooOld).body));
    await waitFor(() => expect(date).toHaveAttribute("aria-invalid", "true"));
    expect(date).toHaveAccessibleDescription(`${QUOTE_DATE_HINT} ${QUOTE_MESSAGES.dateTooOld}`);
    // Beside the date, not under the files.
    expect(screen.getByLabelText("Choisir des fichiers")).not.toHaveAttribute("aria-invalid");
  });
});
