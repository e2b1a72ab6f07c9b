/**
 * A date as the API writes it (`toISOString()`: UTC, to the millisecond, cut and not rounded), from
 * what a read gives: a `Date` (a column through the driver) or PostgreSQL's ISO text (a column inside
 * a JSON aggregate, the lists of issue 38: `2026-11-29T10:15:30.580895+00:00`, in the session's time
 * zone).
 *
 * `new Date(text).toISOString()` gives the answer for every form, but V8 reads PostgreSQL's text
 * (microseconds, an offset in place of `Z`) with its slower legacy parser, and a list page converts
 * one or two dates per row (the conversations: 51 rows, ~1 µs a row; ADR 060). Text in UTC
 * (`+00:00`, what PGlite and a server whose time zone is UTC write) is therefore rewritten as text:
 * the same characters `toISOString()` would give, the fraction cut to three digits. Any other form
 * (another offset, no seconds, a year outside 0000–9999…) goes through `Date` as before.
 */
const UTC_TEXT = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00:00$/;

export function isoOf(value: Date | string): string {
  if (typeof value === "string") {
    const match = UTC_TEXT.exec(value);
    if (match) {
      const fraction = match[2] ?? "";
      return `${match[1]}.${fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, "0")}Z`;
    }
  }
  return new Date(value).toISOString();
}
