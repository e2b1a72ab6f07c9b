import type { Basket } from "../../../../shared/domain/out-of-pocket";
import type { Word } from "../types";
import { COLUMN_KINDS as COLUMN_ORDER, type Column, type ColumnKind, zones } from "./header";
import { median } from "./lines";
import {
  basketWord,
  type CodeRead,
  fold,
  isNoAmount,
  looksNumeric,
  parseAmount,
  readBasket,
  readCode,
  readTooth,
} from "./values";

/** One table row as read from its words, before cross-checks with the reference table. */
export interface RawRow {
  tooth: number | null;
  toothRepaired: boolean;
  code: string | null;
  codeRepaired: boolean;
  act: string;
  basket: Basket | null;
  fee: number | null;
  br: number | null;
  amo: number | null;
  /** Lowest OCR confidence of the words of each field (100 when no word). */
  confidence: Record<"tooth" | "code" | "act" | "basket" | "fee_cents" | "br_cents" | "amo_cents", number>;
  /** Words of the row not used by any field. */
  words: Word[];
  /** Every amount read on the row, left to right, with the column it was given to (null: none). */
  amounts?: { value: number | null; kind: AmountKind | null }[];
  /** What OCR put in the fee's cell when it read no amount there ("150R95 €"), if it holds a digit. */
  garbledFee?: string;
  /** Amounts read in the columns the reader leaves ("Dépassement", "Montant non remboursé"…). */
  others?: number[];
  /**
   * What was read in the amount cells that a re-mapping of the table's columns changed (realign.ts):
   * shown beside the new figure, flagged (never written over silently, ADR 043).
   */
  moved?: Partial<Record<"fee_cents" | "br_cents" | "amo_cents", number | null>>;
}

/**
 * The row's amounts no column of the reader took: those read in no column, and those in the columns it
 * leaves ("Dépassement", "Montant non remboursé"), where a fee's parts are looked for.
 */
export function spareAmounts(row: RawRow): number[] {
  return [
    ...(row.others ?? []),
    ...(row.amounts ?? []).flatMap(({ kind, value }) => (kind === null && value !== null ? [value] : [])),
  ];
}

const AMOUNT_KINDS = ["fee", "br", "amo"] as const;
export type AmountKind = (typeof AMOUNT_KINDS)[number];

interface Piece {
  text: string;
  x0: number;
  x1: number;
  confidence: number;
}

const piece = (w: Word): Piece => ({ text: w.text, x0: w.x, x1: w.x + w.width, confidence: w.confidence });

function zoneOf(columns: Column[], x: number): Column | undefined {
  return columns.find((c) => x >= c.left && x < c.right);
}

const minConfidence = (pieces: Piece[]) =>
  pieces.length ? Math.min(...pieces.map((p) => p.confidence)) : 100;

/** Splits a word at a column boundary, characters taken as evenly spaced across its width. */
function splitAt(p: Piece, boundary: number): [Piece, Piece] | null {
  const n = p.text.length;
  if (n < 2) return null;
  const charWidth = (p.x1 - p.x0) / n;
  let k = 0;
  while (k < n && p.x0 + (k + 0.5) * charWidth < boundary) k++;
  if (k === 0 || k === n) return null;
  const cut = p.x0 + k * charWidth;
  return [
    { text: p.text.slice(0, k), x0: p.x0, x1: cut, confidence: p.confidence },
    { text: p.text.slice(k), x0: cut, x1: p.x1, confidence: p.confidence },
  ];
}

/** Amount groups from numeric words: "1" "250,00" "€" → one group when close enough. */
function amountGroups(pieces: Piece[], gapMax: number): Piece[][] {
  const groups: Piece[][] = [];
  for (const p of pieces) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (group && last) {
      const gap = p.x0 - last.x1;
      const joined = `${group.map((g) => g.text).join("")}`;
      const isEuro = /^(?:€|E|EUR)\.?$/i.test(p.text);
      const thousands = /^\d{1,3}$/.test(joined) && /^\d{3}(?:[.,]?\d{2})?€?$/.test(p.text);
      if (gap <= gapMax && (isEuro || thousands)) {
        group.push(p);
        continue;
      }
    }
    groups.push([p]);
  }
  return groups;
}

const groupText = (g: Piece[]) => g.map((p) => p.text).join(" ");

/**
 * A word OCR glued from a code and the tooth beside it, the space between them lost ("HBLD07348",
 * "48HBLD073"; a monospaced layout without rules puts them a character apart): the code and the tooth,
 * when the word is exactly a code and two digits that are an FDI tooth. null otherwise.
 */
export function gluedCodeTooth(
  text: string,
): { code: CodeRead; tooth: { tooth: number; repaired: boolean } } | null {
  const t = text.replace(/[\s._\-—–|:;,'"“”‘’()[\]]/g, "");
  if (t.length !== 9) return null;
  for (const [codeText, toothText] of [
    [t.slice(0, 7), t.slice(7)],
    [t.slice(2), t.slice(0, 2)],
  ] as const) {
    const code = readCode(codeText);
    const tooth = /^\d{2}$/.test(toothText) ? readTooth(toothText) : null;
    if (code && tooth) return { code, tooth };
  }
  return null;
}

/** Reads one row's words into fields, by the header's columns. `h`: the median word height. */
export function readRow(words: Word[], columns: Column[], h: number): RawRow {
  const kinds = new Set(columns.map((c) => c.kind));
  const basketColumn = columns.find((c) => c.kind === "basket");
  const byKind = new Map<ColumnKind, Piece[]>();
  const push = (kind: ColumnKind, p: Piece) => {
    const list = byKind.get(kind) ?? [];
    list.push(p);
    byKind.set(kind, list);
  };
  const pieces = [...words].sort((a, b) => a.x - b.x).map(piece);
  const leftovers: Piece[] = [];
  for (const p of pieces) {
    const column = zoneOf(columns, (p.x0 + p.x1) / 2);
    if (column) push(column.kind, p);
    else leftovers.push(p);
  }

  // Tooth and code: by their shape among the words left of the act column (a misaligned code still counts).
  const leftWords = [...(byKind.get("tooth") ?? []), ...(byKind.get("code") ?? [])].sort(
    (a, b) => a.x0 - b.x0,
  );
  let tooth: { tooth: number; repaired: boolean } | null = null;
  let toothPieces: Piece[] = [];
  let code: { code: string; repaired: boolean } | null = null;
  let codePieces: Piece[] = [];
  const unusedLeft: Piece[] = [];
  const codeJoined = readCode((byKind.get("code") ?? []).map((p) => p.text).join(""));
  if (codeJoined && (byKind.get("code") ?? []).length > 1) {
    code = codeJoined;
    codePieces = byKind.get("code") ?? [];
  }
  for (const p of leftWords) {
    if (codePieces.includes(p)) continue;
    const c = !code ? readCode(p.text) : null;
    if (c) {
      code = c;
      codePieces = [p];
      continue;
    }
    const t: ReturnType<typeof readTooth> = !tooth ? readTooth(p.text) : null;
    if (t) {
      tooth = t;
      toothPieces = [p];
      continue;
    }
    const glued: ReturnType<typeof gluedCodeTooth> = !code && !tooth ? gluedCodeTooth(p.text) : null;
    if (glued) {
      code = glued.code;
      codePieces = [p];
      tooth = glued.tooth;
      toothPieces = [p];
      continue;
    }
    unusedLeft.push(p);
  }
  const actPieces = [...(byKind.get("act") ?? [])];
  if (!code) {
    // A code printed inside the act column (or read there by OCR).
    const index = actPieces.findIndex((p) => readCode(p.text));
    if (index >= 0 && index < 2) {
      const p = actPieces[index] as Piece;
      code = readCode(p.text);
      codePieces = [p];
      actPieces.splice(index, 1);
    }
  }
  if (!code && !kinds.has("code")) {
    // The header's left columns were not read: the code and the tooth are the row's first words,
    // wherever they fell (the first column found then holds the label too).
    const first = columns[0];
    if (first && first.kind !== "act") {
      const list = byKind.get(first.kind) ?? [];
      const index = list.findIndex((p) => readCode(p.text));
      if (index >= 0 && index < 3) {
        const p = list[index] as Piece;
        code = readCode(p.text);
        codePieces = [p];
        const before = list.slice(0, index).find((q) => readTooth(q.text));
        if (before && !tooth) {
          tooth = readTooth(before.text);
          toothPieces = [before];
        }
        const rest = list.slice(index + 1);
        // The label runs up to the basket word or digit at the end of the zone.
        let end = rest.length;
        while (
          end > 0 &&
          (basketWord((rest[end - 1] as Piece).text) || /^[123]$/.test((rest[end - 1] as Piece).text))
        )
          end--;
        actPieces.push(...rest.slice(0, end));
        byKind.set(first.kind, rest.slice(end));
      }
    }
  }
  if (!code && !kinds.has("code")) {
    // The code column's header not read, the code printed after the label: its word falls into the
    // act's zone or the next one (the basket's). A code of the act table there is the row's (a label
    // does not quote codes); amounts' zones are not searched.
    for (const kind of ["act", "basket"] as const) {
      const list = kind === "act" ? actPieces : (byKind.get(kind) ?? []);
      const index = list.findIndex((p) => readCode(p.text)?.known);
      if (index < 0) continue;
      const p = list[index] as Piece;
      code = readCode(p.text);
      codePieces = [p];
      list.splice(index, 1);
      break;
    }
  }
  // Where the columns hold no tooth column, the row's first word, if a digit.
  const toothless = !kinds.has("tooth") && actPieces[0] && /^\d$/.test(actPieces[0].text);
  if (!tooth && toothless) unusedLeft.unshift(actPieces.shift() as Piece);
  if (!tooth && unusedLeft.length) {
    // OCR reads "11" or "22" as one digit over the width of two: the digit doubled, marked repaired.
    const digitWidth = median(
      pieces.filter((p) => /^[\d.,]{4,}$/.test(p.text)).map((p) => (p.x1 - p.x0) / p.text.length),
    );
    // A "1" is a thin stroke: one as wide as a digit is two of them.
    const index = unusedLeft.findIndex(
      (p) =>
        digitWidth > 0 &&
        ((p.text === "1" && p.x1 - p.x0 >= digitWidth * 1.1) ||
          (/^[2-4]$/.test(p.text) && p.x1 - p.x0 >= digitWidth * 1.6)),
    );
    const p = unusedLeft[index];
    const doubled = p ? readTooth(p.text + p.text) : null;
    if (p && doubled) {
      tooth = { tooth: doubled.tooth, repaired: true };
      toothPieces = [p];
      unusedLeft.splice(index, 1);
    }
  }
  if (!tooth && !kinds.has("tooth")) {
    const index = actPieces.findIndex((p) => readTooth(p.text));
    if (index === 0) {
      tooth = readTooth((actPieces[0] as Piece).text);
      toothPieces = actPieces.splice(0, 1);
    }
  }

  // Basket: spelled out, or a digit; then the amounts.
  const basketZone = [...(byKind.get("basket") ?? [])];
  let numeric: Piece[] = [];
  for (const kind of AMOUNT_KINDS) numeric.push(...(byKind.get(kind) ?? []));
  let basket: Basket | null = null;
  let basketPieces: Piece[] = [];
  const spelled = basketZone.filter((p) => basketWord(p.text) || /^(?:0|rac)$/i.test(p.text));
  if (spelled.length && basketZone.some((p) => !/^\d+$/.test(p.text) || p.text === "100")) {
    const read = readBasket(spelled.map((p) => p.text).join(""));
    if (read) {
      basket = read;
      basketPieces = spelled;
    }
  }
  if (!basket) {
    const digit = basketZone.find((p) => /^[123]$/.test(p.text) || /^[Il|]$/.test(p.text));
    if (digit) {
      basket = readBasket(digit.text);
      basketPieces = [digit];
    }
  }
  // Basket-zone words not used as the basket are pieces of the fee ("1" of "1 250,00" under the basket).
  for (const p of basketZone) if (!basketPieces.includes(p)) numeric.push(p);
  numeric.sort((a, b) => a.x0 - b.x0);
  if (!basket && basketColumn) {
    // OCR merged the basket digit with the fee ("1175,00" across basket|fee): split it by position.
    const index = numeric.findIndex((p) => p.x0 < basketColumn.right && p.x1 > basketColumn.right);
    const p = numeric[index];
    if (p && /^[123]\d/.test(p.text)) {
      // The basket is one character: split it off when the word begins in the basket column.
      const parts = splitAt(p, basketColumn.right);
      if (parts) {
        const [head, tail] = parts;
        const cut = head.x0 + (head.x1 - head.x0) / head.text.length;
        parts[0] = { ...head, text: p.text.slice(0, 1), x1: cut };
        parts[1] = { ...tail, text: p.text.slice(1), x0: cut };
      }
      if (
        parts &&
        /^[123]$/.test(parts[0].text) &&
        parseAmount(parts[1].text, { centsImplied: true }) !== null
      ) {
        basket = readBasket(parts[0].text);
        basketPieces = [parts[0]];
        numeric.splice(index, 1, parts[1]);
      }
    }
  }
  // An amount OCR read with a lookalike ("ss,00" for 55,00) is still an amount.
  numeric = numeric.filter(
    (p) =>
      looksNumeric(p.text) ||
      isNoAmount(p.text) ||
      /^(?:€|E|EUR)\.?$/i.test(p.text) ||
      parseAmount(p.text) !== null,
  );
  const groups = amountGroups(numeric, h * 1.6).filter((g) => !/^(?:€|E|EUR)\.?$/i.test(groupText(g)));
  const amountColumns = columns.filter((c) => (AMOUNT_KINDS as readonly string[]).includes(c.kind));
  const assigned = assignGroups(groups, amountColumns);
  const amounts: Record<AmountKind, number | null> = { fee: null, br: null, amo: null };
  const amountConfidence: Record<AmountKind, number> = { fee: 100, br: 100, amo: 100 };
  for (const [kind, group] of assigned) {
    const text = groupText(group);
    const value = isNoAmount(text) && kind !== "fee" ? 0 : parseAmount(text, { centsImplied: true });
    amounts[kind] = value;
    amountConfidence[kind] = minConfidence(group);
  }
  const amountsRead = groups.map((group) => {
    const text = groupText(group);
    const kind = assigned.find(([, g]) => g === group)?.[0] ?? null;
    return { value: isNoAmount(text) ? 0 : parseAmount(text, { centsImplied: true }), kind };
  });

  const feeCell = amounts.fee === null ? (byKind.get("fee") ?? []).map((p) => p.text).join(" ") : "";
  const others = amountGroups(
    (byKind.get("other") ?? []).filter((p) => looksNumeric(p.text)),
    h * 1.6,
  )
    .map((group) => parseAmount(groupText(group), { centsImplied: true }))
    .filter((value): value is number => value !== null);

  const unused = [...unusedLeft, ...leftovers];
  return {
    tooth: tooth?.tooth ?? null,
    toothRepaired: tooth?.repaired ?? false,
    code: code?.code ?? null,
    codeRepaired: code?.repaired ?? false,
    act: actPieces
      .map((p) => p.text)
      .join(" ")
      .trim(),
    basket,
    fee: amounts.fee,
    br: amounts.br,
    amo: amounts.amo,
    confidence: {
      tooth: minConfidence(toothPieces),
      code: minConfidence(codePieces),
      act: minConfidence(actPieces),
      basket: minConfidence(basketPieces),
      fee_cents: amountConfidence.fee,
      br_cents: amountConfidence.br,
      amo_cents: amountConfidence.amo,
    },
    amounts: amountsRead,
    ...(/\d/.test(feeCell) ? { garbledFee: feeCell } : {}),
    ...(others.length ? { others } : {}),
    words: unused.map((p) => ({
      text: p.text,
      x: p.x0,
      y: 0,
      width: p.x1 - p.x0,
      height: 0,
      confidence: p.confidence,
    })),
  };
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

/**
 * Amount groups to amount columns, in order (the i-th group never lands left of the (i-1)-th), each
 * column at most once, maximising the groups' overlap with the columns' zones (header span counts double:
 * numbers are right-aligned under their header).
 */
export function assignGroups(groups: Piece[][], columns: Column[]): [AmountKind, Piece[]][] {
  const n = groups.length;
  const m = columns.length;
  if (!n || !m) return [];
  const score = (g: Piece[], c: Column) => {
    const x0 = Math.min(...g.map((p) => p.x0));
    const x1 = Math.max(...g.map((p) => p.x1));
    const zone = overlap(x0, x1, c.left, c.right);
    const head = overlap(x0, x1, c.x0, c.x1);
    return zone + head + 1e-6;
  };
  // dp[i][j]: best score using the first i groups and the first j columns.
  const dp: number[][] = Array.from({ length: n + 1 }, () => Array(m + 1).fill(Number.NEGATIVE_INFINITY));
  const choice: number[][] = Array.from({ length: n + 1 }, () => Array(m + 1).fill(0));
  for (let j = 0; j <= m; j++) (dp[0] as number[])[j] = 0;
  for (let i = 0; i <= n; i++) (dp[i] as number[])[0] = 0;
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++) {
      const skipColumn = (dp[i] as number[])[j - 1] as number;
      const skipGroup = (dp[i - 1] as number[])[j] as number; // a group that is no amount of the table
      const take =
        ((dp[i - 1] as number[])[j - 1] as number) +
        score(groups[i - 1] as Piece[], columns[j - 1] as Column);
      const best = Math.max(skipColumn, skipGroup, take);
      (dp[i] as number[])[j] = best;
      (choice[i] as number[])[j] = best === take ? 2 : best === skipColumn ? 1 : 0;
    }
  const result: [AmountKind, Piece[]][] = [];
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const c = (choice[i] as number[])[j];
    if (c === 2) {
      const group = groups[i - 1] as Piece[];
      const column = columns[j - 1] as Column;
      if (score(group, column) > 1e-3) result.unshift([column.kind as AmountKind, group]);
      i--;
      j--;
    } else if (c === 1) j--;
    else i--;
  }
  return result;
}

const isEuro = (p: Piece) => /^(?:€|E|EUR)\.?$/i.test(p.text);

const BASKET_TEXT = /^(?:100|%|100%|sant[eé]|rac|0|ma[iî]tris[eé]s?|libres?|[l1|]?[iu]?bre)$/i;

/**
 * The table's columns guessed from its rows when no header was read (OCR lost it): rows are the lines
 * holding a CCAM code; in each, the tooth before the code (or just after it), the label after it (or
 * before it: tooth, label, code), then from the right the AMO, the BR and the fee, and the basket just
 * before them. The columns span the cells found.
 */
export function inferColumns(lines: Word[][], h: number): Column[] | null {
  const spans = new Map<ColumnKind, { x0: number[]; x1: number[] }>();
  let rows = 0;
  const add = (kind: ColumnKind, pieces: Piece[]) => {
    if (!pieces.length) return;
    const span = spans.get(kind) ?? { x0: [], x1: [] };
    span.x0.push(Math.min(...pieces.map((p) => p.x0)));
    span.x1.push(Math.max(...pieces.map((p) => p.x1)));
    spans.set(kind, span);
  };
  for (const words of lines) {
    const pieces = [...words].sort((a, b) => a.x - b.x).map(piece);
    const code = pieces.findIndex((p) => readCode(p.text));
    if (code < 0) continue;
    // The label before the code (tooth, label, code…), or the tooth just after it (code, tooth, label…).
    const first = (pieces[0] as Piece).text;
    const lead = code > 0 && (readTooth(first) || (code > 1 && /^\d{1,2}$/.test(first))) ? 1 : 0;
    const labelFirst = code - lead >= 2;
    const toothAfter =
      !lead && !labelFirst && !!pieces[code + 1] && !!readTooth((pieces[code + 1] as Piece).text);
    const at = toothAfter ? code + 1 : code;
    if (code > 2 && !labelFirst) continue;
    const amountish = (p: Piece) =>
      looksNumeric(p.text) || isNoAmount(p.text) || parseAmount(p.text, { centsImplied: true }) !== null;
    // From the left: the basket (a word, or a digit followed by an amount), then the amounts after it —
    // OCR noise on the right (table rules read as characters) does not move it.
    let b = -1;
    let e = -1;
    for (let k = at + 1; k < pieces.length; k++) {
      const t = fold((pieces[k] as Piece).text);
      const next = pieces[k + 1];
      if (/^(?:libres?|[l1|i]?[iu]?bres?|ma[iî]tris\w*|sante|rac\w*)$/.test(t)) {
        b = k;
        e = k;
        while (b - 1 > at && /^(?:100|%|100%)$/.test((pieces[b - 1] as Piece).text)) b--;
        if (/^rac$/.test(t) && next && /^[0oO]$/.test(next.text)) e = k + 1;
        break;
      }
      if (/^[123]$/.test(t) && next && amountish(next) && (k > at + 1 || labelFirst)) {
        b = k;
        e = k;
        break;
      }
    }
    let middle: Piece[];
    const basketWords: Piece[] = [];
    let groups: Piece[][];
    if (b >= 0) {
      middle = pieces.slice(at + 1, b);
      basketWords.push(...pieces.slice(b, e + 1));
      const after = pieces.slice(e + 1).filter((p) => amountish(p) && !/^(?:€|E|EUR)\.?$/i.test(p.text));
      groups = amountGroups(after, h * 1.6).slice(0, 3);
      if (!groups.length) {
        // The basket printed last ("RAC 0" after the amounts): the amounts are the numeric run before it,
        // the fee, the BR and the AMO its first three (a "Non remboursé" after them is no amount of ours).
        let start = b;
        while (
          start > at + 1 &&
          (amountish(pieces[start - 1] as Piece) || isEuro(pieces[start - 1] as Piece))
        )
          start--;
        const run = pieces.slice(start, b).filter((p) => !isEuro(p));
        groups = amountGroups(run, h * 0.4).slice(0, 3);
        middle = pieces.slice(at + 1, start);
      }
    } else {
      // Else from the right: the numeric tail.
      let start = pieces.length;
      while (start > at + 1) {
        const p = pieces[start - 1] as Piece;
        if (
          looksNumeric(p.text) ||
          isNoAmount(p.text) ||
          /^(?:€|E|EUR)\.?$/i.test(p.text) ||
          /\d/.test(p.text)
        )
          start--;
        else break;
      }
      const tail = pieces.slice(start).filter((p) => !/^(?:€|E|EUR)\.?$/i.test(p.text));
      middle = pieces.slice(at + 1, start);
      while (middle.length && BASKET_TEXT.test(fold((middle[middle.length - 1] as Piece).text))) {
        basketWords.unshift(middle[middle.length - 1] as Piece);
        middle = middle.slice(0, -1);
      }
      groups = amountGroups(tail, h * 0.4);
      if (!basketWords.length && groups.length >= 4 && /^[123]$/.test(groupText(groups[0] as Piece[])))
        basketWords.push(...(groups.shift() as Piece[]));
      groups = groups.slice(-3);
    }
    if (!groups.length) continue;
    rows++;
    if (labelFirst) {
      add("tooth", pieces.slice(0, lead));
      add("act", pieces.slice(lead, code));
    } else if (toothAfter) {
      add("tooth", [pieces[code + 1] as Piece]);
      add("act", middle);
    } else {
      add(
        "tooth",
        pieces.slice(0, code).filter((p) => readTooth(p.text)),
      );
      add("act", middle);
    }
    add("code", [pieces[code] as Piece]);
    add("basket", basketWords);
    const kinds: ColumnKind[] = ["fee", "br", "amo"];
    groups.forEach((g, i) => {
      add(kinds[b >= 0 ? i : i + (3 - groups.length)] as ColumnKind, g);
    });
  }
  if (!rows) return null;
  const found = COLUMN_ORDER.filter((kind) => (spans.get(kind)?.x0.length ?? 0) * 2 >= rows).map((kind) => {
    const span = spans.get(kind) as { x0: number[]; x1: number[] };
    return { kind, x0: median(span.x0), x1: median(span.x1) };
  });
  if (!found.some((c) => c.kind === "code")) return null;
  return zones(found.sort((a, b) => a.x0 - b.x0));
}
