import { describe, expect, it } from "vitest";
import { ERASED_NAME } from "../schemas/account";
import {
  drName,
  ERASED_DENTIST,
  fullNameOf,
  initialsOf,
  ofName,
  splitFullName,
  theName,
  theNameAtStart,
  toName,
} from "./names";

describe("fullNameOf", () => {
  it("joins trimmed names with one space", () => {
    expect(fullNameOf("  Marie ", " Curie  ")).toBe("Marie Curie");
  });
  it("drops an empty part", () => {
    expect(fullNameOf("Marie", "  ")).toBe("Marie");
    expect(fullNameOf("", "Curie")).toBe("Curie");
    expect(fullNameOf(" ", " ")).toBe("");
  });
});

describe("splitFullName", () => {
  it("takes the first word as the first name and the rest as the last name", () => {
    expect(splitFullName("Jean Pierre de La Fontaine")).toEqual({
      firstName: "Jean",
      lastName: "Pierre de La Fontaine",
    });
  });
  it("collapses repeated spaces and trims", () => {
    expect(splitFullName("  Marie    Curie ")).toEqual({ firstName: "Marie", lastName: "Curie" });
  });
  it("handles one word and empty input", () => {
    expect(splitFullName("Marie")).toEqual({ firstName: "Marie", lastName: "" });
    expect(splitFullName("   ")).toEqual({ firstName: "", lastName: "" });
  });
});

describe("initialsOf", () => {
  it("uses the first and last words", () => {
    expect(initialsOf("marie curie")).toBe("MC");
    expect(initialsOf("Jean Pierre de La Fontaine")).toBe("JF");
  });
  it("uses one letter for one word, and ? when there is no name", () => {
    expect(initialsOf("Marie")).toBe("M");
    expect(initialsOf("")).toBe("?");
    expect(initialsOf(null)).toBe("?");
    expect(initialsOf(undefined)).toBe("?");
  });
  it("keeps accented letters", () => {
    expect(initialsOf("Élodie Ønsker")).toBe("ÉØ");
  });
});

describe("ofName", () => {
  it("elides before a vowel, an accented one, a mute h and a y sounded as a vowel", () => {
    expect(ofName("Anne Lambert")).toBe("d'Anne Lambert");
    expect(ofName("Omar Rousseau")).toBe("d'Omar Rousseau");
    expect(ofName("Élodie Martin")).toBe("d'Élodie Martin");
    expect(ofName("Inès Blanc")).toBe("d'Inès Blanc");
    expect(ofName("Hugo Morel")).toBe("d'Hugo Morel");
    expect(ofName("Yves Petit")).toBe("d'Yves Petit");
    expect(ofName("un patient")).toBe("d'un patient");
    expect(ofName("anne@example.fr")).toBe("d'anne@example.fr");
  });
  it("keeps de before a consonant and a y sounded as one", () => {
    expect(ofName("Marie Dupont")).toBe("de Marie Dupont");
    expect(ofName("Yasmine Amrani")).toBe("de Yasmine Amrani");
    expect(ofName("Sourio")).toBe("de Sourio");
  });
  it("contracts before Dr", () => {
    expect(ofName("Dr Sophie Leroy")).toBe("du Dr Sophie Leroy");
    expect(ofName("Dr Anne Martin")).toBe("du Dr Anne Martin");
  });
  it("trims the name", () => {
    expect(ofName("  Anne ")).toBe("d'Anne");
  });
});

describe("toName", () => {
  it("contracts before Dr, and keeps à before any other name", () => {
    expect(toName("Dr Julien Martin")).toBe("au Dr Julien Martin");
    expect(toName("Anne Lambert")).toBe("à Anne Lambert");
    expect(toName("Marie Dupont")).toBe("à Marie Dupont");
  });
});

describe("theName", () => {
  it("puts le before Dr only", () => {
    expect(theName("Dr Sophie Leroy")).toBe("le Dr Sophie Leroy");
    expect(theName("Marie Dupont")).toBe("Marie Dupont");
  });

  it("starts a sentence with a capital: « Le Dr Sophie Leroy vous propose »", () => {
    expect(theNameAtStart(drName("Sophie Leroy"))).toBe("Le Dr Sophie Leroy");
    expect(theNameAtStart(drName(ERASED_NAME))).toBe("Le dentiste (compte supprimé)");
    expect(theNameAtStart("Marie Dupont")).toBe("Marie Dupont");
  });
});

describe("drName", () => {
  it("puts the title before a dentist's name, never before an erased account's pseudonym", () => {
    expect(drName("Sophie Leroy")).toBe("Dr Sophie Leroy");
    expect(drName(ERASED_NAME)).toBe(ERASED_DENTIST);
    expect(ERASED_DENTIST).toBe("Dentiste (compte supprimé)");
  });

  it("reads in a sentence with its article", () => {
    expect(theName(drName("Sophie Leroy"))).toBe("le Dr Sophie Leroy");
    expect(theName(drName(ERASED_NAME))).toBe("le dentiste (compte supprimé)");
    expect(ofName(drName(ERASED_NAME))).toBe("du dentiste (compte supprimé)");
    expect(toName(drName(ERASED_NAME))).toBe("au dentiste (compte supprimé)");
  });

  it("names an erased patient's pseudonym as an erased account, not as a person (« Demande d'un compte supprimé »)", () => {
    expect(ofName(ERASED_NAME)).toBe("d'un compte supprimé");
    expect(toName(ERASED_NAME)).toBe("à un compte supprimé");
  });
});
