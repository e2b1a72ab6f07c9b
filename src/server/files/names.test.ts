import { describe, expect, it } from "vitest";
import { extensionsOf, servedFileName } from "./names";

/** Each row: the uploaded name, the type found in the content, the name served. */
type Case = [name: string, type: string | null, served: string];

describe("servedFileName", () => {
  it.each<Case>([
    // Gives the name the extension of the type found in the content.
    ["devis.hta", "application/pdf", "devis.pdf"],
    ["radio.svg", "image/png", "radio.png"],
    ["photo.html", "image/jpeg", "photo.jpg"],
    ["film.exe", "video/vnd.avi", "film.avi"],
    ["film.bat", "video/matroska", "film.mkv"],
    ["archive.tar.gz", "application/pdf", "archive.tar.pdf"],
    // Keeps an extension that is one of the type's, in its own spelling.
    ["scan.jpeg", "image/jpeg", "scan.jpeg"],
    ["scan.jpg", "image/jpeg", "scan.jpg"],
    ["Scan.JPG", "image/jpeg", "Scan.JPG"],
    ["devis-dentiste.pdf", "application/pdf", "devis-dentiste.pdf"],
    ["clip.mov", "video/quicktime", "clip.mov"],
    ["rendez-vous.ics", "text/calendar; charset=utf-8", "rendez-vous.ics"],
    // Adds the extension when the name has none, and does not take numbers for one.
    ["radio", "image/png", "radio.png"],
    ["radio du 12.05.2024", "image/png", "radio du 12.05.2024.png"],
    ["Compte rendu Dr. Martin", "application/pdf", "Compte rendu Dr. Martin.pdf"],
    // Drops the extension of a type it does not know rather than keep the uploader's.
    ["devis.hta", "application/octet-stream", "devis"],
    ["devis.hta", null, "devis"],
    // Keeps accents and other letters, composed.
    ["Réponse à l'orthodontiste – 2ᵉ.pdf", "application/pdf", "Réponse à l'orthodontiste – 2ᵉ.pdf"],
    ["cle\u0301.pdf", "application/pdf", "clé.pdf"],
    ["歯のレントゲン.png", "image/png", "歯のレントゲン.png"],
    // Never gives a folder, a hidden file, or trailing dots and spaces that Windows would drop.
    ["../../etc/passwd", "application/pdf", "passwd.pdf"],
    ["C:\\Users\\marie\\devis.pdf", "application/pdf", "devis.pdf"],
    [".htaccess", "application/pdf", "htaccess.pdf"],
    ["devis.hta. . ", "application/pdf", "devis.pdf"],
    ["devis .pdf", "application/pdf", "devis.pdf"],
    ["a   b.pdf", "application/pdf", "a b.pdf"],
    // Falls back to a plain name when nothing is left.
    ["", "application/pdf", "fichier.pdf"],
    [".pdf", "application/pdf", "pdf.pdf"],
  ])("serves %j sent as %s as %j", (name, type, served) => {
    expect(servedFileName(name, type)).toBe(served);
  });

  it("knows no extension for a type it does not know", () => {
    expect(extensionsOf("application/x-msdownload")).toEqual([]);
  });

  it("falls back to the name it is given when nothing is left", () => {
    expect(servedFileName("\u202e\u0000 ..", "image/png", "image")).toBe("image.png");
  });

  it("removes bidi controls and every other control or format character", () => {
    expect(servedFileName("devis\u202egnp.exe", "image/png")).toBe("devisgnp.png");
    expect(servedFileName("devis\u202egnp.exe", "application/pdf")).toBe("devisgnp.pdf");
    // Bidi embeddings, overrides and isolates; marks; zero-width space and BOM; C0, C1; line breaks.
    const invisible = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\ufeff";
    for (const c of [...invisible, "\u0000", "\u0007", "\t", "\n", "\u007f", "\u0085", "\u2028", "\u2029"])
      expect(servedFileName(`ra${c}dio${c}.pdf`, "application/pdf"), JSON.stringify(c)).toBe("radio.pdf");
    // A lone surrogate cannot be percent-encoded: it goes too.
    expect(servedFileName("radio\ud800.pdf", "application/pdf")).toBe("radio.pdf");
  });

  it("keeps at most 200 characters, the extension included, without splitting a character", () => {
    const long = servedFileName(`${"a".repeat(300)}.hta`, "application/pdf");
    expect(long).toBe(`${"a".repeat(196)}.pdf`);
    const emoji = servedFileName(`${"😀".repeat(250)}.png`, "image/png");
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji.endsWith("😀.png")).toBe(true);
    expect(() => encodeURIComponent(emoji)).not.toThrow();
  });
});
