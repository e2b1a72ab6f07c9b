import { describe, expect, it } from "vitest";
import { contentDisposition } from "./files";

describe("contentDisposition", () => {
  it("serves the served name, with an ASCII fallback and the UTF-8 name", () => {
    expect(contentDisposition("attachment", "devis.hta", "application/pdf")).toBe(
      `attachment; filename="devis.pdf"; filename*=UTF-8''devis.pdf`,
    );
    expect(contentDisposition("inline", 'Réponse "n°2".png', "image/png")).toBe(
      `inline; filename="R_ponse _n_2_.png"; filename*=UTF-8''R%C3%A9ponse%20%22n%C2%B02%22.png`,
    );
    expect(contentDisposition("attachment", "devis\u202egnp.exe", "image/png")).toBe(
      `attachment; filename="devisgnp.png"; filename*=UTF-8''devisgnp.png`,
    );
  });

  it("percent-encodes what RFC 5987 does not allow in the UTF-8 name", () => {
    expect(contentDisposition("attachment", "l'implant (1)*.pdf", "application/pdf")).toBe(
      `attachment; filename="l'implant (1)*.pdf"; filename*=UTF-8''l%27implant%20%281%29%2A.pdf`,
    );
  });
});
