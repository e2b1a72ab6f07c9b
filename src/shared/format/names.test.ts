import { describe, expect, it } from "vitest";
import { fullNameOf, initialsOf, splitFullName } from "./names";

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
