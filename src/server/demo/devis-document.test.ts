import { afterAll, describe, expect, it } from "vitest";
import { closeOcr, readQuote } from "../modules/reading/read";
import { demoDevisPdf, devisRows } from "./devis-document";
import { DEMO_REQUESTS } from "./requests";

afterAll(async () => {
  await closeOcr();
});

const DEVIS = DEMO_REQUESTS.flatMap((request) =>
  request.documents.flatMap((doc) => (doc.devis ? [{ name: doc.name, ...doc.devis }] : [])),
);

describe("the demo patient's devis", () => {
  it("prints the act table's basket, BR and AMO on its day: a worked example", () => {
    // The crown on the 16 (2026 terms): HBLD734 is a free-tariff crown, BR 120 €, AMO 60 % = 72 €;
    // HBLD245 an inlay-core under it, BR 90 €, AMO 54 €.
    const crown = DEVIS.find((d) => d.name === "devis-couronne.pdf");
    expect(devisRows({ day: "2026-11-27", lines: crown?.lines ?? [] })).toEqual([
      {
        tooth: 16,
        code: "HBLD734",
        act: "Couronne céramo-métallique (molaire)",
        basket: "libre",
        feeCents: 750_00,
        brCents: 120_00,
        amoCents: 72_00,
      },
      {
        tooth: 16,
        code: "HBLD245",
        act: "Inlay-core",
        basket: "libre",
        feeCents: 220_00,
        brCents: 90_00,
        amoCents: 54_00,
      },
    ]);
  });

  it.each(DEVIS.map((d) => [d.name, d] as const))(
    "%s is a devis « Lire ce devis » reads whole: every line, its figures and the total",
    async (_name, devis) => {
      const day = "2026-11-27";
      const pdf = await demoDevisPdf({ ...devis, patient: "Marie Dupont", day });
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      const reading = await readQuote(pdf, { mime: "application/pdf" });
      expect(reading.kind).toBe("text_pdf");
      expect(reading.text).toContain("Marie Dupont");
      expect(reading.text).toContain("démonstration");
      const rows = devisRows({ day, lines: devis.lines });
      expect(
        reading.result.lines.map((line) => ({
          tooth: line.tooth,
          code: line.code,
          basket: line.basket,
          fee: line.fee_cents,
          br: line.br_cents,
          amo: line.amo_cents,
        })),
      ).toEqual(
        rows.map((row) => ({
          tooth: row.tooth,
          code: row.code,
          basket: row.basket,
          fee: row.feeCents,
          br: row.brCents,
          amo: row.amoCents,
        })),
      );
      expect(reading.result.lines.every((line) => line.uncertain.length === 0)).toBe(true);
      expect(reading.result.total_cents).toBe(rows.reduce((sum, row) => sum + row.feeCents, 0));
      expect(reading.result.total_matches).toBe(true);
    },
  );
});
