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

/** The wall-clock time in Paris at `now`, as 'YYYY-MM-DDTHH:mm'. */
export function parisLocalNow(now: Date): string {
  const parts = Object.fromEntries(PARIS_PARTS.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Today's calendar day in Paris, 'YYYY-MM-DD'. */
export function parisToday(now: Date): string {
  return parisLocalNow(now).slice(0, 10);
}

/** Adds days to a 'YYYY-MM-DD' calendar day. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 'YYYY-MM-DDTHH:mm' read as Paris wall-clock time (summer and winter time) → the instant. */
export function parisLocalToDate(local: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) throw new RangeError(`not a local date-time: ${local}`);
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, TZ).getTime());
}
