import { describe, expect, it } from "vitest";
import { countLabel, plural } from "./plural";

describe("plural (fr)", () => {
  it("uses the singular for 0 and 1, as French does", () => {
    expect(plural(0, "fichier ajouté", "fichiers ajoutés")).toBe("fichier ajouté");
    expect(plural(1, "fichier ajouté", "fichiers ajoutés")).toBe("fichier ajouté");
    expect(plural(1.5, "heure", "heures")).toBe("heure");
  });

  it("uses the plural from 2", () => {
    expect(plural(2, "fichier ajouté", "fichiers ajoutés")).toBe("fichiers ajoutés");
    expect(plural(10, "proposition", "propositions")).toBe("propositions");
  });

  it("writes the count with French digit grouping", () => {
    expect(countLabel(2, "fichier ajouté", "fichiers ajoutés")).toBe("2 fichiers ajoutés");
    expect(countLabel(1, "patient", "patients")).toBe("1 patient");
    expect(countLabel(1200, "patient", "patients")).toBe(`1${"\u202f"}200 patients`);
  });
});
