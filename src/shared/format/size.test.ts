import { describe, expect, it } from "vitest";
import { formatFileSize } from "./size";

describe("formatFileSize", () => {
  it("gives megabytes with a French decimal comma", () => {
    expect(formatFileSize(1.4 * 1024 * 1024)).toBe("1,4 Mo");
    expect(formatFileSize(10 * 1024 * 1024)).toBe("10,0 Mo");
  });
  it("never shows a small file as 0,0 Mo", () => {
    expect(formatFileSize(0)).toBe("< 0,1 Mo");
    expect(formatFileSize(812)).toBe("< 0,1 Mo");
    expect(formatFileSize(0.06 * 1024 * 1024)).toBe("0,1 Mo");
  });
});
