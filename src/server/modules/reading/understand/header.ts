import type { Word } from "../types";
import { median, type TextLine } from "./lines";
import { fold, readCode } from "./values";

/**
 * The columns of the devis table that are read, in their most common printed order (practice software
 * prints them in other orders too: any order is read).
 */
export const COLUMN_KINDS = ["tooth", "code", "act", "basket", "fee", "br", "amo"] as const;
/**
 * A read column, or "other": a column the devis prints that is none of them — what the AMO leaves
 * ("Montant non remboursé", "Reste à charge"), the fee above the BR ("Dépassement") — named so that its
 * amounts are never taken for the fee, the BR or the AMO.
 */
export type ColumnKind = (typeof COLUMN_KINDS)[number] | "other";

/** Header synonyms as folded tokens ("N° dent" → ["n", "dent"]); longer phrases are tried first. */
export const SYNONYMS: Record<ColumnKind, string[][]> = {
  tooth: [
    ["dent"],
    ["n", "dent"],
    ["numero", "de", "dent"],
    ["n", "de", "dent"],
    ["no", "dent"],
    ["localisation"],
    ["dents"],
    ["ndent"],
    ["localis"],
    ["dt"],
  ],
  code: [
    ["code"],
    ["code", "ccam"],
    ["code", "acte"],
    ["code", "de", "acte"],
    // The act's CCAM code ("Acte CCAM"), not its label: tried before the act's "Acte".
    ["acte", "ccam"],
    ["cotation"],
    ["cot"],
    ["ccam"],
    ["codeacte"],
    ["codeccam"],
  ],
  act: [
    ["acte"],
    ["nature", "de", "acte"],
    ["nature", "acte"],
    ["acte", "realise"],
    ["description"],
    ["designation"],
    ["designation", "de", "acte"],
    ["libelle"],
    ["libelle", "de", "acte"],
  ],
  basket: [
    ["panier"],
    ["panier", "de", "soins"],
    ["paniers"],
    ["panierde", "soins"],
    ["type", "de", "panier"],
    ["panier", "rac"],
    ["pan"],
  ],
  fee: [
    ["honoraires"],
    ["prix"],
    ["prix", "de", "vente"],
    ["montant", "des", "honoraires"],
    ["montantdes", "honoraires"],
    ["montantdes"],
    ["montant", "des"],
    ["montant"],
    ["honoraire"],
    ["honoraires", "ttc"],
    ["hon"],
    ["honor"],
    ["tarif"],
  ],
  br: [
    ["br"],
    ["brss"],
    ["base", "de", "remboursement"],
    ["base", "ss"],
    ["base", "remb"],
    ["base", "de", "remb"],
    ["base", "remboursement"],
    ["basess"],
    ["baseremb"],
  ],
  amo: [
    ["amo"],
    ["remb", "amo"],
    ["montant", "amo"],
    ["montant", "rembourse", "amo"],
    ["rembourse", "amo"],
    ["remboursement", "amo"],
    ["part", "amo"],
    ["remb", "secu"],
    ["montantamo"],
    ["rembamo"],
    ["r", "amo"],
  ],
  // Longer than the AMO's phrases they contain ("Non remb. AMO"), so tried before them.
  other: [
    ["montant", "non", "rembourse"],
    ["non", "rembourse"],
    ["non", "remb"],
    ["non", "remb", "amo"],
    ["montant", "non", "rembourse", "amo"],
    ["reste", "a", "charge"],
    ["reste", "a", "votre", "charge"],
    ["reste", "du"],
    // "à" lost, or read apart from a stacked "Reste à" / "charge".
    ["reste", "charge"],
    ["reste"],
    ["depassement"],
    ["depassement", "honoraires"],
  ],
};

const PHRASES = (Object.keys(SYNONYMS) as ColumnKind[])
  .flatMap((kind) => SYNONYMS[kind].map((tokens) => ({ kind, tokens })))
  .sort((a, b) => b.tokens.length - a.tokens.length);

/** A word of a header as a token: folded, punctuation and "l'"/"d'" dropped ("(€)" → ""). */
export function headerToken(text: string): string {
  return fold(text)
    .replace(/(?:^|(?<=[a-z]))[ld]'/g, "")
    .replace(/[^a-z0-9]/g, "");
}

/** A column found in the header: the x range of its header words, and its zone on the row. */
export interface Column {
  kind: ColumnKind;
  x0: number;
  x1: number;
  /** Zone: from the midpoint with the previous column to the midpoint with the next one. */
  left: number;
  right: number;
}

export interface Header {
  columns: Column[];
  /** Index of the header's last text line in the page's lines. */
  lastLine: number;
  firstLine: number;
  /** The header words (their OCR confidence counts). */
  words: Word[];
}

interface Item {
  tokens: string[];
  x0: number;
  x1: number;
  words: Word[];
}

/** Words stacked on two lines ("Base de" over "remboursement") merged by horizontal overlap. */
function stackItems(lines: TextLine[]): Item[] {
  const items: Item[] = [];
  const all = lines.flatMap((line, li) => line.words.map((word) => ({ word, li })));
  // Connected components of the overlap graph between words of different lines.
  const parent = all.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  if (lines.length > 1)
    for (let i = 0; i < all.length; i++)
      for (let j = i + 1; j < all.length; j++) {
        const a = all[i] as { word: Word; li: number };
        const b = all[j] as { word: Word; li: number };
        if (a.li === b.li) continue;
        const overlap =
          Math.min(a.word.x + a.word.width, b.word.x + b.word.width) - Math.max(a.word.x, b.word.x);
        if (overlap > Math.min(a.word.width, b.word.width) * 0.3) parent[find(i)] = find(j);
      }
  const groups = new Map<number, { word: Word; li: number }[]>();
  all.forEach((entry, i) => {
    const root = find(i);
    const group = groups.get(root) ?? [];
    group.push(entry);
    groups.set(root, group);
  });
  // Two stacked items a space apart are one header whose words overlap crosswise ("Reste à" over "votre
  // charge": "Reste" over "votre", "à" over "charge").
  const h = median(all.map((e) => e.word.height));
  const span = (group: { word: Word; li: number }[]) => ({
    x0: Math.min(...group.map((g) => g.word.x)),
    x1: Math.max(...group.map((g) => g.word.x + g.word.width)),
    lines: new Set(group.map((g) => g.li)).size,
  });
  const sorted = [...groups.values()].sort((a, b) => span(a).x0 - span(b).x0);
  const joined: { word: Word; li: number }[][] = [];
  for (const group of sorted) {
    const last = joined[joined.length - 1];
    if (last && span(last).lines > 1 && span(group).lines > 1 && span(group).x0 - span(last).x1 < h * 0.35)
      last.push(...group);
    else joined.push([...group]);
  }
  for (const group of joined) {
    group.sort((a, b) => a.li - b.li || a.word.x - b.word.x);
    const words = group.map((g) => g.word);
    items.push({
      tokens: words.map((w) => headerToken(w.text)).filter(Boolean),
      x0: Math.min(...words.map((w) => w.x)),
      x1: Math.max(...words.map((w) => w.x + w.width)),
      words,
    });
  }
  return items.sort((a, b) => a.x0 - b.x0);
}

/** The header columns named in these lines (one, or two stacked), in x order. */
export function matchColumns(lines: TextLine[]): { columns: Column[]; words: Word[] } {
  // The words of one header are closer than two headers; OCR boxes make that gap vague: both readings
  // are tried, the one naming more columns wins ("Base remb." read apart, "Code" | "Acte" two columns).
  const items = stackItems(lines);
  const h = median(lines.flatMap((line) => line.words.map((w) => w.height)));
  const loose = matchItems(items, h * 1.5);
  const tight = matchItems(items, h * 0.5);
  return tight.columns.length > loose.columns.length ? tight : loose;
}

/**
 * A header's first words glued to the "de" that follows them, its end lost or on the next line
 * ("Prixde" for "Prix de vente", "Panierde", "Resteà").
 */
const GLUED = ["de", "des", "du", "a"];

/**
 * How many of the tokens from `i` on spell the phrase: one token a word, or — OCR losing or adding a
 * space ("Basede" "remb." for "Base de remb.", "Mon tant") — tokens whose letters joined are the
 * phrase's joined, or the phrase's glued to a "de" (GLUED). 0 when they do not.
 */
function phraseAt(flat: { token: string }[], i: number, tokens: string[]): number {
  if (i + tokens.length <= flat.length && tokens.every((token, k) => flat[i + k]?.token === token))
    return tokens.length;
  const target = tokens.join("");
  let joined = "";
  for (let k = i; k < flat.length && joined.length < target.length; k++) {
    joined += (flat[k] as { token: string }).token;
    if (joined === target) return k - i + 1;
  }
  const token = flat[i]?.token ?? "";
  if (GLUED.some((glued) => token === target + glued)) return 1;
  return 0;
}

/**
 * Letters OCR may misread in a header of this many letters (spaces aside): none in a short one ("BR",
 * "AMO", "Code", "Dents", "Reste": a wrong letter there makes another word, "Des te" is not "Reste"), one
 * from 6 letters ("Lemb." for "remb." in "Base de remb."), two from 10 ("omoraires" for "Honoraires",
 * "Montant t des honoraires"). Headers of different kinds differ by 3 letters at the least ("Montant
 * remboursé AMO" and "Montant non remboursé AMO", "Montant AMO" and "Montant des"; header.test.ts checks
 * every pair): more than either may lose, and the nearest is taken.
 */
export const headerTypos = (letters: number) => (letters >= 10 ? 2 : letters >= 6 ? 1 : 0);

/** Edit distance between a and b (insertions, deletions, substitutions), or max + 1 when above max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      row.push(value);
      least = Math.min(least, value);
    }
    if (least > max) return max + 1;
    prev = row;
  }
  return prev[b.length] as number;
}

/**
 * The tokens from `i` on that spell the phrase up to a few misread letters (headerTypos), a stray letter
 * or a space added or lost ("Montant t des honoraires", "Base de Lemb."): how many, and how many letters
 * differ; null when none do. A stray one-letter token neither begins nor ends it.
 */
function fuzzyPhraseAt(
  flat: { token: string }[],
  i: number,
  tokens: string[],
): { n: number; typos: number } | null {
  const target = tokens.join("");
  const max = headerTypos(target.length);
  if (!max || (flat[i]?.token.length ?? 0) < 2) return null;
  let best: { n: number; typos: number } | null = null;
  let joined = "";
  for (let k = i; k < flat.length && joined.length < target.length + max; k++) {
    const token = (flat[k] as { token: string }).token;
    joined += token;
    if (token.length < 2 || joined.length < target.length - max) continue;
    const typos = editDistance(joined, target, max);
    if (typos <= max && (!best || typos < best.typos)) best = { n: k - i + 1, typos };
  }
  return best;
}

function matchItems(items: Item[], maxGap: number): { columns: Column[]; words: Word[] } {
  const flat = items.flatMap((item, index) => item.tokens.map((token) => ({ token, item, index })));
  const found: { kind: ColumnKind; x0: number; x1: number; words: Word[] }[] = [];
  // The words of one phrase are close: a wider gap separates two columns ("Code" | "Acte").
  const apart = (i: number, n: number) => {
    for (let k = 1; k < n; k++) {
      const a = (flat[i + k - 1] as { item: Item }).item;
      const b = (flat[i + k] as { item: Item }).item;
      if (a !== b && b.x0 - a.x1 > maxGap) return true;
    }
    return false;
  };
  let i = 0;
  while (i < flat.length) {
    // The longest phrase spelt exactly; or one spelt with a few misread letters when it is longer than
    // that ("Montant t des honoraires" is one header, "Montant remboursé AM0" the AMO and not the fee's
    // "Montant"), the fewest misread first.
    type Match = { kind: ColumnKind; n: number; letters: number; typos: number };
    let exact: Match | null = null;
    for (const phrase of PHRASES) {
      const n = phraseAt(flat, i, phrase.tokens);
      if (!n || apart(i, n)) continue;
      exact = { kind: phrase.kind, n, letters: phrase.tokens.join("").length, typos: 0 };
      break;
    }
    let fuzzy: Match | null = null;
    for (const phrase of PHRASES) {
      const letters = phrase.tokens.join("").length;
      if (exact && letters <= exact.letters) continue;
      const at = fuzzyPhraseAt(flat, i, phrase.tokens);
      // Read on past words already spelt exactly with one misread letter at most: "Base ss" then "REMB."
      // over "AMO" is the BR beside the AMO, not "Base de remb." misread.
      if (!at || apart(i, at.n) || (exact && at.typos >= headerTypos(letters))) continue;
      if (!fuzzy || at.typos < fuzzy.typos || (at.typos === fuzzy.typos && letters > fuzzy.letters))
        fuzzy = { kind: phrase.kind, n: at.n, letters, typos: at.typos };
    }
    const match = fuzzy ?? exact;
    if (!match) {
      i++;
      continue;
    }
    const its = new Set(flat.slice(i, i + match.n).map((f) => f.item));
    const x0 = Math.min(...[...its].map((it) => it.x0));
    const x1 = Math.max(...[...its].map((it) => it.x1));
    if (match.kind === "other" || !found.some((f) => f.kind === match.kind))
      found.push({ kind: match.kind, x0, x1, words: [...its].flatMap((it) => it.words) });
    i += match.n;
    // Skip the rest of a stacked item that the phrase began ("Panier de soins" over two lines).
    while (i < flat.length && its.has((flat[i] as { item: Item }).item)) i++;
  }
  // Any order: practice software prints the code before the tooth, the basket after the amounts…
  found.sort((a, b) => a.x0 - b.x0);
  return { columns: zones(found), words: found.flatMap((f) => f.words) };
}

/** Zones between the midpoints of neighbouring columns; the outer ones open to the page's edges. */
export function zones(found: { kind: ColumnKind; x0: number; x1: number }[]): Column[] {
  return found.map((f, k) => {
    const prev = found[k - 1];
    const next = found[k + 1];
    return {
      kind: f.kind,
      x0: f.x0,
      x1: f.x1,
      left: prev ? (prev.x1 + f.x0) / 2 : Number.NEGATIVE_INFINITY,
      right: next ? (f.x1 + next.x0) / 2 : Number.POSITIVE_INFINITY,
    };
  });
}

/** How many of the 7 read kinds the columns name ("other" columns do not count). */
export const readKinds = (columns: Column[]) => columns.filter((c) => c.kind !== "other").length;

/** A line holding a code or an amount ("650,00"): a row of the table, never a line of its header. */
function holdsRowValues(line: TextLine): boolean {
  return line.words.some((w) => readCode(w.text) || /\d[.,]\d\d\b/.test(w.text));
}

/**
 * The table's header: the line (or two stacked lines) naming at least 3 of the 7 column kinds, the one
 * naming the most kinds first.
 */
export function findHeader(lines: TextLine[]): Header | null {
  let best: Header | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as TextLine;
    // A line holding a code or an amount is a row, not a header — even one that names its fields
    // ("Dent 36 - HBLD036 - … - Honoraires 650,00 EUR - Base SS 120,00 EUR"): taken for the header, it
    // would be lost as a row, and its label words' places would be taken for the columns'.
    if (holdsRowValues(line)) continue;
    const single = matchColumns([line]);
    let candidate: Header = { columns: single.columns, firstLine: i, lastLine: i, words: single.words };
    // A header on two lines, or three when one-line headers are centred between two-line ones, or four
    // when a slant splits them. A line of rules or specks read as "|", "«", "I" (no word of two letters or
    // digits) is passed over.
    const stack = [line];
    let named = 1;
    for (let k = i + 1; k < lines.length && named < 4; k++) {
      const prev = lines[k - 1] as TextLine;
      const next = lines[k] as TextLine;
      if (next.top - prev.bottom >= (prev.bottom - prev.top) * 1.2) break;
      // A line holding a code or an amount is the table's first row.
      if (holdsRowValues(next)) break;
      if (!next.words.some((w) => headerToken(w.text).length >= 2)) continue;
      stack.push(next);
      named++;
      const more = matchColumns(stack);
      if (readKinds(more.columns) > readKinds(candidate.columns))
        candidate = { columns: more.columns, firstLine: i, lastLine: k, words: more.words };
    }
    if (
      readKinds(candidate.columns) >= 3 &&
      (!best || readKinds(candidate.columns) > readKinds(best.columns))
    )
      best = candidate;
  }
  return best;
}

/** Page 1's columns on a page of another width. */
export function scaleColumns(columns: Column[], ratio: number): Column[] {
  return columns.map((c) => ({
    ...c,
    x0: c.x0 * ratio,
    x1: c.x1 * ratio,
    left: c.left * ratio,
    right: c.right * ratio,
  }));
}

/**
 * Column boundaries fitted to the table's rows: each boundary lies between the two neighbouring headers
 * (a header sits inside its column), where the fewest rows have ink — the gutter between the cells, found
 * even when a cell is wider than its header (a long label, a right-aligned amount under "BR").
 */
export function fitZones(columns: Column[], rows: Word[][]): Column[] {
  const boundaries: number[] = [];
  for (let k = 0; k + 1 < columns.length; k++) {
    const a = columns[k] as Column;
    const b = columns[k + 1] as Column;
    const lo = a.x1;
    const hi = b.x0;
    if (hi - lo <= 0 || !rows.length) {
      boundaries.push((a.x1 + b.x0) / 2);
      continue;
    }
    // Between the basket and the fee, OCR may merge the basket digit with the fee ("1175,00"): such a
    // word says nothing of the gutter.
    const merged = (w: Word) =>
      a.kind === "basket" && b.kind === "fee" && /^[123Il|]\d[\d.,]{2,}$/.test(w.text);
    const inked = rows.map((row) => row.filter((w) => !merged(w)));
    const points = new Set<number>([lo, hi]);
    for (const row of inked)
      for (const w of row) for (const x of [w.x, w.x + w.width]) if (x > lo && x < hi) points.add(x);
    const sorted = [...points].sort((p, q) => p - q);
    const segments: { x0: number; x1: number; count: number }[] = [];
    for (let i = 0; i + 1 < sorted.length; i++) {
      const x0 = sorted[i] as number;
      const x1 = sorted[i + 1] as number;
      const mid = (x0 + x1) / 2;
      const count = inked.filter((row) => row.some((w) => w.x <= mid && w.x + w.width >= mid)).length;
      segments.push({ x0, x1, count });
    }
    const least = Math.min(...segments.map((s) => s.count));
    let best = { x0: lo, x1: hi };
    let run: { x0: number; x1: number } | null = null;
    let bestWidth = -1;
    for (const s of segments) {
      if (s.count === least) {
        run = run ? { x0: run.x0, x1: s.x1 } : { x0: s.x0, x1: s.x1 };
        if (run.x1 - run.x0 > bestWidth) {
          bestWidth = run.x1 - run.x0;
          best = run;
        }
      } else run = null;
    }
    boundaries.push((best.x0 + best.x1) / 2);
  }
  return columns.map((c, k) => ({
    ...c,
    left: k > 0 ? (boundaries[k - 1] as number) : Number.NEGATIVE_INFINITY,
    right: k < columns.length - 1 ? (boundaries[k] as number) : Number.POSITIVE_INFINITY,
  }));
}
