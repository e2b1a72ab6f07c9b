import { writtenDate } from "../../../shared/format/dates";
/*
 * Appointment times as the picker holds them: Paris wall-clock strings 'YYYY-MM-DDTHH:mm' (ADR 011),
 * the times of day offered, their French wording and the server's errors on them.
 */

/** Every quarter of an hour from 08:00 to 19:30. */
export const SLOT_TIMES: readonly string[] = Array.from({ length: (19 - 8) * 4 + 3 }, (_, i) => {
  const minutes = 8 * 60 + i * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});

const LOCAL_SLOT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const LONG_DAY_WITH_YEAR = new Intl.DateTimeFormat("fr-FR", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const LONG_DAY = new Intl.DateTimeFormat("fr-FR", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

/**
 * A Paris wall-clock time 'YYYY-MM-DDTHH:mm' in French: "lundi 7 décembre 2026 à 14:30" (or
 * without the year). The string already is Paris time: it is formatted as is, whatever the
 * computer's time zone.
 */
export function formatLocalSlot(local: string, { year = true }: { year?: boolean } = {}): string {
  const match = LOCAL_SLOT.exec(local);
  if (!match) return local;
  const [, y, mo, d, h, mi] = match;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return `${writtenDate(year ? LONG_DAY_WITH_YEAR : LONG_DAY, day)} à ${h}:${mi}`;
}

/** 'YYYY-MM-DD' → "lundi 7 décembre 2026". */
export function formatDay(day: string): string {
  return writtenDate(LONG_DAY_WITH_YEAR, new Date(`${day}T00:00:00Z`));
}

/** 'YYYY-MM-DD' → the local Date of that calendar day (the calendar only deals in days). */
export function dayToDate(day: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The calendar's local Date → 'YYYY-MM-DD'. */
export function dateToDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

/**
 * The server's field errors on times (`slots`, `slots.0`…, `starts_at`) as one French sentence
 * per line: "Créneau 2 : Ce créneau est déjà passé…" when several times were sent.
 */
export function slotsFieldError(
  fields: Record<string, string>,
  slots: readonly string[] = [],
): string | undefined {
  const lines: string[] = [];
  if (fields.slots) lines.push(fields.slots);
  for (const [key, message] of Object.entries(fields)) {
    const match = /^slots\.(\d+)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const slot = slots[index];
    lines.push(
      slot
        ? `${formatLocalSlot(slot)} : ${message}`
        : slots.length > 1
          ? `Créneau ${index + 1} : ${message}`
          : message,
    );
  }
  if (fields.starts_at) lines.push(fields.starts_at);
  return lines.length > 0 ? lines.join("\n") : undefined;
}
