/** Lower-case, accents removed, spaces collapsed: "Prothèse  Dentaire" → "prothese dentaire". */
export function normalizeForSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** The keys whose French label contains the search term (accent- and case-insensitive). */
export function keysMatchingLabel<K extends string>(term: string, labels: Record<K, string>): K[] {
  const needle = normalizeForSearch(term);
  if (!needle) return [];
  return (Object.keys(labels) as K[]).filter((key) => normalizeForSearch(labels[key]).includes(needle));
}
