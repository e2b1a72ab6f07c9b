import type { ReadResult } from "../../../shared/schemas/reading";
import type { PageWords } from "./types";
import { readCode } from "./understand/values";

/**
 * Is this document a devis? (issue 34, ADR 043). A photo or a PDF of a request without lines, not typed
 * 'Devis', is classified in the reading queue (in the reading's bounded process, read.ts) before anything
 * is understood from it: on the words already extracted (the PDF's text layer, or OCR), the cheap signals
 * of a devis — the words of its header and a table of CCAM codes. A devis always has both: the devis
 * normalisé lists its acts by CCAM code under "honoraires" and "base de remboursement". An X-ray, a
 * photo of the mouth or a prescription has neither, or not both. Pure: no I/O.
 */

/** Header words of a devis, accents and case ignored, one signal each. */
const SIGNALS: readonly RegExp[] = [
  /\bdevis\b/,
  /\bhonoraires?\b/,
  /\bbase de (?:remboursement|rembt)\b|\bbr\b/,
  /\bccam\b/,
  /\bassurance maladie\b|\bamo\b|\bsecurite sociale\b/,
  /\bcotation\b|\bcode (?:de l'?)?acte\b|\bnature de l'?acte\b/,
];

const fold = (text: string) =>
  text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ");

export interface Classification {
  devis: boolean;
  /** How many header signals were found (0–6). */
  signals: number;
  /** How many CCAM codes (4 letters, 3 digits; an OCR lookalike only when its repair is in the act table). */
  codes: number;
}

/** At least one CCAM code and two header signals, or two codes and one signal: a devis. */
export function classifyDevis(pages: readonly PageWords[]): Classification {
  const text = fold(pages.map((page) => page.words.map((w) => w.text).join(" ")).join(" "));
  const signals = SIGNALS.filter((signal) => signal.test(text)).length;
  let codes = 0;
  for (const page of pages)
    for (const word of page.words) {
      const code = readCode(word.text);
      if (code && (!code.repaired || code.known)) codes += 1;
    }
  return { devis: (codes >= 1 && signals >= 2) || (codes >= 2 && signals >= 1), signals, codes };
}

/** The result of a document that is not a devis: nothing understood from it. */
export function notADevis(): ReadResult {
  return {
    lines: [],
    total_cents: null,
    lines_total_cents: 0,
    total_matches: null,
    patient_name: null,
    practitioner_name: null,
    practitioner_number: null,
    quote_date: null,
    confidence: 0,
  };
}
