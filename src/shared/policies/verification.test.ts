import { describe, expect, it } from "vitest";
import {
  isValidPostcode,
  isValidRpps,
  normalizeRpps,
  rppsWithKey,
  verificationRequestProblem,
  verificationStateOf,
} from "./verification";

describe("isValidRpps", () => {
  it("accepts 11 digits with a valid Luhn key", () => {
    expect(isValidRpps("10000000009")).toBe(true);
    expect(isValidRpps("10003456786")).toBe(true);
    expect(isValidRpps(rppsWithKey("1234567890"))).toBe(true);
  });

  it("refuses a wrong key, each single-digit change, and the wrong length or characters", () => {
    expect(isValidRpps("10000000001")).toBe(false);
    const valid = "10003456786";
    for (let i = 0; i < valid.length; i += 1) {
      const digit = (Number(valid[i]) + 1) % 10;
      expect(isValidRpps(`${valid.slice(0, i)}${digit}${valid.slice(i + 1)}`)).toBe(false);
    }
    expect(isValidRpps("1000000008")).toBe(false);
    expect(isValidRpps("100000000008")).toBe(false);
    expect(isValidRpps("1000000000A")).toBe(false);
    expect(isValidRpps("")).toBe(false);
  });

  it("computes the key of ten digits and strips spaces", () => {
    expect(rppsWithKey("1000000000")).toBe("10000000009");
    expect(normalizeRpps(" 100 0345 6786 ")).toBe("10003456786");
  });
});

describe("isValidPostcode", () => {
  it("wants five digits", () => {
    expect(isValidPostcode("75011")).toBe(true);
    expect(isValidPostcode("2A004")).toBe(false);
    expect(isValidPostcode("7501")).toBe(false);
    expect(isValidPostcode("750111")).toBe(false);
  });
});

const dentist = {
  role: "dentist",
  is_verified: false,
  verification_requested_at: null,
  rpps: "10003456786",
  practice_address: "12 rue de la Paix",
  practice_postcode: "75002",
};

describe("verification state and request", () => {
  it("derives the state: verified first, then requested, refused, withdrawn, else none", () => {
    expect(verificationStateOf(dentist)).toBe("none");
    const decided = { ...dentist, verification_decided_at: "2026-11-20T10:00:00Z" };
    // Decided without a reason while not verified: the team withdrew his verification.
    expect(verificationStateOf(decided)).toBe("withdrawn");
    expect(verificationStateOf({ ...decided, verification_refusal_reason: "RPPS inconnu" })).toBe("refused");
    expect(verificationStateOf({ ...decided, verification_requested_at: new Date() })).toBe("requested");
    expect(verificationStateOf({ ...decided, is_verified: true })).toBe("verified");
    expect(verificationStateOf({ ...dentist, verification_requested_at: "2026-01-02T00:00:00Z" })).toBe(
      "requested",
    );
    expect(
      verificationStateOf({ ...dentist, is_verified: true, verification_requested_at: new Date() }),
    ).toBe("verified");
  });

  it("allows a complete unverified dentist, lists what is missing otherwise", () => {
    expect(verificationRequestProblem(dentist)).toBeNull();
    expect(
      verificationRequestProblem({ ...dentist, rpps: null, practice_address: " ", practice_postcode: null }),
    ).toEqual({ kind: "missing", fields: ["rpps", "practice_address", "practice_postcode"] });
    expect(verificationRequestProblem({ ...dentist, rpps: "10000000001" })).toEqual({
      kind: "missing",
      fields: ["rpps"],
    });
  });

  it("refuses when verified, already requested, or not a dentist", () => {
    expect(verificationRequestProblem({ ...dentist, is_verified: true })).toEqual({ kind: "verified" });
    expect(verificationRequestProblem({ ...dentist, verification_requested_at: new Date() })).toEqual({
      kind: "requested",
    });
    expect(verificationRequestProblem({ ...dentist, role: "patient" })).toEqual({ kind: "not-dentist" });
  });
});
