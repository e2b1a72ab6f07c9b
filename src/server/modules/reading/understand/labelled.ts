import type { Word } from "../types";
import { type ColumnKind, matchColumns } from "./header";
import type { AmountKind, RawRow } from "./rows";
import { isNoAmount, looksNumeric, parseAmount, readBasket, readCode, readTooth } from "./values";

/**
 * A devis without a table: one act a line, each field named on the line itself, its figure just after
 * its name ("Dent 36 - HBLD036 - Couronne … - Honoraires 650,00 EUR - Base SS 120,00 EUR"). There are no
 * columns to read such a line by — its words stand wherever the label before them ends — so each figure
 * is the one its name introduces: the header's words (understand/header.ts) read on the row itself.
 */

/** A word that only separates a line's fields ("-", ":", "—", "|"). */
const isSeparator = (w: Word) => /^[-—–:=|/•·]+$/.test(w.text.trim());
const isEuro = (w: Word) => /^(?:€|E|EUR|euros?)\.?$/i.test(w.text.trim());

/** The label words a row names its fields with, each with the words that follow it up to the next one. */
interface Field {
  kind: ColumnKind;
  label: Word[];
  value: Word[];
}

function fieldsOf(words: Word[]): Field[] {
  const { columns } = matchColumns([{ words, top: 0, bottom: 0, cy: 0 }]);
  const inside = (w: Word, c: { x0: number; x1: number }) => w.x >= c.x0 - 0.5 && w.x + w.width <= c.x1 + 0.5;
  return columns.map((c, k) => {
    const next = columns[k + 1];
    return {
      kind: c.kind,
      label: words.filter((w) => inside(w, c)),
      value: words.filter((w) => w.x >= c.x1 && (!next || w.x + w.width <= next.x0) && !isSeparator(w)),
    };
  });
}

/**
 * The amount that opens a field's value ("650,00 EUR", "1 250,00 €", "NR"): its words and its value;
 * null when the value does not open with an amount. A no-amount mark reads 0 (a BR or an AMO "NR").
 */
function amountAt(value: Word[], ocr: boolean): { words: Word[]; cents: number } | null {
  const [first] = value;
  if (!first) return null;
  if (isNoAmount(first.text)) return { words: [first], cents: 0 };
  const words: Word[] = [];
  for (const w of value) {
    if (isEuro(w)) {
      if (words.length) words.push(w);
      break;
    }
    const joined = words.map((p) => p.text).join("");
    // "1 250,00": a thousands group printed apart; two figures side by side are not one amount.
    if (words.length && !(/^\d{1,3}$/.test(joined) && /^\d{3}(?:[.,]\d{2})?€?$/.test(w.text))) break;
    if (!looksNumeric(w.text)) break;
    words.push(w);
  }
  const figures = words.filter((w) => !isEuro(w));
  if (!figures.length) return null;
  // A text layer prints its figures whole ("650" is 650 €); OCR loses commas ("65000" is 650,00 €).
  const cents = parseAmount(figures.map((w) => w.text).join(" "), { centsImplied: ocr });
  return cents === null ? null : { words, cents };
}

const AMOUNTS: readonly ColumnKind[] = ["fee", "br", "amo", "other"];

const minConfidence = (words: Word[]) => (words.length ? Math.min(...words.map((w) => w.confidence)) : 100);

/**
 * One line read by the names of its fields (see above): null unless at least one of its amounts — the
 * fee, the BR, the AMO — is introduced by its name. An amount is only ever the field its name says: a
 * figure no name introduces is left aside (`amounts`, kind null), never guessed to be the fee or the BR.
 * The code and the tooth may stand unnamed (a CCAM code reads as one anywhere; the tooth is the line's
 * first word, or the one beside the code); the label is the first run of the line's other words.
 */
export function readLabelledRow(words: Word[], ocr: boolean): RawRow | null {
  const sorted = [...words].sort((a, b) => a.x - b.x);
  const used = new Set<Word>();
  const fields = fieldsOf(sorted);
  const amounts: Record<AmountKind, { words: Word[]; cents: number } | null> = {
    fee: null,
    br: null,
    amo: null,
  };
  const others: number[] = [];
  let tooth: { value: ReturnType<typeof readTooth>; word: Word } | null = null;
  let code: { value: ReturnType<typeof readCode>; word: Word } | null = null;
  let basket: { value: ReturnType<typeof readBasket>; words: Word[] } | null = null;
  let act: Word[] | null = null;
  for (const field of fields) {
    const [first] = field.value;
    let taken: Word[] = [];
    if (AMOUNTS.includes(field.kind)) {
      const amount = amountAt(field.value, ocr);
      if (!amount) continue;
      if (field.kind === "other") others.push(amount.cents);
      else if (!amounts[field.kind as AmountKind]) amounts[field.kind as AmountKind] = amount;
      taken = amount.words;
    } else if (field.kind === "tooth" && first && !tooth) {
      const value = readTooth(first.text);
      if (!value) continue;
      tooth = { value, word: first };
      taken = [first];
    } else if (field.kind === "code" && first && !code) {
      const value = readCode(first.text);
      if (!value) continue;
      code = { value, word: first };
      taken = [first];
    } else if (field.kind === "basket" && !basket) {
      for (let n = Math.min(3, field.value.length); n > 0 && !basket; n--) {
        const value = readBasket(
          field.value
            .slice(0, n)
            .map((w) => w.text)
            .join(""),
        );
        if (value) basket = { value, words: field.value.slice(0, n) };
      }
      if (!basket) continue;
      taken = basket.words;
    } else if (field.kind === "act" && !act && field.value.length) {
      act = field.value.filter((w) => !readCode(w.text));
      taken = act;
    } else continue;
    for (const w of [...field.label, ...taken]) used.add(w);
  }
  if (!amounts.fee && !amounts.br && !amounts.amo) return null;

  const free = sorted.filter((w) => !used.has(w) && !isSeparator(w));
  if (!code) {
    const word = free.find((w) => readCode(w.text)?.known) ?? free.find((w) => readCode(w.text));
    if (word) {
      code = { value: readCode(word.text), word };
      used.add(word);
    }
  }
  if (!tooth) {
    // Unnamed, the tooth is the line's first word or the one beside the code.
    const rest = sorted.filter((w) => !isSeparator(w));
    const at = code ? rest.indexOf(code.word) : -1;
    const candidates = [rest[0], at >= 0 ? rest[at - 1] : undefined, at >= 0 ? rest[at + 1] : undefined];
    const word = candidates.find(
      (w) => w && !used.has(w) && /^\d{2}$/.test(w.text.trim()) && readTooth(w.text),
    );
    if (word) {
      tooth = { value: readTooth(word.text), word };
      used.add(word);
    }
  }
  if (!act) {
    // The first run of words no field took, holding letters.
    const runs: Word[][] = [[]];
    for (const w of sorted) {
      if (used.has(w) || isSeparator(w)) {
        if ((runs[runs.length - 1] as Word[]).length) runs.push([]);
      } else (runs[runs.length - 1] as Word[]).push(w);
    }
    act = runs.find((run) => run.some((w) => /\p{L}{2}/u.test(w.text))) ?? [];
    for (const w of act) used.add(w);
  }
  const spare = sorted.filter((w) => !used.has(w) && !isSeparator(w));
  const spareAmounts = spare
    .filter((w) => looksNumeric(w.text))
    .map((w) => ({ value: parseAmount(w.text, { centsImplied: ocr }), kind: null }));
  const labelled = (["fee", "br", "amo"] as const).flatMap((kind) => {
    const amount = amounts[kind];
    return amount ? [{ value: amount.cents, kind, x: (amount.words[0] as Word).x }] : [];
  });
  return {
    tooth: tooth?.value?.tooth ?? null,
    toothRepaired: tooth?.value?.repaired ?? false,
    code: code?.value?.code ?? null,
    codeRepaired: code?.value?.repaired ?? false,
    act: act
      .map((w) => w.text)
      .join(" ")
      .trim(),
    basket: basket?.value ?? null,
    fee: amounts.fee?.cents ?? null,
    br: amounts.br?.cents ?? null,
    amo: amounts.amo?.cents ?? null,
    confidence: {
      tooth: minConfidence(tooth ? [tooth.word] : []),
      code: minConfidence(code ? [code.word] : []),
      act: minConfidence(act),
      basket: minConfidence(basket?.words ?? []),
      fee_cents: minConfidence(amounts.fee?.words ?? []),
      br_cents: minConfidence(amounts.br?.words ?? []),
      amo_cents: minConfidence(amounts.amo?.words ?? []),
    },
    amounts: [
      ...labelled.sort((a, b) => a.x - b.x).map(({ value, kind }) => ({ value, kind })),
      ...spareAmounts,
    ],
    ...(others.length ? { others } : {}),
    words: spare,
  };
}
