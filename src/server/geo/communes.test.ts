import { describe, expect, it } from "vitest";
import { formatDistance, haversineKm, placeLabel } from "../../shared/domain/geo";
import { cityOf, distanceKm, isKnownPostalCode, lookupPostalCode } from "./communes";

describe("communes dataset (decision 019)", () => {
  it("knows French postal codes and names their main commune", () => {
    expect(lookupPostalCode("75001")?.city).toBe("Paris");
    expect(cityOf("69001")).toBe("Lyon");
    expect(cityOf("59000")).toBe("Lille");
    expect(isKnownPostalCode("13001")).toBe(true);
  });

  it("refuses what is not a French postal code", () => {
    expect(isKnownPostalCode("00000")).toBe(false);
    expect(isKnownPostalCode("99999")).toBe(false);
    expect(lookupPostalCode("7500")).toBeNull();
    expect(lookupPostalCode("abcde")).toBeNull();
    expect(cityOf(null)).toBeNull();
  });

  it("measures Paris 75001 ↔ Lyon 69001 at about 390 km as the crow flies", () => {
    const km = distanceKm("75001", "69001");
    expect(km).toBeGreaterThanOrEqual(385);
    expect(km).toBeLessThanOrEqual(395);
    expect(distanceKm("69001", "75001")).toBe(km);
    // Lille ↔ Paris ≈ 204 km.
    expect(distanceKm("59000", "75008")).toBeGreaterThan(195);
    expect(distanceKm("59000", "75008")).toBeLessThan(215);
  });

  it("gives 0 for the same commune and no distance for an unknown or missing code", () => {
    expect(distanceKm("75001", "75015")).toBe(0);
    expect(distanceKm("75001", "99999")).toBeNull();
    expect(distanceKm(null, "75001")).toBeNull();
    expect(distanceKm("75001", undefined)).toBeNull();
  });
});

describe("haversine and formatting", () => {
  it("is zero for one point and symmetric", () => {
    const a = { lat: 48.85, lon: 2.35 };
    const b = { lat: 45.75, lon: 4.85 };
    expect(haversineKm(a, a)).toBe(0);
    expect(haversineKm(a, b)).toBeCloseTo(haversineKm(b, a), 9);
    // One degree of latitude ≈ 111.2 km.
    expect(haversineKm({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111.2, 0);
  });

  it("formats kilometres in French", () => {
    expect(formatDistance(0)).toBe("<\u00a01\u00a0km");
    expect(formatDistance(12)).toBe("12\u00a0km");
    expect(formatDistance(1234)).toBe("1\u202f234\u00a0km");
    expect(formatDistance(null)).toBeNull();
    expect(placeLabel("Lyon", 12)).toBe("Lyon · 12\u00a0km");
    expect(placeLabel("Lyon", null)).toBe("Lyon");
    expect(placeLabel(null, 0)).toBe("<\u00a01\u00a0km");
    expect(placeLabel(null, undefined)).toBeNull();
  });
});
