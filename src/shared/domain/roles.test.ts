import { describe, expect, it } from "vitest";
import { DEFAULT_ROLE, normalizeRole, ROLE_LABELS } from "./roles";

describe("normalizeRole", () => {
  it("keeps patient and dentist", () => {
    expect(normalizeRole("patient")).toBe("patient");
    expect(normalizeRole("dentist")).toBe("dentist");
  });

  it("turns anything else into patient, including admin", () => {
    for (const value of ["admin", "Dentist", " dentist", "", null, undefined, 42, { role: "dentist" }]) {
      expect(normalizeRole(value)).toBe("patient");
    }
    expect(DEFAULT_ROLE).toBe("patient");
  });

  it("has the French labels", () => {
    expect(ROLE_LABELS).toEqual({ patient: "Patient", dentist: "Dentiste" });
  });
});
