/** « rendez-vous en novembre 2026 » → « Rendez-vous en novembre 2026 » (a sentence's start). */
export function upperFirst(text: string): string {
  return text.charAt(0).toLocaleUpperCase("fr") + text.slice(1);
}

/** « Choisissez la dent… » → « choisissez la dent… » (after a colon). */
export function lowerFirst(text: string): string {
  return text.charAt(0).toLocaleLowerCase("fr") + text.slice(1);
}
