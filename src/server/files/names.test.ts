import { describe, expect, it } from "vitest";
import { extensionsOf, servedFileName } from "./names";

describe("servedFileName", () => {
  it("gives the name the extension of the type found in the content", () => {
    expect(servedFileName("devis.hta", "application/pdf")).toBe("devis.pdf");
    expect(servedFileName("radio.svg", "image/png")).toBe("radio.png");
    expect(servedFileName("photo.html", "image/jpeg")).toBe("photo.jpg");
    expect(servedFileName("film.exe", "video/vnd.avi")).toBe("film.avi");
    expect(servedFileName("film.bat", "video/matroska")).toBe("film.mkv");
    expect(servedFileName("archive.tar.gz", "application/pdf")).toBe("archive.tar.pdf");
  });

  it("keeps an extension that is one of the type's, in its own spelling", () => {
    expect(servedFileName("scan.jpeg", "image/jpeg")).toBe("scan.jpeg");
    expect(servedFileName("scan.jpg", "image/jpeg")).toBe("scan.jpg");
    expect(servedFileName("Scan.JPG", "image/jpeg")).toBe("Scan.JPG");
    expect(servedFileName("devis-dentiste.pdf", "application/pdf")).toBe("devis-dentiste.pdf");
    expect(servedFileName("clip.mov", "video/quicktime")).toBe("clip.mov");
    expect(servedFileName("rendez-vous.ics", "text/calendar; charset=utf-8")).toBe("rendez-vous.ics");
  });

  it("adds the extension when the name has none, and does not take numbers for one", () => {
    expect(servedFileName("radio", "image/png")).toBe("radio.png");
    expect(servedFileName("radio du 12.05.2024", "image/png")).toBe("radio du 12.05.2024.png");
    expect(servedFileName("Compte rendu Dr. Martin", "application/pdf")).toBe("Compte rendu Dr. Martin.pdf");
  });

  it("drops the extension of a type it does not know rather than keep the uploader's", () => {
    expect(servedFileName("devis.hta", "application/octet-stream")).toBe("devis");
    expect(servedFileName("devis.hta", null)).toBe("devis");
    expect(extensionsOf("application/x-msdownload")).toEqual([]);
  });

  it("removes bidi controls and every other control or format character", () => {
    expect(servedFileName("devis\u202egnp.exe", "image/png")).toBe("devisgnp.png");
    expect(servedFileName("devis\u202egnp.exe", "application/pdf")).toBe("devisgnp.pdf");
    const invisible = [
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200e",
      "\u200f",
      "\u061c",
      "\u200b",
      "\ufeff",
      "\u0000",
      "\u0007",
      "\t",
      "\n",
      "\u007f",
      "\u0085",
      "\u2028",
      "\u2029",
    ];
    for (const c of invisible)
      expect(servedFileName(`ra${c}dio${c}.pdf`, "application/pdf"), JSON.stringify(c)).toBe("radio.pdf");
    // A lone surrogate cannot be percent-encoded: it goes too.
    expect(servedFileName("radio\ud800.pdf", "application/pdf")).toBe("radio.pdf");
  });

  it("keeps accents and other letters, composed", () => {
    expect(servedFileName("Réponse à l'orthodontiste – 2ᵉ.pdf", "application/pdf")).toBe(
      "Réponse à l'orthodontiste – 2ᵉ.pdf",
    );
    expect(servedFileName("cle\u0301.pdf", "application/pdf")).toBe("clé.pdf");
    expect(servedFileName("歯のレントゲン.png", "image/png")).toBe("歯のレントゲン.png");
  });

  it("never gives a folder, a hidden file, or trailing dots and spaces that Windows would drop", () => {
    expect(servedFileName("../../etc/passwd", "application/pdf")).toBe("passwd.pdf");
    expect(servedFileName("C:\\Users\\marie\\devis.pdf", "application/pdf")).toBe("devis.pdf");
    expect(servedFileName(".htaccess", "application/pdf")).toBe("htaccess.pdf");
    expect(servedFileName("devis.hta. . ", "application/pdf")).toBe("devis.pdf");
    expect(servedFileName("devis .pdf", "application/pdf")).toBe("devis.pdf");
    expect(servedFileName("a   b.pdf", "application/pdf")).toBe("a b.pdf");
  });

  it("falls back to a plain name when nothing is left", () => {
    expect(servedFileName("", "application/pdf")).toBe("fichier.pdf");
    expect(servedFileName("\u202e\u0000 ..", "image/png", "image")).toBe("image.png");
    expect(servedFileName(".pdf", "application/pdf")).toBe("pdf.pdf");
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
