import { describe, expect, it } from "vitest";
import { formatEuros, hasTooManyDecimals, parseEuros, readEuros } from "./money";

describe("hasTooManyDecimals", () => {
  it("tells an amount with a third decimal from one that is not an amount", () => {
    for (const text of ["1 250,505", "0,999", "1250.5055", "12,3456 €"])
      expect(hasTooManyDecimals(text)).toBe(true);
    for (const text of ["1 250,50", "1.250", "1.234.567", "abc,123", "-1,234", "", "12,5"])
      expect(hasTooManyDecimals(text)).toBe(false);
  });
});

describe("parseEuros", () => {
  it.each([
    ["1234", 123_400],
    ["1 234,50", 123_450],
    ["1\u202f234,50\u00a0€", 123_450],
    ["1234.5", 123_450],
    ["1.25", 125],
    ["1250.5", 125_050],
    ["0,01", 1],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseEuros(text)).toBe(cents);
  });

  it.each([
    ["1.250,50", 125_050],
    ["12.500,00", 1_250_000],
    ["1.250,5", 125_050],
    ["1.250.000", 125_000_000],
    ["1.250.000,50", 125_000_050],
    ["1.250,50 €", 125_050],
  ])("reads the dots that can only group thousands: %j as %i cents", (text, cents) => {
    expect(parseEuros(text)).toBe(cents);
  });

  it.each([
    "1.250", // one dot, no comma: a decimal point with three decimals, not 1 250 €
    "12.50.000",
    "1.2500,00",
    "1250.000,00",
    "1,250.50",
    "1.250,505",
    "1.250.00",
    ".250,00",
    "douze",
    "-5",
    "1,2,3",
    "",
  ])("refuses %j", (text) => {
    expect(parseEuros(text)).toBeNull();
  });

  it("refuses zero, which readEuros tells apart from what is not an amount", () => {
    for (const zero of ["0", "0,00", "0.0", "0 €"]) {
      expect(parseEuros(zero)).toBeNull();
      expect(readEuros(zero)).toBe(0);
    }
    expect(readEuros("douze")).toBeNull();
    expect(readEuros("1.250,50")).toBe(125_050);
  });

  it("reads back what formatEuros writes", () => {
    for (const cents of [1, 125_050, 1_250_000, 10_000_000])
      expect(parseEuros(formatEuros(cents))).toBe(cents);
  });
});
