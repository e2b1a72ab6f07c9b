/**
 * French plurals with Intl.PluralRules (glossary: docs/glossary.md): never "fichier(s)".
 * French puts 0 and 1 in "one" ("0 fichier ajouté", "1 fichier ajouté", "2 fichiers ajoutés").
 */
const rules = new Intl.PluralRules("fr-FR");

/** "one" or "other" form of a word or phrase for `count`: plural(2, "fichier ajouté", "fichiers ajoutés"). */
export function plural(count: number, one: string, other: string): string {
  return rules.select(count) === "one" ? one : other;
}

/** The count then the right form, with a normal space: countLabel(2, "fichier", "fichiers") → "2 fichiers". */
export function countLabel(count: number, one: string, other: string): string {
  return `${count.toLocaleString("fr-FR")} ${plural(count, one, other)}`;
}
