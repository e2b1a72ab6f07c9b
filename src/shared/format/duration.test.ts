import { describe, expect, it } from "vitest";
import { formatMinutes } from "./duration";

describe("formatMinutes", () => {
  it("écrit les minutes, les heures et les jours", () => {
    expect(formatMinutes(0)).toBe("0 min");
    expect(formatMinutes(0.4)).toBe("< 1 min");
    expect(formatMinutes(45)).toBe("45 min");
    expect(formatMinutes(59.6)).toBe("1 h");
    expect(formatMinutes(125)).toBe("2 h 5 min");
    expect(formatMinutes(24 * 60)).toBe("1 j");
    expect(formatMinutes(3 * 24 * 60 + 4 * 60 + 10)).toBe("3 j 4 h");
    expect(formatMinutes(2 * 24 * 60 + 23 * 60 + 50)).toBe("3 j");
  });
});
