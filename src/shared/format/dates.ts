/** Dates in the French locale, weeks from Monday, in Europe/Paris: lists dd/MM/yyyy, details d MMMM yyyy (« 1er » on the first). */
const TZ = "Europe/Paris";
const LIST = new Intl.DateTimeFormat("fr-FR", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  timeZone: TZ,
});
const DETAIL = new Intl.DateTimeFormat("fr-FR", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: TZ,
});
const TIME = new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit", timeZone: TZ });

/**
 * A date written out in French: the first of the month is « 1er » (« le 1er décembre 2026 »), as
 * French typography writes it and Intl does not. For every formatter that spells the month.
 */
export function writtenDate(format: Intl.DateTimeFormat, date: Date): string {
  return format
    .formatToParts(date)
    .map((part) => (part.type === "day" && part.value === "1" ? "1er" : part.value))
    .join("");
}

/** dd/MM/yyyy, for lists and tables. */
export function formatListDate(date: Date | string): string {
  return LIST.format(new Date(date));
}

/** d MMMM yyyy ("21 novembre 2026"), for details. */
export function formatDetailDate(date: Date | string): string {
  return writtenDate(DETAIL, new Date(date));
}

/** "21 novembre 2026 à 14:05". */
export function formatDetailDateTime(date: Date | string): string {
  return `${writtenDate(DETAIL, new Date(date))} à ${TIME.format(new Date(date))}`;
}

const APPOINTMENT = new Intl.DateTimeFormat("fr-FR", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: TZ,
});

/** "lundi 7 décembre 2026 à 14:30", for appointments. */
export function formatAppointmentTime(date: Date | string): string {
  return `${writtenDate(APPOINTMENT, new Date(date))} à ${TIME.format(new Date(date))}`;
}
