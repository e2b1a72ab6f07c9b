import { describe, expect, it } from "vitest";
import { classifyDevis } from "./classify";
import type { PageWords } from "./types";

/** One page whose words are these texts, one per row (positions do not matter to the classification). */
const page = (texts: string[], source: PageWords["source"] = "ocr"): PageWords => ({
  page: 1,
  width: 600,
  height: 850,
  source,
  words: texts.flatMap((text, row) =>
    text
      .split(" ")
      .map((word, i) => ({ text: word, x: i * 40, y: row * 20, width: 35, height: 10, confidence: 90 })),
  ),
});

describe("classifyDevis (issue 34)", () => {
  it("recognises a devis by its header words and its CCAM codes", () => {
    const result = classifyDevis([
      page([
        "DEVIS POUR LES TRAITEMENTS ET ACTES BUCCO-DENTAIRES",
        "Dent Code Acte Panier Honoraires Base de remboursement",
        "36 HBLD734 Couronne 1 250,00 € 120,00 €",
      ]),
    ]);
    expect(result).toEqual({ devis: true, signals: 4, codes: 1 });
  });

  it("recognises an OCR'd code only when its repair is in the act table", () => {
    // "HBLDO73" is HBLD073 misread (O for 0); "ABCD12" is no code.
    expect(classifyDevis([page(["Honoraires", "HBLDO73 ABCD12"])])).toMatchObject({ devis: false, codes: 1 });
    expect(classifyDevis([page(["Honoraires BR", "HBLDO73 ABCD12"])])).toMatchObject({
      devis: true,
      codes: 1,
    });
  });

  it("does not take an X-ray, a prescription or a letter mentioning a devis for one", () => {
    expect(classifyDevis([page([])]).devis).toBe(false);
    expect(classifyDevis([page(["Radiographie panoramique", "Dr Claire Martin 12/11/2026"])]).devis).toBe(
      false,
    );
    expect(classifyDevis([page(["Ordonnance", "Paracétamol 1 g", "Honoraires réglés"], "text")]).devis).toBe(
      false,
    );
    expect(
      classifyDevis([page(["Suite à votre devis du 3 mars,", "les honoraires restent inchangés."], "text")])
        .devis,
    ).toBe(false);
  });
});
