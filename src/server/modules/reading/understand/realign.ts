import { termsOn } from "../../../../shared/domain/acts";
import { type AmountKind, type RawRow, spareAmounts } from "./rows";
import { amoFits, amoOf } from "./values";

/**
 * A table's amount columns re-mapped when OCR garbled its header (issue 34, ADR 041 addendum of 29
 * November, morning): the header's words set the columns, and a header read in part can put them one
 * place off — the fee read into the BR's cell and the BR into the AMO's, or the "Montant non remboursé"
 * (fee − AMO) or the "Dépassement" (fee − BR) read as the BR, the AMO or the fee (ADR 041, addendum of 30
 * November). The act table knows each row's BR on the devis's day, so the shift shows on most rows at
 * once. Each way of re-mapping below is tried only where most of the table's rows with a known act show
 * it; the caller (parse.ts) keeps it only when the devis bears it out better (support.ts). What was read
 * in a cell whose figure changes is kept in `moved` (shown beside it, flagged).
 */

type Field = "fee_cents" | "br_cents" | "amo_cents";

export type Realignment = "right" | "left" | "br-other-column" | "amo-other-column" | "fee-other-column";

/** The table's BR of the row's act on that day, or null (no code, an act outside the table, no BR). */
function tableBr(row: RawRow, day: string): number | null {
  if (!row.code) return null;
  return termsOn(row.code, day, row.tooth)?.brCents || null;
}

/**
 * The row's figures agree with each other (an AMO 60 % of the BR read) or with the table (the BR read is
 * the table's, or for an AMO read in another column, the AMO is the table's 60 %): nothing to re-map on it.
 */
function settled(way: Realignment, row: RawRow, br: number | null): boolean {
  if (way === "fee-other-column") return feeBeside(row, br) === null;
  if (row.br !== null && row.amo !== null && row.br > 0 && amoFits(row.amo, row.br)) return true;
  if (br === null) return false;
  return way === "amo-other-column" ? row.amo !== null && amoFits(row.amo, br) : row.br === br;
}

/** Whether a row shows the given shift (its figures read one column off, by the table's BR). */
function shows(way: Realignment, row: RawRow, br: number): boolean {
  if (settled(way, row, br)) return false;
  switch (way) {
    case "fee-other-column":
      return true;
    case "right":
      // The fee in the BR's cell, the BR in the AMO's: the "AMO" is the table's BR, the "BR" above it.
      return row.amo === br && row.br !== null && row.br > row.amo;
    case "left":
      // The BR in the fee's cell, the AMO in the BR's.
      return row.fee === br && row.br !== null && amoFits(row.br, br);
    case "br-other-column":
      return row.fee !== null && row.br !== null && besideTheFee(row.fee, row.br, br);
    case "amo-other-column":
      return row.fee !== null && row.amo !== null && besideTheFee(row.fee, row.amo, br);
  }
}

/** A figure that is the fee less the table's AMO ("Montant non remboursé") or less its BR ("Dépassement"). */
function besideTheFee(fee: number, read: number, br: number): boolean {
  return Math.abs(fee - read - amoOf(br)) <= 1 || Math.abs(fee - read - br) <= 1;
}

/**
 * What a row's fee is its "Dépassement" or its "Montant non remboursé" plus: its BR or its AMO, read or
 * the table's.
 */
function feeParts(row: RawRow, br: number | null): number[] {
  return [row.br, row.amo, br, br === null ? null : amoOf(br)].filter(
    (part): part is number => part !== null && part > 0,
  );
}

/**
 * The fee when the figure read as the fee is the "Dépassement" (fee − BR) or the "Montant non remboursé"
 * (fee − AMO): an amount of the row given to no column that is the figure read plus the row's BR or AMO
 * (read, or the table's BR `br` and its 60 %). null when there is none.
 */
function feeBeside(row: RawRow, br: number | null): number | null {
  const read = row.fee;
  if (read === null) return null;
  const parts = feeParts(row, br);
  return spare(row, (value) => parts.some((part) => Math.abs(value - read - part) <= 1));
}

/** The amount read on the row next to the one given to `kind` (+1: to its right), or null. */
function besides(row: RawRow, kind: AmountKind, step: 1 | -1): number | null {
  const amounts = row.amounts ?? [];
  const at = amounts.findIndex((a) => a.kind === kind);
  const next = at >= 0 ? amounts[at + step] : undefined;
  return next && next.kind === null ? next.value : null;
}

/** An amount of the row given to no column that fits `test`, or null. */
function spare(row: RawRow, test: (value: number) => boolean): number | null {
  return (row.amounts ?? []).find((a) => a.kind === null && a.value !== null && test(a.value))?.value ?? null;
}

/** The figure's characters as a devis prints them, without separators ("1508,95 €" → "150895"). */
const printed = (text: string) => text.replace(/[\s\u00a0\u202f\u2009.,€]/g, "");

/**
 * A fee OCR could not read, one character garbled ("150R95 €" for 1 508,95 €, an 8 read as R), on a row
 * that holds the "Dépassement" (fee − BR) or the "Montant non remboursé" (fee − AMO), in its own column
 * or in none: the fee is that amount plus the row's BR or AMO (read, or the table's on the devis's day)
 * when exactly one such sum is what was printed but for that character. Two figures of the row and the
 * garbled cell agreeing, it is taken, flagged (`moved`: no figure was read in the cell); the row as it
 * was otherwise.
 */
export function feeFromItsParts(row: RawRow, day: string): RawRow {
  if (row.fee !== null || !row.garbledFee) return row;
  const br = tableBr(row, day);
  const parts = feeParts(row, br);
  const beside = spareAmounts(row).filter((value) => value > 0);
  const read = printed(row.garbledFee);
  const oneOff = (fee: number) => {
    const text = String(fee);
    return text.length === read.length && [...text].filter((c, i) => c !== read[i]).length === 1;
  };
  const fits = [...new Set(beside.flatMap((value) => parts.map((part) => value + part)))].filter(oneOff);
  return fits.length === 1
    ? { ...row, fee: fits[0] as number, moved: { ...row.moved, fee_cents: null } }
    : row;
}

/** The row re-mapped one way; `moved` keeps what was read in each cell whose figure changes. */
export function remapRow(row: RawRow, way: Realignment): RawRow {
  let { fee, br, amo } = row;
  if (way === "right") [fee, br, amo] = [row.br, row.amo, besides(row, "amo", 1)];
  else if (way === "left") [fee, br, amo] = [besides(row, "fee", -1), row.fee, row.br];
  else if (way === "fee-other-column") fee = feeBeside(row, null) ?? row.fee;
  else if (way === "br-other-column")
    br = spare(row, (value) => row.amo !== null && value > 0 && amoFits(row.amo, value));
  else amo = spare(row, (value) => row.br !== null && amoFits(value, row.br));
  return withFigures(row, fee, br, amo);
}

/** The row with these figures; `moved` keeps what was read in each cell whose figure changes. */
function withFigures(row: RawRow, fee: number | null, br: number | null, amo: number | null): RawRow {
  const moved: RawRow["moved"] = {};
  const was: Record<Field, number | null> = { fee_cents: row.fee, br_cents: row.br, amo_cents: row.amo };
  const now: Record<Field, number | null> = { fee_cents: fee, br_cents: br, amo_cents: amo };
  for (const field of ["fee_cents", "br_cents", "amo_cents"] as const)
    if (was[field] !== now[field]) moved[field] = was[field];
  return { ...row, fee, br, amo, moved: { ...row.moved, ...moved } };
}

/**
 * The table's rows re-mapped the way most of its rows with a known act show (null when none is shown by
 * more than half of them), or the way given: every row but those whose figures already agree
 * (`settled`), left as read.
 */
export function realign(
  rows: readonly RawRow[],
  day: string,
  way: Realignment | null = realignment(rows, day),
): RawRow[] | null {
  if (!way) return null;
  return rows.map((row) => (settled(way, row, tableBr(row, day)) ? row : remapRow(row, way)));
}

/** The way most of the table's rows with a known act show; null when none is shown by more than half. */
export function realignment(rows: readonly RawRow[], day: string): Realignment | null {
  const known = rows.flatMap((row) => {
    const br = tableBr(row, day);
    return br === null ? [] : [{ row, br }];
  });
  if (!known.length) return null;
  let best: { way: Realignment; count: number } | null = null;
  for (const way of ["right", "left", "br-other-column", "amo-other-column", "fee-other-column"] as const) {
    const count = known.filter(({ row, br }) => shows(way, row, br)).length;
    if (count * 2 > known.length && (!best || count > best.count)) best = { way, count };
  }
  return best?.way ?? null;
}

/** Where a row's fee, BR and AMO are among its amounts read left to right, and how many it has. */
export interface Places {
  fee: number;
  br: number;
  amo: number;
  count: number;
}

/**
 * Where the row's own figures put its fee, BR and AMO among its amounts, whatever the header said: an
 * AMO that is 60 % of a BR, and a fee from which a third amount is the BR taken away ("Dépassement") or
 * the AMO ("Montant non remboursé") — or, on a row of three amounts, the one left, no smaller than the
 * BR. null unless exactly one set of places fits.
 */
export function placesOf(row: RawRow): Places | null {
  const values = (row.amounts ?? []).map((a) => a.value);
  const count = values.length;
  if (count < 3) return null;
  const fits: Places[] = [];
  const at = (i: number) => values[i] ?? null;
  for (let br = 0; br < count; br += 1)
    for (let amo = 0; amo < count; amo += 1)
      for (let fee = 0; fee < count; fee += 1) {
        const [f, b, a] = [at(fee), at(br), at(amo)];
        if (new Set([fee, br, amo]).size < 3 || f === null || b === null || a === null) continue;
        if (b <= 0 || f < b || !amoFits(a, b)) continue;
        const rest = values.filter((_, i) => i !== fee && i !== br && i !== amo);
        const beside = rest.some((v) => v !== null && (Math.abs(f - b - v) <= 1 || Math.abs(f - a - v) <= 1));
        if (beside || count === 3) fits.push({ fee, br, amo, count });
      }
  return fits.length === 1 ? (fits[0] as Places) : null;
}

/**
 * The places most of the table's rows of three amounts or more show by their own figures (more than
 * half of them), when they are not where the header put the fee, BR and AMO on those rows; else null.
 * A header OCR lost in part ("Montant des honoraires" garbled on a dark band, "Montant remboursé AMO"
 * then taken for the fee) puts every row's figures in the wrong fields, and its codes, often garbled
 * with it, leave the act table nothing to tell: the rows' arithmetic still does.
 */
export function placesByArithmetic(rows: readonly RawRow[]): Places | null {
  const eligible = rows.filter((row) => (row.amounts?.length ?? 0) >= 3);
  const votes = new Map<string, { places: Places; count: number }>();
  for (const row of eligible) {
    const places = placesOf(row);
    if (!places) continue;
    const key = `${places.count}:${places.fee},${places.br},${places.amo}`;
    const vote = votes.get(key) ?? { places, count: 0 };
    vote.count += 1;
    votes.set(key, vote);
  }
  const best = [...votes.values()].sort((a, b) => b.count - a.count)[0];
  if (!best || best.count * 2 <= eligible.length) return null;
  const { places } = best;
  const kindAt = (row: RawRow, i: number) => row.amounts?.[i]?.kind ?? null;
  const asHeader = eligible.every(
    (row) =>
      row.amounts?.length !== places.count ||
      (kindAt(row, places.fee) === "fee" &&
        kindAt(row, places.br) === "br" &&
        kindAt(row, places.amo) === "amo"),
  );
  return asHeader ? null : places;
}

/** The row's fee, BR and AMO taken at those places (rows of another number of amounts left as read). */
export function remapByPlaces(row: RawRow, places: Places): RawRow {
  const amounts = row.amounts ?? [];
  if (amounts.length !== places.count) return row;
  const value = (i: number) => amounts[i]?.value ?? null;
  return {
    ...withFigures(row, value(places.fee), value(places.br), value(places.amo)),
    amounts: amounts.map((a, i) => ({
      ...a,
      kind: i === places.fee ? "fee" : i === places.br ? "br" : i === places.amo ? "amo" : null,
    })),
  };
}
