/*
 * The fold of the name search (ADR 084): the database's `search_fold` (migration 052) is built from
 * it, and `foldName` folds what was typed the same way. Server-side only: the browser never folds.
 */
/** The letter ranges whose accented letters the name search folds: Latin-1, Latin Extended-A and -B, Latin Extended Additional (« Nguyễn »). */
const FOLDED_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0xc0, 0x24f],
  [0x1e00, 0x1eff],
];
/** Letters that carry no separable accent, folded by hand: « ø », « đ », « ł », the dotless « ı ». */
const FOLDED_BY_HAND: Record<string, string> = { ø: "o", Ø: "o", đ: "d", Đ: "d", ł: "l", Ł: "l", ı: "i" };
/**
 * Ligatures, spelled out: « Œ » is found by « oe ». Their capitals too: a PostgreSQL whose locale is C
 * puts only ASCII letters in lower case.
 */
const LIGATURES: ReadonlyArray<readonly [string, string]> = [
  ["œ", "oe"],
  ["Œ", "oe"],
  ["æ", "ae"],
  ["Æ", "ae"],
  ["ß", "ss"],
  ["ẞ", "ss"],
];

/**
 * Each accented letter of FOLDED_RANGES (either case) with its base letter in lower case, as the pair
 * of strings PostgreSQL's `translate()` takes: the database's `search_fold` (migration 052) is built
 * from them, and a test holds the two folds equal letter by letter.
 */
export const FOLDED_LETTERS = (() => {
  let from = "";
  let to = "";
  for (const [first, last] of FOLDED_RANGES) {
    for (let code = first; code <= last; code++) {
      const letter = String.fromCodePoint(code);
      const base = letter.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      if (base !== letter && /^[A-Za-z]$/.test(base)) {
        from += letter;
        to += base.toLowerCase();
      }
    }
  }
  for (const [letter, base] of Object.entries(FOLDED_BY_HAND)) {
    from += letter;
    to += base;
  }
  return { from, to };
})();

const FOLD = new Map([...FOLDED_LETTERS.from].map((letter, i) => [letter, FOLDED_LETTERS.to[i] ?? ""]));

/**
 * A person's name as the name search compares it: lower case, accents and ligatures removed
 * (« Inès Lœwy » → « ines loewy »), exactly as the database's `search_fold` does, so that
 * « ines » finds « Inès » and « Guerin » finds « Guérin ». A name typed with combining accents
 * loses them too. Letters of other scripts are only put in lower case.
 */
export function foldName(text: string): string {
  let folded = "";
  for (const char of text.toLowerCase()) {
    if (char >= "\u0300" && char <= "\u036f") continue;
    folded += FOLD.get(char) ?? char;
  }
  for (const [ligature, spelled] of LIGATURES) folded = folded.replaceAll(ligature, spelled);
  return folded;
}

/** The SQL body of `search_fold(text)`, the same fold as `foldName` (migration 052). */
export function searchFoldSql(): string {
  const combining = Array.from({ length: 0x70 }, (_, i) => String.fromCharCode(0x300 + i)).join("");
  const translated = `translate(lower($1), '${FOLDED_LETTERS.from}${combining}', '${FOLDED_LETTERS.to}')`;
  return LIGATURES.reduce(
    (body, [ligature, spelled]) => `replace(${body}, '${ligature}', '${spelled}')`,
    translated,
  );
}
