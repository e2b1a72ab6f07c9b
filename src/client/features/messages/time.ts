import { chatTimeLabel } from "../../../shared/format/chat";

const TIME = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  hour: "2-digit",
  minute: "2-digit",
});
const FULL = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  dateStyle: "full",
  timeStyle: "short",
});

/** A message's time in the thread: the list's label, with the hour when it is not today ('Hier, 14:05'). */
export function messageTimeLabel(at: string, now: Date = new Date()): string {
  const label = chatTimeLabel(at, now);
  const time = TIME.format(new Date(at));
  return label === time ? label : `${label}, ${time}`;
}

/** The full date and time, for the `title` of a time label ('mardi 21 novembre 2026 à 14:05'). */
export function fullDateTime(at: string): string {
  return FULL.format(new Date(at));
}
