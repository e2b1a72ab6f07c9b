import { fold } from "./values";

/**
 * The devis's header information, from its text lines: the patient's name, the practitioner's name and
 * RPPS (11 digits) or ADELI (9 digits) number.
 */

const LABEL_END =
  /\s*(?:\s[-–—|]\s|[,;]|(?<!\p{L})(?:date|n[eé]\(?e?\)?\s+le|n°|nir|rpps|adeli|t[eé]l|t[eé]l[eé]phone|[aâ]ge)(?!\p{L})).*$/iu;
/\s*(?:[-–—|,;]|\b(?:date|ne\s*\(?e?\)?\s*le|n°|no|nir|rpps|adeli|tel|telephone|age)\b).*$/i;

function cleanName(raw: string): string | null {
  const name = raw
    .replace(/^[\s:.\-–—]+/, "")
    .replace(LABEL_END, "")
    .replace(/[\s:.,;]+$/, "")
    .trim();
  if (!name || !/\p{L}{2}/u.test(name) || name.length > 80) return null;
  return name;
}

const PATIENT_LABELS = [
  /nom\s+et\s+pr[eé]nom\s+du\s+patient\s*:?/i,
  /nom\s+du\s+patient\s*:?/i,
  /b[eé]n[eé]ficiaire(?:\s+des\s+soins)?\s*:?/i,
  /patient(?:e)?\s*:/i,
  /assur[eé](?:e)?\s*:/i,
];

/** "Patient : Jean Dupont" → "Jean Dupont". */
export function findPatientName(lines: string[]): string | null {
  for (const label of PATIENT_LABELS)
    for (const line of lines) {
      const m = label.exec(line);
      if (!m) continue;
      const name = cleanName(line.slice(m.index + m[0].length));
      if (name) return name;
    }
  return null;
}

/** "Dr Claire Martin", "Docteur Paul Lefèvre" → the name without its title ("Claire Martin"). */
export function findPractitionerName(lines: string[]): string | null {
  for (const line of lines) {
    const m = /\b([Dd][Rr]\.?|[Dd]octeur|DOCTEUR)\s+((?:[\p{Lu}][\p{L}'’-]*\.?\s*){1,4})/u.exec(line);
    if (!m?.[1] || !m[2]) continue;
    const words = m[2]
      .trim()
      .split(/\s+/)
      .filter((w) => !/^(?:chirurgien|rpps|adeli|n°|cabinet)/i.test(fold(w)));
    const cut: string[] = [];
    for (const w of words) {
      if (/^(?:chirurgien|rpps|adeli)/i.test(fold(w))) break;
      cut.push(w.replace(/[,;:]$/, ""));
    }
    if (cut.length) return cut.join(" ");
  }
  return null;
}

const DIGIT_LIKE: Record<string, string> = {
  O: "0",
  o: "0",
  D: "0",
  I: "1",
  l: "1",
  "|": "1",
  S: "5",
  B: "8",
};

/** "N° RPPS : 10101234567", "RPPS 10101234567", "N° ADELI : 751234567". */
export function findPractitionerNumber(lines: string[]): { kind: "RPPS" | "ADELI"; value: string } | null {
  for (const kind of ["RPPS", "ADELI"] as const) {
    const length = kind === "RPPS" ? 11 : 9;
    for (const line of lines) {
      const m = new RegExp(`\\b${kind}\\b`, "i").exec(line);
      if (!m) continue;
      const after = line.slice(m.index + m[0].length).replace(/^[\s:°.n-]*/i, "");
      // Digits, possibly grouped ("101 0123 4567") or with OCR lookalikes, up to the expected length.
      let digits = "";
      for (const token of after.split(/[\s\u00a0\u202f]+/)) {
        if (!/^[\dOoDIl|SB.]+$/.test(token) || !/\d/.test(token)) break;
        digits += token.replace(/\./g, "").replace(/[OoDIl|SB]/g, (c) => DIGIT_LIKE[c] ?? c);
        if (digits.length >= length) break;
      }
      if (/^\d+$/.test(digits) && digits.length === length) return { kind, value: digits };
    }
  }
  return null;
}
