import { TZDate } from "@date-fns/tz";

/**
 * The calendar and the wall clock in Europe/Paris (summer and winter time), whatever the machine's
 * time zone: offers' validity days, appointment slots, the chat's 'Hier'.
 */
const TZ = "Europe/Paris";

const PARIS_PARTS = new Intl.DateTimeFormat("en-CA", {
  timeZone: TZ,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** The last minute asked and its answer: formatToParts is costly, and a server asks the same minute all along. */
let lastMinute = Number.NaN;
let lastLocal = "";

/** The wall-clock time in Paris at `now`, as 'YYYY-MM-DDTHH:mm'. */
export function parisLocalNow(now: Date): string {
  // The answer has a minute's precision, and time zones change on whole minutes: same minute, same answer.
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute === lastMinute) return lastLocal;
  const parts = Object.fromEntries(PARIS_PARTS.formatToParts(now).map((p) => [p.type, p.value]));
  lastLocal = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
  lastMinute = minute;
  return lastLocal;
}

/** Today's calendar day in Paris, 'YYYY-MM-DD'. */
export function parisToday(now: Date): string {
  return parisLocalNow(now).slice(0, 10);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day 'YYYY-MM-DD': « 2026-13-01 » or « 0000-00-00 » fit the pattern but are no day. */
export function isCalendarDay(day: string): boolean {
  if (!DAY.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** The calendar days from one 'YYYY-MM-DD' day to another ('2026-12-04' to '2026-12-07': 3). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Adds days to a 'YYYY-MM-DD' calendar day. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * A Paris wall-clock time 'YYYY-MM-DDTHH:mm' read as an instant (ADR 038):
 * - `invalid`: not that shape, or not a calendar time (month 13, 30 February, 24:00, 99:99 — never rolled
 *   over to the next day or hour);
 * - `nonexistent`: a time the spring clock change skips (the last Sunday of March, 02:00–02:59);
 * - the autumn hour that happens twice (the last Sunday of October, 02:00–02:59) is its first
 *   occurrence, in summer time (UTC+2).
 * The time zone arithmetic is @date-fns/tz's; the result is checked by reading it back on the Paris clock.
 */
export function parseParisSlot(
  local: string,
): { ok: true; instant: Date } | { ok: false; reason: "invalid" | "nonexistent" } {
  const match = LOCAL.exec(local);
  if (!match) return { ok: false, reason: "invalid" };
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth || h > 23 || mi > 59 || y < 1000)
    return { ok: false, reason: "invalid" };
  const candidate = new TZDate(y, mo - 1, d, h, mi, TZ).getTime();
  if (parisLocalNow(new Date(candidate)) !== local) return { ok: false, reason: "nonexistent" };
  // The autumn repeated hour: the earlier instant showing the same wall-clock time, when there is one.
  const hourBefore = candidate - 3_600_000;
  const instant = parisLocalNow(new Date(hourBefore)) === local ? hourBefore : candidate;
  return { ok: true, instant: new Date(instant) };
}

/** 'YYYY-MM-DDTHH:mm' read as Paris wall-clock time → the instant; throws on a time `parseParisSlot` refuses. */
export function parisLocalToDate(local: string): Date {
  const parsed = parseParisSlot(local);
  if (!parsed.ok) throw new RangeError(`not a Paris wall-clock time (${parsed.reason}): ${local}`);
  return parsed.instant;
}
