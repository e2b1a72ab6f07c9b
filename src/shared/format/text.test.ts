import { describe, expect, it } from "vitest";
import { lowerFirst, upperFirst } from "./text";

describe("upperFirst / lowerFirst", () => {
  it("change the first letter only, accented ones included", () => {
    expect(upperFirst("rendez-vous en novembre 2026")).toBe("Rendez-vous en novembre 2026");
    expect(upperFirst("écartées")).toBe("Écartées");
    expect(lowerFirst("Choisissez la dent. Puis")).toBe("choisissez la dent. Puis");
    expect(lowerFirst("Écrivez")).toBe("écrivez");
    expect(upperFirst("")).toBe("");
  });
});
