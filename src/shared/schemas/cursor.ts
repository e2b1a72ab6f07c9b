import { z } from "zod";

/**
 * Keyset cursors ("after this row"): a timestamp and a row id, as base64url JSON. They come back
 * from the client, so decoding accepts only what encoding produces: a forged cursor (garbage, a date
 * PostgreSQL cannot store, an id that is not a uuid) is refused by the query schema with a 400 and
 * never reaches SQL. No Node or DOM imports: atob/btoa exist in both.
 */

export const CURSOR_MESSAGES = { invalid: "Curseur de pagination invalide." } as const;

export interface KeysetCursor {
  /**
   * The row's instant as ISO 8601 in UTC, to the microsecond when the database gave it (PostgreSQL
   * keeps microseconds; a cursor cut to the millisecond would skip the rows later in the same
   * millisecond): see `cursorInstant`.
   */
  at: string;
  id: string;
}

// What Date#toISOString prints for the years a row can have (PostgreSQL refuses some JS dates),
// optionally with the microseconds that `cursorInstant` adds.
const ISO_INSTANT = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(\d{3})?Z$/;

/**
 * A row's instant for a cursor: a Date to the millisecond (all it holds), or the text PostgreSQL
 * writes in JSON ("2026-11-28T10:00:00.123456+00:00", its fraction trimmed of zeros, any offset) to
 * the microsecond. Offsets are whole minutes, so the digits past the millisecond are the text's own.
 */
export function cursorInstant(value: Date | string): string {
  const iso = new Date(value).toISOString();
  if (typeof value !== "string") return iso;
  const micro = /\.\d{3}(\d{1,3})/.exec(value)?.[1];
  return micro ? iso.replace("Z", `${micro.padEnd(3, "0")}Z`) : iso;
}
// The uuid syntax PostgreSQL accepts (any version), nothing else.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(cursor: KeysetCursor): string {
  return btoa(JSON.stringify([cursor.at, cursor.id]))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The cursor, or null when the text is not one that encodeCursor could have produced. */
export function decodeCursor(text: string): KeysetCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [at, id] = value as unknown[];
  if (typeof at !== "string" || typeof id !== "string" || !UUID.test(id)) return null;
  const year = Number(ISO_INSTANT.exec(at)?.[1]);
  const milliseconds = `${at.slice(0, 23)}Z`;
  const date = new Date(milliseconds);
  if (!(year >= 1970) || Number.isNaN(date.getTime()) || date.toISOString() !== milliseconds) return null;
  return { at, id };
}

/** The `cursor` query parameter: optional, and refused (400, in French) unless it decodes. */
export const cursorParamSchema = z
  .string()
  .max(200)
  .refine((text) => decodeCursor(text) !== null, { error: CURSOR_MESSAGES.invalid })
  .optional();
