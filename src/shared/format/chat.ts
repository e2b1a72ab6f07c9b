import { parisToday } from "./paris";

/**
 * The chat's time label, French locale, Europe/Paris: today 'HH:mm', yesterday 'Hier', under
 * seven days the weekday ('mardi'), otherwise dd/MM/yyyy.
 */
const TZ = "Europe/Paris";
const TIME = new Intl.DateTimeFormat("fr-FR", { timeZone: TZ, hour: "2-digit", minute: "2-digit" });
const WEEKDAY = new Intl.DateTimeFormat("fr-FR", { timeZone: TZ, weekday: "long" });
const DATE = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TZ,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});

/** Whole calendar days between two instants, counted in Paris. */
function parisDaysBetween(earlier: Date, later: Date): number {
  const a = Date.parse(`${parisToday(earlier)}T00:00:00Z`);
  const b = Date.parse(`${parisToday(later)}T00:00:00Z`);
  return Math.round((b - a) / 86_400_000);
}

export function chatTimeLabel(at: Date | string, now: Date = new Date()): string {
  const date = new Date(at);
  const days = parisDaysBetween(date, now);
  if (days <= 0) return TIME.format(date);
  if (days === 1) return "Hier";
  if (days < 7) return WEEKDAY.format(date);
  return DATE.format(date);
}

/**
 * A message in one line, for the lists that show its beginning (conversations, the dentist's
 * dashboard, the team's support threads): its lines joined by « · », spaces collapsed, blank lines
 * dropped. An offer's message (« Proposition de devis… », « Valable jusqu'au… », its comment) reads
 * as three parts, not as one sentence.
 */
export function oneLine(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter(Boolean)
    .join(" · ");
}
