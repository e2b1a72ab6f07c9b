/**
 * The names files are stored and served under. A name is only shown or offered for saving, never
 * used as a path, but the browser and the operating system act on it: its extension decides which
 * program opens a download, and bidi controls can make `devis\u202Egnp.exe` read as `devisexe.png`.
 * So a served name loses every control and format character, and its extension is the one of the
 * type found in the content (sniffed at upload), whatever the uploader called the file.
 */

/**
 * Extensions of the types the product stores or generates, the first being the one given to a
 * name. Sniffed types come from file-type (`video/vnd.avi`, `video/matroska`); browsers' older
 * spellings are listed too.
 */
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  "application/pdf": ["pdf"],
  "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"],
  "image/png": ["png"],
  "image/webp": ["webp"],
  "video/mp4": ["mp4", "m4v"],
  "video/quicktime": ["mov", "qt"],
  "video/vnd.avi": ["avi"],
  "video/x-msvideo": ["avi"],
  "video/matroska": ["mkv"],
  "video/x-matroska": ["mkv"],
  "application/zip": ["zip"],
  "text/calendar": ["ics"],
  // The invoice register for the accountant (issue 35).
  "text/csv": ["csv"],
};

/** The extensions a file of this MIME type may carry (parameters and case ignored); [] if unknown. */
export function extensionsOf(mime: string | null | undefined): readonly string[] {
  const type = (mime ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return EXTENSIONS[type] ?? [];
}

const MAX_LENGTH = 200;

/**
 * Control (Cc), format (Cf: bidi embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069,
 * marks U+200E/U+200F/U+061C, zero-width characters, BOM, soft hyphen…), line/paragraph separators
 * and lone surrogates (which cannot be percent-encoded).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** What looks like an extension: a final dotted part of 1 to 10 letters/digits, one letter at least. */
const EXTENSION = /\.((?=[a-z0-9]{1,10}$)[a-z0-9]*[a-z][a-z0-9]*)$/i;

/**
 * The name a file is stored and served under: no folder, no control or format characters, no
 * leading dots, no trailing dots or spaces (Windows drops them, which would uncover the extension
 * before), at most 200 characters, and the extension of `mime`: kept when it is one of that type's
 * (`scan.jpeg` for a JPEG), replaced otherwise (`devis.hta` holding a PDF → `devis.pdf`), added when
 * there is none. A type the product does not know gets no extension at all. Pure; applied when a
 * file is stored and again when it is served (rows stored before the rule).
 */
export function servedFileName(name: string, mime: string | null | undefined, fallback = "fichier"): string {
  const base = (name.split(/[\\/]/).pop() ?? "")
    .replace(INVISIBLE, "")
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  const found = EXTENSION.exec(base);
  const current = found && found.index > 0 ? found[1] : undefined;
  const allowed = extensionsOf(mime);
  const keep = current !== undefined && allowed.includes(current.toLowerCase());
  const ext = keep ? current : allowed[0];
  const stem =
    (current === undefined ? base : base.slice(0, found?.index)).replace(/[\s.]+$/, "") || fallback;
  const suffix = ext ? `.${ext}` : "";
  // Counted in code points, so that a cut never splits a surrogate pair.
  const room = MAX_LENGTH - suffix.length;
  const chars = Array.from(stem);
  return `${chars.length > room ? chars.slice(0, room).join("").trimEnd() : stem}${suffix}`;
}

/** 'radio.pdf', 'radio.pdf' → 'radio.pdf', 'radio (2).pdf': an archive cannot hold one name twice. */
export function uniqueName(fileName: string, used: Set<string>): string {
  const safe = fileName.replace(/[\\/]/g, "_") || "document";
  const dot = safe.lastIndexOf(".");
  const [base, ext] = dot > 0 ? [safe.slice(0, dot), safe.slice(dot)] : [safe, ""];
  let name = safe;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n})${ext}`;
  used.add(name.toLowerCase());
  return name;
}
