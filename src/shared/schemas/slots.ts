import { z } from "zod";
import { parseParisSlot } from "../format/paris";

/**
 * Appointment slots as people type them: Paris wall-clock times 'YYYY-MM-DDTHH:mm', read by
 * `parseParisSlot` (ADR 038). Shared by a dentist's offer and by the times either side of an
 * appointment proposes; what depends on the clock (future, horizon) is checked apart.
 */
export const SLOT_MESSAGES = {
  invalid: "Ce créneau n'est pas une date et une heure valides (jour du calendrier, heure de 00:00 à 23:59).",
  nonexistent:
    "Cette heure n'existe pas à Paris ce jour-là (passage à l'heure d'été : de 02:00 à 02:59, les horloges avancent d'une heure). Choisissez une autre heure.",
  duplicate: "Ce créneau est proposé deux fois.",
} as const;

/** One slot: a string that is a real Paris wall-clock time. */
export const parisSlotSchema = z.string({ error: SLOT_MESSAGES.invalid }).superRefine((slot, ctx) => {
  const parsed = parseParisSlot(slot);
  if (!parsed.ok)
    ctx.addIssue({
      code: "custom",
      message: parsed.reason === "nonexistent" ? SLOT_MESSAGES.nonexistent : SLOT_MESSAGES.invalid,
    });
});

/**
 * Duplicates among valid slots, compared as instants (two spellings of one instant are one slot):
 * an issue on each repetition after the first.
 */
export function duplicateSlotIssues(
  slots: readonly string[],
  prefix: (string | number)[],
): { code: "custom"; path: (string | number)[]; message: string }[] {
  const seen = new Set<number>();
  const issues: { code: "custom"; path: (string | number)[]; message: string }[] = [];
  slots.forEach((slot, i) => {
    const parsed = parseParisSlot(slot);
    if (!parsed.ok) return;
    const instant = parsed.instant.getTime();
    if (seen.has(instant))
      issues.push({ code: "custom", path: [...prefix, i], message: SLOT_MESSAGES.duplicate });
    seen.add(instant);
  });
  return issues;
}
