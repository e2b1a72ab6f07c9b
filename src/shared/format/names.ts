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
