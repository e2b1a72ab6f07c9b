import { cn } from "../../lib/cn";

/** From this share of the limit on, the count is shown (and read as it changes). */
export const CHARACTER_COUNT_THRESHOLD = 0.8;

export interface CharacterLimit {
  /** The field's text, as the browser cuts it with `maxLength`. */
  value: string;
  /** The limit the server checks: read from the shared schema or constant, never retyped. */
  max: number;
  /** Shown from the first character, not only near the limit (read aloud only near it). */
  always?: boolean;
}

/** Whether the count has text: the field names it in its aria-describedby only then. */
export function characterCountShown({ value, max, always = false }: CharacterLimit): boolean {
  return always || value.length >= max * CHARACTER_COUNT_THRESHOLD;
}

/**
 * « 4 000 / 5 000 caractères » under a long text field once it nears its limit, in red with what
 * happens once it is reached (`maxLength` cuts what is typed or pasted beyond it). The field names
 * it (`id`) in its aria-describedby while it shows (characterCountShown); only the part near the
 * limit is a polite live region, so the count is not read at each key below it.
 */
export function CharacterCount({ id, value, max, always = false }: CharacterLimit & { id: string }) {
  const length = value.length;
  const near = length >= max * CHARACTER_COUNT_THRESHOLD;
  const reached = length >= max;
  // Formatted here, when shown, never at import: the landing page's contact form has fields of this
  // module and must create no Intl formatter (ADR 071); every limit is plural.
  const count = `${length.toLocaleString("fr-FR")} / ${max.toLocaleString("fr-FR")} caractères`;
  const text = reached ? `${count}. Limite atteinte : le texte au-delà n'est pas conservé.` : count;
  return (
    <p
      id={id}
      className={cn(
        "text-sm tabular-nums",
        reached ? "font-medium text-red-700" : "text-slate-600",
        !characterCountShown({ value, max, always }) && "sr-only",
      )}
    >
      {always && !near ? text : null}
      <span aria-live="polite" aria-atomic="true">
        {near ? text : null}
      </span>
    </p>
  );
}

/** The `.max()` of a shared zod string schema: the limit its server checks. */
export function maxLengthOf(schema: { maxLength: number | null }): number {
  if (schema.maxLength === null) throw new Error("This schema has no maximum length.");
  return schema.maxLength;
}
