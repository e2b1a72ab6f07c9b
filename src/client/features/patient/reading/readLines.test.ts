import { describe, expect, it } from "vitest";
import type { QuoteReading, ReadLine, ReadResult } from "../../../../shared/schemas/reading";
import {
  confidenceWords,
  correctedFigures,
  correctionTarget,
  readingChoices,
  readingParties,
  readingStage,
  readLinesToDrafts,
  readLineToDraft,
  tariffComparisons,
  updateHighlight,
} from "./readLines";

const line = (overrides: Partial<ReadLine> = {}): ReadLine => ({
  tooth: 36,
  code: "HBLD734",
  act: "Couronne céramo-métallique sur molaire",
  basket: "libre",
  fee_cents: 117_500,
  br_cents: 10_750,
  amo_cents: 6450,
  uncertain: [],
  ...overrides,
});

const result = (overrides: Partial<ReadResult> = {}): ReadResult => ({
  lines: [line()],
  total_cents: 117_500,
  lines_total_cents: 117_500,
  total_matches: true,
  patient_name: "Jean Dupont",
  practitioner_name: "Dr Claire Martin",
  practitioner_number: { kind: "RPPS", value: "10101234567" },
  confidence: 0.95,
  ...overrides,
});

const reading = (overrides: Partial<QuoteReading> = {}): QuoteReading => ({
  id: "l1",
  request_id: "r1",
  document_id: "d1",
  file_name: "devis.pdf",
  status: "done",
  kind: "text_pdf",
  pages: 1,
  result: result(),
  message: null,
  created_at: "2026-11-25T10:00:00.000Z",
  finished_at: "2026-11-25T10:00:01.000Z",
  confirmed_at: null,
  dismissed_at: null,
  choices: [],
  recognised: false,
  ...overrides,
});

describe("readLineToDraft", () => {
  it("prend l'intitulé de la table pour un code connu, les honoraires en euros, sans BR", () => {
    expect(readLineToDraft(line())).toMatchObject({
      code: "HBLD734",
      act: "Couronne céramo-métallique (molaire)",
      tooth: 36,
      fee: "1 175,00",
      br: "",
    });
  });

  it("garde un code hors table dans le texte d'une ligne libre, avec sa BR", () => {
    expect(
      readLineToDraft(line({ code: "HBMD017", act: "Inlay core", br_cents: 0, tooth: 46 })),
    ).toMatchObject({ code: null, act: "HBMD017 · Inlay core", br: "0,00", tooth: 46 });
  });

  it("laisse vides ce qui n'a pas été lu : dent hors FDI, honoraires absents", () => {
    expect(readLineToDraft(line({ tooth: 19, fee_cents: null }))).toMatchObject({ tooth: null, fee: "" });
  });
});

describe("readLinesToDrafts", () => {
  it("signale les champs douteux, et ceux qui n'ont pas pu être lus", () => {
    const { drafts, highlight } = readLinesToDrafts([
      line(),
      line({ uncertain: ["fee_cents", "basket"] }),
      line({ tooth: 59, fee_cents: null, code: null, act: "" }),
    ]);
    expect(drafts).toHaveLength(3);
    expect(highlight[drafts[0]?.id ?? ""]).toBeUndefined();
    expect(highlight[drafts[1]?.id ?? ""]).toEqual(["fee_cents", "basket"]);
    expect(new Set(highlight[drafts[2]?.id ?? ""])).toEqual(new Set(["tooth", "fee_cents", "act"]));
  });

  it("retire le signalement d'un champ modifié, et d'une ligne supprimée", () => {
    const { drafts, highlight } = readLinesToDrafts([
      line({ uncertain: ["fee_cents", "tooth"] }),
      line({ uncertain: ["code"] }),
    ]);
    const [first, second] = drafts as [(typeof drafts)[0], (typeof drafts)[0]];
    const edited = [{ ...first, fee: "1 000" }, second];
    expect(updateHighlight(highlight, drafts, edited)).toEqual({
      [first.id]: ["tooth"],
      [second.id]: ["code"],
    });
    expect(updateHighlight(highlight, drafts, [first])).toEqual({ [first.id]: ["fee_cents", "tooth"] });
  });
});

describe("readingParties", () => {
  it("nomme le praticien, son numéro et le patient", () => {
    expect(readingParties(result())).toBe("Devis du Dr Claire Martin (RPPS 10101234567) pour Jean Dupont");
    expect(
      readingParties(
        result({
          practitioner_name: "Docteur Paul Lefèvre",
          practitioner_number: { kind: "ADELI", value: "751234567" },
          patient_name: null,
        }),
      ),
    ).toBe("Devis du Dr Paul Lefèvre (ADELI 751234567)");
    expect(readingParties(result({ practitioner_name: null }))).toBe(
      "Devis du praticien RPPS 10101234567 pour Jean Dupont",
    );
    expect(
      readingParties(result({ practitioner_name: null, practitioner_number: null, patient_name: null })),
    ).toBeNull();
  });
});

describe("confidenceWords", () => {
  it("des mots, jamais un nombre ; un total qui ne correspond pas demande de vérifier", () => {
    expect(confidenceWords(result())).toBe("Lecture fiable");
    expect(confidenceWords(result({ confidence: 0.5 }))).toBe("Lecture à vérifier avec soin");
    expect(confidenceWords(result({ total_matches: false }))).toBe("Lecture à vérifier avec soin");
  });
});

describe("readingStage", () => {
  it("ne montre la lecture que sur une demande modifiable, tant qu'elle n'est ni enregistrée ni écartée", () => {
    expect(readingStage(null, true)).toBe("none");
    expect(readingStage(reading(), false)).toBe("none");
    expect(readingStage(reading({ confirmed_at: "2026-11-25T10:01:00.000Z" }), true)).toBe("none");
    expect(readingStage(reading({ dismissed_at: "2026-11-25T10:01:00.000Z" }), true)).toBe("none");
    expect(readingStage(reading({ status: "pending", result: null }), true)).toBe("pending");
    expect(readingStage(reading({ status: "failed", result: null }), true)).toBe("unreadable");
    expect(readingStage(reading({ result: result({ lines: [] }) }), true)).toBe("unreadable");
    expect(readingStage(reading(), true)).toBe("review");
  });
});

describe("the figures read beside the table's (issue 34)", () => {
  const expected = { basket: "libre" as const, br_cents: 12_000, amo_cents: 7200, day: "2026-03-02" };

  it("lists the printed figures the table contradicts, and those not printed; none for a free line", () => {
    // Printed 107,50 € and 64,50 € where the table says 120,00 € and 72,00 €; the basket agrees.
    expect(tariffComparisons(line({ expected, filled: [] }))).toEqual([
      { field: "br_cents", read: 10_750, table: 12_000, day: "2026-03-02" },
      { field: "amo_cents", read: 6450, table: 7200, day: "2026-03-02" },
    ]);
    // An AMO a cent off 60 % is a rounding, not a contradiction.
    expect(tariffComparisons(line({ br_cents: 12_000, amo_cents: 7201, expected, filled: [] }))).toEqual([]);
    expect(
      tariffComparisons(
        line({ br_cents: 12_000, amo_cents: 7200, expected, filled: ["br_cents", "amo_cents"] }),
      ),
    ).toEqual([
      { field: "br_cents", read: null, table: 12_000, day: "2026-03-02" },
      { field: "amo_cents", read: null, table: 7200, day: "2026-03-02" },
    ]);
    expect(tariffComparisons(line({ code: "HBQK002", expected: null }))).toEqual([]);
    // A reading made before issue 34: nothing to compare.
    expect(tariffComparisons(line())).toEqual([]);
  });

  it("sends a choice for every printed figure compared, the value read unless the patient chose the table's", () => {
    const lines = [line({ expected, filled: [] }), line({ code: null, expected: null })];
    expect(readingChoices(lines, { "0.br_cents": "table" })).toEqual([
      { line: 0, field: "br_cents", use: "table" },
      { line: 0, field: "amo_cents", use: "read" },
    ]);
  });
});

describe("the amounts the reading corrected (issue 34)", () => {
  it("lists each corrected amount with what OCR read, fee first; nothing for a line as read", () => {
    const corrected = line({
      fee_cents: 50_000,
      br_cents: 12_000,
      as_read: { br_cents: 1200, fee_cents: 5000 },
    });
    expect(correctedFigures(corrected)).toEqual([
      { field: "fee_cents", value: 50_000, read: 5000 },
      { field: "br_cents", value: 12_000, read: 1200 },
    ]);
    expect(correctedFigures(line())).toEqual([]);
    // A figure since emptied, or equal to what was read, is no correction to show.
    expect(correctedFigures(line({ fee_cents: null, as_read: { fee_cents: 5000 } }))).toEqual([]);
    expect(correctedFigures(line({ as_read: { amo_cents: 6450 } }))).toEqual([]);
  });

  it("puts the value read back in the fee's field or a free line's BR's; a known act's BR and an AMO are a choice", () => {
    const known = readLineToDraft(line());
    const free = readLineToDraft(line({ code: "HBMD017", act: "Inlay core" }));
    expect(correctionTarget("fee_cents", known)).toBe("fee");
    expect(correctionTarget("br_cents", known)).toBe("choice");
    expect(correctionTarget("amo_cents", known)).toBe("choice");
    expect(correctionTarget("br_cents", free)).toBe("br");
    expect(correctionTarget("amo_cents", free)).toBe("choice");
  });

  it("sends « read » for a corrected BR or AMO the patient kept, nothing while the correction stands", () => {
    const expected = { basket: "libre" as const, br_cents: 12_000, amo_cents: 7200, day: "2026-03-02" };
    const lines = [
      line({ br_cents: 12_000, amo_cents: 7200, expected, filled: [], as_read: { br_cents: 1200 } }),
      line({ fee_cents: 50_000, as_read: { fee_cents: 5000 } }),
    ];
    expect(readingChoices(lines, {})).toEqual([]);
    expect(readingChoices(lines, { "0.br_cents": "read", "1.fee_cents": "read" })).toEqual([
      { line: 0, field: "br_cents", use: "read" },
    ]);
  });
});
