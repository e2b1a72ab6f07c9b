import { ERASED_NAME } from "../schemas/account";
import { upperFirst } from "./text";

/** Joins trimmed first and last names into the full name stored on the profile. */
export function fullNameOf(firstName: string, lastName: string): string {
  return [firstName.trim(), lastName.trim()].filter(Boolean).join(" ");
}

/**
 * A full name is split at spaces into the first name (first word)
 * and the last name (the rest).
 */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  return { firstName: words[0] ?? "", lastName: words.slice(1).join(" ") };
}

/** Initials shown in the avatar when there is no image ("Marie Curie" → "MC"). */
export function initialsOf(fullName: string | null | undefined): string {
  const words = (fullName ?? "").trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words.slice(0, 1);
  return letters.map((w) => (w ?? "").charAt(0).toUpperCase()).join("") || "?";
}

/** A dentist's title before his name (« Dr Sophie Leroy »): the article contracts with it. */
const TITLED = /^Dr\.?\s/;

/**
 * How patients read a dentist whose account was erased: his pseudonym (ERASED_NAME) is no name to
 * put a title before (never « Dr Compte supprimé »).
 */
export const ERASED_DENTIST = "Dentiste (compte supprimé)";

/** A dentist as patients read him, with his title (glossary): « Dr Sophie Leroy », or ERASED_DENTIST. */
export function drName(fullName: string): string {
  return fullName === ERASED_NAME ? ERASED_DENTIST : `Dr ${fullName}`;
}

/** ERASED_DENTIST inside a sentence, after its article: « dentiste (compte supprimé) ». */
const ERASED_IN_SENTENCE = "dentiste (compte supprimé)";

/**
 * "de" before a name or a brand, as French writes it: contracted before « Dr » (« du Dr Sophie
 * Leroy »), elided before a vowel, a mute h or a y sounded as a vowel (« d'Anne Lambert »,
 * « d'Élodie », « d'Hugo », « d'Yves », « d'un patient »), « de » otherwise (« de Marie Dupont »,
 * « de Yasmine »). A first name's h is taken as mute, as most are (« d'Hélène », « d'Henri »).
 * An erased account's pseudonym is no person's name: « d'un compte supprimé ».
 */
export function ofName(name: string): string {
  const text = name.trim();
  if (TITLED.test(text)) return `du ${text}`;
  if (text === ERASED_DENTIST) return `du ${ERASED_IN_SENTENCE}`;
  if (text === ERASED_NAME) return "d'un compte supprimé";
  const letters = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const elided = /^[aeiouh\u0153\u00e6]/.test(letters) || /^y[^aeiouy]/.test(letters);
  return elided ? `d'${text}` : `de ${text}`;
}

/** « à » before a name, contracted before « Dr » (« au Dr Sophie Leroy », « à Marie Dupont »). */
export function toName(name: string): string {
  const text = name.trim();
  if (text === ERASED_DENTIST) return `au ${ERASED_IN_SENTENCE}`;
  if (text === ERASED_NAME) return "à un compte supprimé";
  return TITLED.test(text) ? `au ${text}` : `à ${text}`;
}

/** A name after a preposition such as « avec »: « le Dr Sophie Leroy », « Marie Dupont ». */
export function theName(name: string): string {
  const text = name.trim();
  if (text === ERASED_DENTIST) return `le ${ERASED_IN_SENTENCE}`;
  return TITLED.test(text) ? `le ${text}` : text;
}

/** theName at the start of a sentence: « Le Dr Sophie Leroy a répondu », « Marie Dupont a écrit ». */
export function theNameAtStart(name: string): string {
  return upperFirst(theName(name));
}
