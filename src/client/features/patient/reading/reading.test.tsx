import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatEuros } from "../../../../shared/format/money";
import { parisToday } from "../../../../shared/policies/offers";
import { DOCUMENT_MESSAGES } from "../../../../shared/schemas/documents";
import { QUOTE_MESSAGES, type QuoteLineDto, resolveLine } from "../../../../shared/schemas/quotes";
import { type QuoteReading, READING_MESSAGES, type ReadResult } from "../../../../shared/schemas/reading";
import type { DocumentDto, RequestDetail } from "../../../../shared/schemas/requests";
import { setRealtimeSocketFactory } from "../../../lib/realtime";
import { FakeSocket, fakeFile, resetRealtime } from "../../../test/fakes";
import { json, makeProfile, renderApp, stubApi } from "../../../test/renderApp";
import { makeRequestDetail } from "../../../test/requests";
import { spaced } from "../../../test/text";
import { READING_UPLOAD_HINT } from "./readLines";

/*
 * Issue 17: the devis uploaded is read on our server; the patient sees "Lecture du devis…", then the
 * lines read beside the page, checks and corrects them, and saves them (PUT …/quote with the reading's
 * id) — or types them themselves when the devis cannot be read.
 */

const REQUEST_ID = "66666666-6666-4666-8666-666666666666";
const READING_ID = "77777777-7777-4777-8777-777777777777";
const DOCUMENT_ID = "88888888-8888-4888-8888-888888888888";
const PAGE = `/patient/request/${REQUEST_ID}`;
const BASE = `/api/patient/requests/${REQUEST_ID}`;
const GET_READING = `GET ${BASE}/reading`;
const PUT_QUOTE = `PUT ${BASE}/quote`;
const DISMISS = `POST ${BASE}/reading/${READING_ID}/dismiss`;
const READ = `POST ${BASE}/documents/${DOCUMENT_ID}/read`;
/** A fetch can take seconds on a loaded machine. */

const patient = makeProfile();

const devis: DocumentDto = {
  id: DOCUMENT_ID,
  file_name: "devis-dupont.pdf",
  size: 48_000,
  mime_type: "application/pdf",
  document_type: "quote",
  created_at: "2026-11-25T10:00:00.000Z",
};

const RESULT: ReadResult = {
  lines: [
    {
      tooth: 36,
      code: "HBLD734",
      act: "Couronne céramo-métallique sur molaire",
      basket: "libre",
      fee_cents: 75_000,
      br_cents: 10_750,
      amo_cents: 6450,
      uncertain: [],
    },
    {
      tooth: 14,
      code: "HBLD634",
      act: "Couronne céramo-métallique",
      basket: "100_sante",
      fee_cents: 50_000,
      br_cents: 12_000,
      amo_cents: 7200,
      uncertain: ["fee_cents"],
    },
  ],
  total_cents: 125_000,
  lines_total_cents: 125_000,
  total_matches: true,
  patient_name: "Jean Dupont",
  practitioner_name: "Dr Claire Martin",
  practitioner_number: { kind: "RPPS", value: "10101234567" },
  confidence: 0.95,
};

function makeReading(overrides: Partial<QuoteReading> = {}): QuoteReading {
  return {
    id: READING_ID,
    request_id: REQUEST_ID,
    document_id: DOCUMENT_ID,
    file_name: devis.file_name,
    status: "pending",
    kind: null,
    pages: 0,
    result: null,
    message: null,
    created_at: "2026-11-25T10:00:00.000Z",
    finished_at: null,
    confirmed_at: null,
    dismissed_at: null,
    choices: [],
    recognised: false,
    ...overrides,
  };
}

/** A free line's BR read "9,00" first, then 90,00 € in its cell: its BR field holds the value corrected. */
const FREE_BR_READ_AGAIN: ReadResult["lines"][number] = {
  tooth: 46,
  code: "HBMD017",
  act: "Inlay core",
  basket: "libre",
  fee_cents: 30_000,
  br_cents: 9000,
  amo_cents: 5400,
  uncertain: ["br_cents"],
  as_read: { br_cents: 900 },
};

const done = (overrides: Partial<QuoteReading> = {}) =>
  makeReading({
    status: "done",
    kind: "text_pdf",
    pages: 1,
    result: RESULT,
    finished_at: "2026-11-25T10:00:02.000Z",
    ...overrides,
  });

type Handlers = Parameters<typeof stubApi>[1];

/**
 * The request page with a devis document, the reading the server holds (`state.reading`, changed by
 * the test or the handlers), and every call made.
 */
function openPage(reading: QuoteReading | null, extra: Handlers = {}, request: Partial<RequestDetail> = {}) {
  const state: { reading: QuoteReading | null; request: RequestDetail } = {
    reading,
    request: makeRequestDetail(REQUEST_ID, { documents: [devis], document_count: 1, ...request }),
  };
  const calls: { key: string; body: unknown }[] = [];
  const track =
    (key: string, handler: (body: unknown) => { status: number; body?: unknown }) => (body: unknown) => {
      calls.push({ key, body });
      return handler(body);
    };
  const handlers: Handlers = {
    [`GET ${BASE}`]: () => json(200, state.request),
    [`GET ${BASE}/comparison`]: () => json(200, { cover: null, original: null, offers: [], rows: [] }),
    [GET_READING]: track(GET_READING, () => json(200, { reading: state.reading })),
    [DISMISS]: track(DISMISS, () => {
      state.reading = { ...(state.reading as QuoteReading), dismissed_at: "2026-11-25T10:05:00.000Z" };
      return json(200, { reading: state.reading, message: READING_MESSAGES.dismissed });
    }),
    [READ]: track(READ, () => {
      state.reading = makeReading({ id: READING_ID });
      return json(202, { reading: state.reading });
    }),
    ...Object.fromEntries(Object.entries(extra).map(([key, handler]) => [key, track(key, handler)])),
  };
  stubApi(patient, handlers);
  const user = userEvent.setup();
  renderApp(PAGE);
  return { state, calls, user };
}

/**
 * RESULT's two lines, and the act table's figures on 2 March 2026 for the first one's act (free
 * basket, BR 120,00 €, AMO 72,00 €), which the tests of compared and corrected figures put beside it.
 */
function comparedOn2March() {
  const [first, second] = RESULT.lines as [ReadResult["lines"][number], ReadResult["lines"][number]];
  return {
    expected: { basket: "libre" as const, br_cents: 12_000, amo_cents: 7200, day: "2026-03-02" },
    first,
    second,
  };
}

/** The lines' PUT failing (500): what was sent is in `calls`, the screen keeps the lines. */
const saveFails = () => json(500, { error: { code: "INTERNAL", message: "Erreur" } });

/** A French text as the screen's text reads (testing-library turns its no-break spaces into spaces). */
const words = (text: string) => text.replace(/\s+/g, " ");

/**
 * A name as the screen reader reads it, written with plain spaces: a narrow no-break space before ":"
 * (French typography), and before "€" the space Intl writes in fr-FR euros.
 */
const nb = (text: string) => text.replace(/ :/g, "\u202f:").replace(/ €/g, formatEuros(0).slice(-2));

const myQuote = () => screen.findByRole("region", { name: "Mon devis" });

afterEach(resetRealtime);

describe("la lecture du devis en cours", () => {
  it("montre « Lecture du devis… », puis les lignes lues dès que l'événement en direct arrive", async () => {
    setRealtimeSocketFactory(() => new FakeSocket());
    const { state, calls } = openPage(makeReading());
    const mine = await myQuote();
    const status = await within(mine).findByRole("status");
    await waitFor(() => expect(status).toHaveTextContent(READING_MESSAGES.pending));
    expect(status).toHaveTextContent(words(READING_MESSAGES.pendingHint));
    expect(status).toHaveAttribute("aria-live", "polite");
    // Typing the lines stays possible while the devis is read; reading it again is not.
    expect(within(mine).getByRole("button", { name: "Saisir mon devis ligne par ligne" })).toBeEnabled();
    expect(screen.queryByRole("button", { name: /Lire ce devis/ })).not.toBeInTheDocument();

    state.reading = done();
    const socket = FakeSocket.last as FakeSocket;
    const before = calls.filter((c) => c.key === GET_READING).length;
    act(() => socket.push({ type: "ready", user_id: patient.id }));
    act(() => socket.push({ type: "reading", request_id: REQUEST_ID, reading_id: READING_ID }));
    expect(
      await within(mine).findByRole("heading", { name: "Vérifiez les lignes lues sur votre devis" }),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.key === GET_READING).length).toBe(before + 1);
    // The same live region now says the devis was read.
    expect(status).toHaveTextContent(words(READING_MESSAGES.done));
    expect(within(mine).getAllByRole("group", { name: /^Acte \d$/ })).toHaveLength(2);
  });

  it("relit la lecture toutes les 5 s tant qu'elle est en cours, si l'événement en direct manque", async () => {
    const { state } = openPage(makeReading());
    const mine = await myQuote();
    await within(mine).findByText(READING_MESSAGES.pending);
    state.reading = done();
    // The next poll comes within 5 s: inside the setup's 15 s wait.
    expect(
      await within(mine).findByRole("heading", { name: "Vérifiez les lignes lues sur votre devis" }),
    ).toBeInTheDocument();
  });
});

describe("l'écran de vérification", () => {
  it("montre la page, qui a fait le devis et pour qui, et signale les champs à vérifier", async () => {
    const { user } = openPage(done({ pages: 2 }));
    const mine = await myQuote();
    await within(mine).findByRole("heading", { name: "Vérifiez les lignes lues sur votre devis" });
    expect(
      within(mine).getByText("Devis du Dr Claire Martin (RPPS 10101234567) pour Jean Dupont"),
    ).toBeInTheDocument();
    // Reading the devis again would replace the reading being checked.
    expect(screen.getByRole("heading", { name: "Documents" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Lire ce devis/ })).not.toBeInTheDocument();
    expect(within(mine).getByText("Lecture fiable")).toBeInTheDocument();
    expect(within(mine).queryByText(/0[.,]95/)).not.toBeInTheDocument();

    // The page read, its switcher and the link to the full-size image.
    const image = within(mine).getByRole("img", { name: /Page 1 sur 2 de votre devis devis-dupont\.pdf/ });
    expect(image).toHaveAttribute("src", `${BASE}/reading/${READING_ID}/pages/1`);
    expect(within(mine).getByRole("button", { name: "Page précédente" })).toBeDisabled();
    await user.click(within(mine).getByRole("button", { name: "Page suivante" }));
    expect(within(mine).getByRole("img", { name: /Page 2 sur 2/ })).toHaveAttribute(
      "src",
      `${BASE}/reading/${READING_ID}/pages/2`,
    );
    const zoom = within(mine).getByRole("link", { name: /Agrandir la page 2/ });
    expect(zoom).toHaveAttribute("href", `${BASE}/reading/${READING_ID}/pages/2`);
    expect(zoom).toHaveAttribute("target", "_blank");

    // The lines as read: the molar crown is sure, the second line's fee is to check.
    const first = within(mine).getByRole("group", { name: "Acte 1" });
    const second = within(mine).getByRole("group", { name: "Acte 2" });
    expect(within(first).getByRole("combobox", { name: /Acte/ })).toHaveValue(
      "Couronne céramo-métallique (molaire)",
    );
    expect(within(first).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("750,00");
    expect(within(first).queryByText("À vérifier")).not.toBeInTheDocument();
    const fee = within(second).getByRole("textbox", { name: "Honoraires (€) À vérifier" });
    expect(fee).toHaveValue("500,00");
    expect(fee).toHaveClass("ring-2");
    expect(within(second).getByText("À vérifier")).toBeVisible();
    expect(within(second).getByRole("button", { name: /^Dent 14/ })).toBeInTheDocument();
  });

  it("signale aussi la dent, l'acte et la base de remboursement d'une ligne hors table", async () => {
    const doubtful: ReadResult = {
      ...RESULT,
      lines: [
        { ...(RESULT.lines[0] as ReadResult["lines"][number]), uncertain: ["tooth", "code"] },
        {
          tooth: 46,
          code: "HBMD017",
          act: "Inlay core",
          basket: "libre",
          fee_cents: 30_000,
          br_cents: 9000,
          amo_cents: 5400,
          uncertain: ["amo_cents"],
        },
      ],
      total_cents: 105_000,
      lines_total_cents: 105_000,
    };
    const { user } = openPage(done({ result: doubtful }));
    const mine = await myQuote();
    const first = await within(mine).findByRole("group", { name: "Acte 1" });
    expect(within(first).getByRole("button", { name: /^Dent À vérifier 36/ })).toBeInTheDocument();
    expect(within(first).getByRole("combobox", { name: "Acte À vérifier" })).toBeInTheDocument();
    expect(within(first).getByRole("textbox", { name: "Honoraires (€)" })).toBeInTheDocument();
    const second = within(mine).getByRole("group", { name: "Acte 2" });
    expect(within(second).getByRole("combobox", { name: "Acte" })).toHaveValue("HBMD017 · Inlay core");
    const br = within(second).getByRole("textbox", { name: "Base de remboursement (€) À vérifier" });
    expect(br).toHaveValue("90,00");
    // The tooth corrected: checked.
    await user.click(within(first).getByRole("button", { name: /^Dent À vérifier 36/ }));
    await user.click(within(first).getByRole("button", { name: "Dent 37 (molaire)" }));
    expect(within(first).getByRole("button", { name: /^Dent 37/ })).toBeInTheDocument();
    expect(within(first).getByRole("combobox", { name: "Acte À vérifier" })).toBeInTheDocument();
  });

  it("enregistre les lignes corrigées avec l'identifiant de la lecture, puis montre le devis et son reste à charge", async () => {
    let saved: QuoteLineDto[] = [];
    const { state, calls, user } = openPage(done(), {
      [PUT_QUOTE]: (body) => {
        saved = (body as { lines: Parameters<typeof resolveLine>[0][] }).lines.map((line) =>
          resolveLine(line, "2026-11-25"),
        );
        const amount = saved.reduce((sum, line) => sum + line.fee_cents, 0);
        state.request = { ...state.request, quote_lines: saved, quote_amount_cents: amount };
        state.reading = { ...(state.reading as QuoteReading), confirmed_at: "2026-11-25T10:06:00.000Z" };
        return json(200, { lines: saved, quote_amount_cents: amount, message: QUOTE_MESSAGES.saved });
      },
    });
    const mine = await myQuote();
    const second = await within(mine).findByRole("group", { name: "Acte 2" });
    const fee = within(second).getByRole("textbox", { name: /Honoraires/ });
    await user.clear(fee);
    await user.type(fee, "450");
    // Corrected: no longer to check.
    expect(within(second).queryByText("À vérifier")).not.toBeInTheDocument();
    expect(fee).not.toHaveClass("ring-2");

    await user.click(within(mine).getByRole("button", { name: "Enregistrer ces lignes" }));
    expect(await screen.findByText(QUOTE_MESSAGES.saved)).toBeInTheDocument();
    expect(calls.find((c) => c.key === PUT_QUOTE)?.body).toEqual({
      reading_id: READING_ID,
      // No date read on this devis: today's.
      quote_date: parisToday(new Date()),
      lines: [
        expect.objectContaining({ code: "HBLD734", tooth: 36, fee_cents: 75_000 }),
        expect.objectContaining({ code: "HBLD634", tooth: 14, fee_cents: 45_000 }),
      ],
    });
    // The structured quote as today: its lines, no editor, no reading.
    await waitFor(() =>
      expect(within(mine).queryByRole("heading", { name: /Vérifiez les lignes/ })).not.toBeInTheDocument(),
    );
    expect(within(mine).getByText(/HBLD634/)).toBeInTheDocument();
    expect(within(mine).queryByRole("group", { name: "Acte 1" })).not.toBeInTheDocument();
    // The long review gone, the page shows the summary from its top: the focus on « Modifier ».
    await waitFor(() => expect(within(mine).getByRole("button", { name: "Modifier" })).toHaveFocus());
    expect(calls.some((c) => c.key === DISMISS)).toBe(false);
  });

  it("montre le BR lu sur le devis à côté du tarif au jour du devis, et garde le choix du patient (issue 34)", async () => {
    const { expected, first, second } = comparedOn2March();
    const result: ReadResult = {
      ...RESULT,
      quote_date: "2026-03-02",
      lines: [
        // Printed 107,50 € (AMO 64,50 €): the old BR of HBLD734, kept as read and flagged.
        { ...first, uncertain: ["br_cents", "amo_cents"], expected, filled: [] },
        // No BR printed: filled from the table, said so, nothing to choose.
        {
          ...second,
          br_cents: 12_000,
          amo_cents: 7200,
          expected: { ...expected, basket: "100_sante" },
          filled: ["br_cents", "amo_cents"],
          uncertain: ["br_cents", "amo_cents"],
        },
      ],
    };
    const { calls, state, user } = openPage(done({ result }), {
      [PUT_QUOTE]: (body) => {
        const saved = (body as { lines: Parameters<typeof resolveLine>[0][] }).lines.map((line) =>
          resolveLine(line, "2026-03-02"),
        );
        state.reading = { ...(state.reading as QuoteReading), confirmed_at: "2026-11-25T10:06:00.000Z" };
        return json(200, { lines: saved, quote_amount_cents: 125_000, message: QUOTE_MESSAGES.saved });
      },
    });
    const mine = await myQuote();
    const line1 = await within(mine).findByRole("group", { name: "Acte 1" });
    const note1 = line1.parentElement as HTMLElement;
    expect(
      within(note1).getByText(
        (_, el) =>
          el?.tagName === "P" &&
          words(el.textContent ?? "").includes(
            "Lu sur le devis : 107,50 € · Tarif de l'Assurance Maladie au 2 mars 2026 : 120,00 €",
          ),
      ),
    ).toBeInTheDocument();
    expect(
      within(note1).getByText(
        (_, el) =>
          el?.tagName === "P" &&
          words(el.textContent ?? "").includes(
            "Lu sur le devis : 64,50 € · Tarif de l'Assurance Maladie au 2 mars 2026 : 72,00 €",
          ),
      ),
    ).toBeInTheDocument();
    expect(within(note1).getAllByText("À vérifier").length).toBeGreaterThanOrEqual(2);
    const line2 = within(mine).getByRole("group", { name: "Acte 2" }).parentElement as HTMLElement;
    expect(
      within(line2).getByText(
        (_, el) =>
          el?.tagName === "P" &&
          words(el.textContent ?? "").includes(
            "Non indiqué sur le devis · Tarif de l'Assurance Maladie au 2 mars 2026 : 120,00 €",
          ),
      ),
    ).toBeInTheDocument();
    expect(within(line2).queryByRole("button", { name: /Utiliser le tarif/ })).not.toBeInTheDocument();

    await user.click(
      within(note1).getByRole("button", { name: "Utiliser le tarif : Base de remboursement, ligne 1" }),
    );
    expect(within(note1).getByText(/Tarif retenu/)).toBeInTheDocument();
    expect(
      within(note1).getByRole("button", { name: "Garder la valeur lue : Base de remboursement, ligne 1" }),
    ).toBeInTheDocument();

    await user.click(within(mine).getByRole("button", { name: "Enregistrer ces lignes" }));
    expect(await screen.findByText(QUOTE_MESSAGES.saved)).toBeInTheDocument();
    expect(calls.find((c) => c.key === PUT_QUOTE)?.body).toMatchObject({
      reading_id: READING_ID,
      quote_date: "2026-03-02",
      reading_choices: [
        { line: 0, field: "br_cents", use: "table" },
        { line: 0, field: "amo_cents", use: "read" },
      ],
    });
  });

  it("montre, à côté d'un montant corrigé par la lecture, la valeur lue sur la photo (issue 34)", async () => {
    const { expected, first, second } = comparedOn2March();
    const result: ReadResult = {
      ...RESULT,
      quote_date: "2026-03-02",
      lines: [
        // OCR read "1200" for the BR (12,00 €); the printed AMO and the table proved 120,00 €.
        {
          ...first,
          br_cents: 12_000,
          amo_cents: 7200,
          uncertain: ["br_cents"],
          expected,
          filled: [],
          as_read: { br_cents: 1200 },
        },
        // OCR read "50,00" for the fee; the printed total proved 500,00 €.
        { ...second, uncertain: ["fee_cents"], as_read: { fee_cents: 5000 } },
      ],
    };
    openPage(done({ kind: "image", result }));
    const mine = await myQuote();
    const line1 = (await within(mine).findByRole("group", { name: "Acte 1" })).parentElement as HTMLElement;
    // The paragraph's text (a line break, not a space, follows "À vérifier").
    const says = (text: string) => (_: string, el: Element | null) =>
      el?.tagName === "P" && words(el.textContent ?? "").includes(text);
    expect(
      within(line1).getByText(
        says("Base de remboursement À vérifier120,00 € — Corrigé d'après le devis (lu : 12,00 €)"),
      ),
    ).toBeInTheDocument();
    // The corrected BR is the table's: nothing to compare, nothing to choose.
    expect(within(line1).queryByRole("button", { name: /Utiliser le tarif/ })).not.toBeInTheDocument();
    const line2 = within(mine).getByRole("group", { name: "Acte 2" }).parentElement as HTMLElement;
    expect(
      within(line2).getByText(
        says("Honoraires À vérifier500,00 € — Corrigé d'après le devis (lu : 50,00 €)"),
      ),
    ).toBeInTheDocument();
    expect(within(line2).getByText(words(READING_MESSAGES.correctedHint))).toBeInTheDocument();
    // The editor holds the corrected fee, flagged.
    expect(within(line2).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("500,00");
    // Only the figure corrected is shown so: the first line's fee was read as printed.
    expect(within(line1).queryByText(says("Honoraires À vérifier"))).not.toBeInTheDocument();
    expect(within(line1).getAllByText(says("Corrigé d'après le devis"))).toHaveLength(1);
  });

  it("« Garder la valeur lue » remet la valeur lue dans la ligne, « Garder la valeur corrigée » l'annule, au clavier aussi (issue 34)", async () => {
    const { expected, first, second } = comparedOn2March();
    const result: ReadResult = {
      ...RESULT,
      quote_date: "2026-03-02",
      lines: [
        // A known act's BR read "1200" (12,00 €), corrected to the table's 120,00 €: no field holds it.
        {
          ...first,
          br_cents: 12_000,
          amo_cents: 7200,
          uncertain: ["br_cents"],
          expected,
          filled: [],
          as_read: { br_cents: 1200 },
        },
        // The fee read "50,00", corrected to 500,00 € by the printed total: the fee's field holds it.
        { ...second, uncertain: ["fee_cents"], as_read: { fee_cents: 5000 } },
        // A free line's BR read again in its cell (9,00 € first, then 90,00 €): its BR field holds it.
        FREE_BR_READ_AGAIN,
      ],
      total_cents: 155_000,
      lines_total_cents: 155_000,
    };
    const { calls, user } = openPage(done({ kind: "image", result }), { [PUT_QUOTE]: saveFails });
    const mine = await myQuote();
    const group2 = await within(mine).findByRole("group", { name: "Acte 2" });
    const line2 = group2.parentElement as HTMLElement;
    const fee = within(group2).getByRole("textbox", { name: /Honoraires/ });
    expect(fee).toHaveValue("500,00");

    // The fee: the value read goes back in its field, flagged no more; the button now undoes it.
    await user.click(
      within(line2).getByRole("button", {
        name: nb("Garder la valeur lue pour les honoraires de l'acte 2 : 50,00 €"),
      }),
    );
    expect(fee).toHaveValue("50,00");
    expect(within(line2).getByText(/Valeur lue retenue\s:\s50,00\s€/)).toBeInTheDocument();
    const undo = within(line2).getByRole("button", {
      name: nb("Garder la valeur corrigée pour les honoraires de l'acte 2 : 500,00 €"),
    });
    // One button whose words change: the focus stays on it, and Enter undoes.
    expect(undo).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(fee).toHaveValue("500,00");
    expect(within(line2).queryByText(/Valeur lue retenue/)).not.toBeInTheDocument();
    expect(
      within(line2).getByRole("button", {
        name: nb("Garder la valeur lue pour les honoraires de l'acte 2 : 50,00 €"),
      }),
    ).toHaveFocus();
    await user.keyboard(" ");
    expect(fee).toHaveValue("50,00");

    // A free line's BR: its field.
    const group3 = within(mine).getByRole("group", { name: "Acte 3" });
    const br = within(group3).getByRole("textbox", { name: /Base de remboursement/ });
    expect(br).toHaveValue("90,00");
    const line3 = group3.parentElement as HTMLElement;
    await user.click(
      within(line3).getByRole("button", {
        name: nb("Garder la valeur lue pour la base de remboursement de l'acte 3 : 9,00 €"),
      }),
    );
    expect(br).toHaveValue("9,00");
    expect(within(line3).queryByText(words(READING_MESSAGES.readKeptHint))).not.toBeInTheDocument();

    // A known act's BR: no field; kept with the reading, and the screen says the estimate stays the table's.
    const line1 = within(mine).getByRole("group", { name: "Acte 1" }).parentElement as HTMLElement;
    await user.click(
      within(line1).getByRole("button", {
        name: nb("Garder la valeur lue pour la base de remboursement de l'acte 1 : 12,00 €"),
      }),
    );
    expect(within(line1).getByText(/Valeur lue retenue\s:\s12,00\s€/)).toBeInTheDocument();
    expect(within(line1).getByText(words(READING_MESSAGES.readKeptHint))).toBeInTheDocument();
    expect(
      within(line1).getByRole("button", {
        name: nb("Garder la valeur corrigée pour la base de remboursement de l'acte 1 : 120,00 €"),
      }),
    ).toBeInTheDocument();

    await user.click(within(mine).getByRole("button", { name: "Enregistrer ces lignes" }));
    await waitFor(() => expect(calls.some((c) => c.key === PUT_QUOTE)).toBe(true));
    expect(calls.find((c) => c.key === PUT_QUOTE)?.body).toMatchObject({
      reading_id: READING_ID,
      lines: [
        // A known act's BR is never sent: the server takes the table's.
        expect.objectContaining({ code: "HBLD734", fee_cents: 75_000, br_cents: null }),
        expect.objectContaining({ code: "HBLD634", fee_cents: 5000 }),
        expect.objectContaining({ code: null, act: "HBMD017 · Inlay core", br_cents: 900 }),
      ],
      reading_choices: [{ line: 0, field: "br_cents", use: "read" }],
    });
  });

  it("« Garder la valeur corrigée » remet le champ « À vérifier » comme avant le choix, une saisie l'enlève (issue 34)", async () => {
    const { second } = comparedOn2March();
    const result: ReadResult = {
      ...RESULT,
      lines: [
        // The fee read "50,00", corrected to 500,00 € by the printed total.
        { ...second, uncertain: ["fee_cents"], as_read: { fee_cents: 5000 } },
        // A free line's BR read "9,00" first, then 90,00 € in its cell.
        FREE_BR_READ_AGAIN,
      ],
      total_cents: 80_000,
      lines_total_cents: 80_000,
    };
    const { user } = openPage(done({ kind: "image", result }));
    const mine = await myQuote();
    const group1 = await within(mine).findByRole("group", { name: "Acte 1" });
    const line1 = group1.parentElement as HTMLElement;
    const fee = within(group1).getByRole("textbox", { name: /Honoraires/ });
    /** The field as the patient sees it: outlined, "À vérifier" in its label — or neither. */
    const flagged = (field: HTMLElement, label: string) => {
      expect(field).toHaveAccessibleName(`${label} À vérifier`);
      expect(field).toHaveClass("ring-2");
    };
    const plain = (field: HTMLElement, label: string) => {
      expect(field).toHaveAccessibleName(label);
      expect(field).not.toHaveClass("ring-2");
    };
    /** The live region beside a figure's button, which says the choice in words. */
    const liveOf = (button: HTMLElement) =>
      button.closest("li")?.querySelector("[aria-live='polite']") as HTMLElement;
    flagged(fee, "Honoraires (€)");

    // The value read kept: the patient's choice, no longer to check; said in the live region.
    const keepFee = within(line1).getByRole("button", {
      name: nb("Garder la valeur lue pour les honoraires de l'acte 1 : 50,00 €"),
    });
    await user.click(keepFee);
    expect(fee).toHaveValue("50,00");
    plain(fee, "Honoraires (€)");
    expect(liveOf(keepFee)).toHaveTextContent(/^Valeur lue retenue\s:\s50,00\s€$/);
    // Undone from the keyboard: the field is as before the choice, the focus still on the button.
    await user.keyboard("{Enter}");
    expect(fee).toHaveValue("500,00");
    flagged(fee, "Honoraires (€)");
    expect(liveOf(keepFee)).toHaveTextContent(/^Valeur corrigée retenue\s:\s500,00\s€$/);
    expect(keepFee).toHaveFocus();
    expect(keepFee).toHaveAccessibleName(
      nb("Garder la valeur lue pour les honoraires de l'acte 1 : 50,00 €"),
    );
    // Kept and undone twice: the same.
    await user.keyboard(" ");
    plain(fee, "Honoraires (€)");
    await user.keyboard(" ");
    flagged(fee, "Honoraires (€)");
    // Typed by the patient: checked, the flag goes for good.
    await user.clear(fee);
    await user.type(fee, "480");
    plain(fee, "Honoraires (€)");
    await user.click(keepFee);
    await user.click(keepFee);
    expect(fee).toHaveValue("500,00");
    plain(fee, "Honoraires (€)");

    // A free line's BR, the same.
    const group2 = within(mine).getByRole("group", { name: "Acte 2" });
    const line2 = group2.parentElement as HTMLElement;
    const br = within(group2).getByRole("textbox", { name: /Base de remboursement/ });
    flagged(br, "Base de remboursement (€)");
    const keepBr = within(line2).getByRole("button", {
      name: nb("Garder la valeur lue pour la base de remboursement de l'acte 2 : 9,00 €"),
    });
    await user.click(keepBr);
    expect(br).toHaveValue("9,00");
    plain(br, "Base de remboursement (€)");
    await user.click(keepBr);
    expect(br).toHaveValue("90,00");
    flagged(br, "Base de remboursement (€)");
    await user.type(br, "5");
    plain(br, "Base de remboursement (€)");
  });

  it("« Garder la valeur corrigée » retire le choix de la valeur lue envoyé avec les lignes (issue 34)", async () => {
    const { expected, first, second } = comparedOn2March();
    const result: ReadResult = {
      ...RESULT,
      quote_date: "2026-03-02",
      lines: [
        // An AMO read "720" (7,20 €), corrected to the table's 72,00 € (the printed BR is the table's).
        {
          ...first,
          br_cents: 12_000,
          amo_cents: 7200,
          uncertain: ["amo_cents"],
          expected,
          filled: [],
          as_read: { amo_cents: 720 },
        },
        second,
      ],
    };
    const { calls, user } = openPage(done({ kind: "image", result }), { [PUT_QUOTE]: saveFails });
    const mine = await myQuote();
    const line1 = (await within(mine).findByRole("group", { name: "Acte 1" })).parentElement as HTMLElement;
    await user.click(
      within(line1).getByRole("button", {
        name: nb("Garder la valeur lue pour la part de l'Assurance Maladie de l'acte 1 : 7,20 €"),
      }),
    );
    await user.click(
      within(line1).getByRole("button", {
        name: nb("Garder la valeur corrigée pour la part de l'Assurance Maladie de l'acte 1 : 72,00 €"),
      }),
    );
    expect(within(line1).getByText("À vérifier")).toBeInTheDocument();
    await user.click(within(mine).getByRole("button", { name: "Enregistrer ces lignes" }));
    await waitFor(() => expect(calls.some((c) => c.key === PUT_QUOTE)).toBe(true));
    // No choice left to send (an empty list is left out of the body): the correction stands.
    const body = calls.find((c) => c.key === PUT_QUOTE)?.body as { reading_choices?: unknown[] };
    expect(body.reading_choices ?? []).toEqual([]);
  });

  it("refuse d'enregistrer une ligne illisible, sans rien envoyer", async () => {
    const { calls, user } = openPage(done(), { [PUT_QUOTE]: saveFails });
    const mine = await myQuote();
    const second = await within(mine).findByRole("group", { name: "Acte 2" });
    await user.clear(within(second).getByRole("textbox", { name: /Honoraires/ }));
    await user.click(within(mine).getByRole("button", { name: "Enregistrer ces lignes" }));
    expect(await within(second).findByText(QUOTE_MESSAGES.feeInvalid)).toBeInTheDocument();
    expect(calls.some((c) => c.key === PUT_QUOTE)).toBe(false);
  });

  it("prévient quand le total du devis ne correspond pas aux lignes, et dit de vérifier avec soin", async () => {
    const { user } = openPage(
      done({
        result: {
          ...RESULT,
          total_cents: 130_000,
          total_matches: false,
          confidence: 0.6,
          patient_name: null,
        },
      }),
    );
    const mine = await myQuote();
    await within(mine).findByRole("heading", { name: /Vérifiez les lignes/ });
    expect(within(mine).getByText("Lecture à vérifier avec soin")).toBeInTheDocument();
    expect(within(mine).getByText("Devis du Dr Claire Martin (RPPS 10101234567)")).toBeInTheDocument();
    const warning = words(READING_MESSAGES.totalMismatch(130_000, 125_000));
    expect(within(mine).getByText(warning)).toBeInTheDocument();
    // The missing 50 € found on the second line: the warning goes.
    const fee = within(within(mine).getByRole("group", { name: "Acte 2" })).getByRole("textbox", {
      name: /Honoraires/,
    });
    await user.clear(fee);
    await user.type(fee, "550");
    expect(within(mine).queryByText(warning)).not.toBeInTheDocument();
  });

  it("« Saisir moi-même » écarte la lecture et ouvre l'éditeur vide", async () => {
    const { calls, user } = openPage(done());
    const mine = await myQuote();
    await within(mine).findByRole("heading", { name: /Vérifiez les lignes/ });
    await user.click(within(mine).getByRole("button", { name: "Saisir moi-même" }));
    await waitFor(() => expect(calls.some((c) => c.key === DISMISS)).toBe(true));
    const row = within(mine).getByRole("group", { name: "Acte 1" });
    expect(within(row).getByRole("textbox", { name: /Honoraires/ })).toHaveValue("");
    expect(within(mine).queryByRole("group", { name: "Acte 2" })).not.toBeInTheDocument();
    expect(within(mine).getByRole("button", { name: "Enregistrer mon devis" })).toBeInTheDocument();
    expect(within(mine).queryByRole("heading", { name: /Vérifiez les lignes/ })).not.toBeInTheDocument();
    // Closing the editor: the dismissed reading does not come back.
    await user.click(within(mine).getByRole("button", { name: "Annuler" }));
    expect(await within(mine).findByText(/Votre devis n'est pas détaillé/)).toBeInTheDocument();
  });
});

describe("un devis illisible", () => {
  it("le dit simplement et propose la saisie ligne par ligne, qui écarte la lecture", async () => {
    const { calls, user } = openPage(makeReading({ status: "failed", message: READING_MESSAGES.timeout }));
    const mine = await myQuote();
    expect(await within(mine).findByText(words(READING_MESSAGES.failed))).toBeInTheDocument();
    expect(within(mine).getByText(READING_MESSAGES.timeout)).toBeInTheDocument();
    // One way to type the lines, not two.
    expect(within(mine).getAllByRole("button", { name: "Saisir mon devis ligne par ligne" })).toHaveLength(1);
    await user.click(within(mine).getByRole("button", { name: "Saisir mon devis ligne par ligne" }));
    expect(within(mine).getByRole("group", { name: "Acte 1" })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.key === DISMISS)).toBe(true));
    expect(within(mine).queryByText(words(READING_MESSAGES.failed))).not.toBeInTheDocument();
  });

  it("« Relire le devis » relance la lecture", async () => {
    const { calls, user } = openPage(makeReading({ status: "done", result: { ...RESULT, lines: [] } }));
    const mine = await myQuote();
    expect(await within(mine).findByText(words(READING_MESSAGES.noLines))).toBeInTheDocument();
    await user.click(within(mine).getByRole("button", { name: "Relire le devis" }));
    expect(await within(mine).findByText(READING_MESSAGES.pending)).toBeInTheDocument();
    expect(calls.filter((c) => c.key === READ)).toHaveLength(1);
  });

  it("montre le refus du serveur quand la lecture ne peut être relancée", async () => {
    const { user } = openPage(makeReading({ status: "failed", message: READING_MESSAGES.damaged }), {
      [READ]: () => json(409, { error: { code: "CONFLICT", message: READING_MESSAGES.alreadyReading } }),
    });
    const mine = await myQuote();
    await user.click(await within(mine).findByRole("button", { name: "Relire le devis" }));
    expect(await screen.findByText(READING_MESSAGES.alreadyReading)).toBeInTheDocument();
  });
});

describe("lire un devis depuis la liste des documents", () => {
  it("« Lire ce devis » lance la lecture d'un devis PDF, puis disparaît tant qu'elle est en cours", async () => {
    const photo: DocumentDto = {
      ...devis,
      id: "99999999-9999-4999-8999-999999999999",
      file_name: "radio.png",
      mime_type: "image/png",
      document_type: "xray",
    };
    const { calls, user } = openPage(null, {}, { documents: [devis, photo], document_count: 2 });
    const read = await screen.findByRole("button", { name: /^Lire ce devis\s:\sdevis-dupont\.pdf$/ });
    // Only a document typed 'Devis' is read.
    expect(screen.getAllByRole("button", { name: /Lire ce devis/ })).toHaveLength(1);
    await user.click(read);
    const mine = await myQuote();
    expect(await within(mine).findByText(READING_MESSAGES.pending)).toBeInTheDocument();
    expect(calls.filter((c) => c.key === READ)).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByRole("button", { name: /Lire ce devis/ })).not.toBeInTheDocument(),
    );
  });

  it("ne propose pas de lire le devis d'une demande dont les lignes sont saisies, ou terminée", async () => {
    const lines = [
      resolveLine(
        { code: "HBLD734", act: "Couronne", tooth: 36, fee_cents: 75_000, br_cents: null },
        "2026-11-25",
      ),
    ];
    const first = openPage(done(), {}, { quote_lines: lines, quote_amount_cents: 75_000 });
    const mine = await myQuote();
    expect(await within(mine).findByText(/HBLD734/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Lire ce devis/ })).not.toBeInTheDocument();
    expect(within(mine).queryByRole("heading", { name: /Vérifiez les lignes/ })).not.toBeInTheDocument();
    expect(first.calls.some((c) => c.key === GET_READING)).toBe(false);
  });
});

describe("un devis reconnu parmi les photos (issue 34)", () => {
  it("dit dans quel fichier le devis a été reconnu, du nom que le patient lui a donné", async () => {
    const photo: DocumentDto = {
      ...devis,
      file_name: "photo-1.jpg",
      mime_type: "image/jpeg",
      document_type: "photo",
    };
    openPage(done({ recognised: true, file_name: "photo-1.jpg" }), {}, { documents: [photo] });
    const mine = await myQuote();
    expect(await within(mine).findByText("Nous avons reconnu un devis dans photo-1.jpg")).toBeInTheDocument();
    expect(within(mine).getByRole("heading", { name: /Vérifiez les lignes/ })).toBeInTheDocument();
  });

  it("corrige le type d'un document : en « Devis », il est lu", async () => {
    const photo: DocumentDto = {
      ...devis,
      file_name: "photo-1.jpg",
      mime_type: "image/jpeg",
      document_type: "photo",
    };
    const PATCH = `PATCH ${BASE}/documents/${DOCUMENT_ID}`;
    const { calls, state, user } = openPage(
      null,
      {
        [PATCH]: () => {
          const document = { ...photo, document_type: "quote" as const };
          state.request = { ...state.request, documents: [document] };
          state.reading = makeReading({ file_name: "photo-1.jpg" });
          return json(200, { document, reading: state.reading, message: DOCUMENT_MESSAGES.typeSavedReading });
        },
      },
      { documents: [photo] },
    );
    const select = await screen.findByRole("combobox", { name: "Type de document pour photo-1.jpg" });
    expect(select).toHaveTextContent("Photo");
    await user.click(select);
    await user.click(await screen.findByRole("option", { name: "Devis" }));
    expect(await screen.findByText(spaced(DOCUMENT_MESSAGES.typeSavedReading))).toBeInTheDocument();
    expect(calls.find((c) => c.key === PATCH)?.body).toEqual({ type: "quote" });
    const mine = await myQuote();
    await waitFor(() => expect(within(mine).getByRole("status")).toHaveTextContent(READING_MESSAGES.pending));
  });
});

describe("au téléversement", () => {
  it("annonce la lecture d'un devis envoyé sans ses lignes", async () => {
    stubApi(patient, { "GET /api/dentists/verified": () => json(200, { items: [] }) });
    const user = userEvent.setup();
    renderApp("/patient/upload");
    await user.upload(await screen.findByLabelText("Choisir des fichiers"), [
      fakeFile("scan.pdf", "application/pdf", 4000),
    ]);
    expect(screen.queryByText(words(READING_UPLOAD_HINT))).not.toBeInTheDocument();
    await user.click(screen.getByRole("combobox", { name: "Type de document pour scan.pdf" }));
    await user.click(await screen.findByRole("option", { name: "Devis" }));
    expect(await screen.findByText(words(READING_UPLOAD_HINT))).toBeInTheDocument();
    // Typing the lines: nothing to read.
    await user.click(screen.getByRole("button", { name: "Ajouter un acte" }));
    expect(screen.queryByText(words(READING_UPLOAD_HINT))).not.toBeInTheDocument();
  });
});

vi.setConfig({ testTimeout: 30_000 });
