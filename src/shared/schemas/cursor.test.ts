import { describe, expect, it } from "vitest";
import { cursorInstant, decodeCursor, encodeCursor } from "./cursor";

describe("keyset cursors (cursor.ts)", () => {
  const id = "4b6f2a7e-1c1d-4e55-9f0a-2b7c3d4e5f60";

  it("decodes what it encodes, to the millisecond or the microsecond", () => {
    for (const at of ["2026-11-21T09:00:00.123Z", "2026-11-21T09:00:00.123456Z"])
      expect(decodeCursor(encodeCursor({ at, id }))).toEqual({ at, id });
  });

  it("keeps the microseconds PostgreSQL writes in JSON, whatever the offset and trimmed zeros", () => {
    expect(cursorInstant(new Date("2026-11-21T09:00:00.123Z"))).toBe("2026-11-21T09:00:00.123Z");
    expect(cursorInstant("2026-11-21T09:00:00.123456+00:00")).toBe("2026-11-21T09:00:00.123456Z");
    expect(cursorInstant("2026-11-21T10:00:00.1234+01:00")).toBe("2026-11-21T09:00:00.123400Z");
    expect(cursorInstant("2026-11-21T09:00:00.5+00:00")).toBe("2026-11-21T09:00:00.500Z");
    expect(cursorInstant("2026-11-21T09:00:00+00:00")).toBe("2026-11-21T09:00:00.000Z");
  });

  it("refuses what encodeCursor cannot have written", () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const text of [
      "",
      "€€€",
      "a.b",
      b64(["2026-11-21T09:00:00.000Z", "x"]),
      b64(["2026-11-21T09:00:00.000Z", `${id}'`]),
      b64(["+275760-09-13T00:00:00.000Z", id]),
      b64(["1969-12-31T23:59:59.999Z", id]),
      b64(["2026-02-30T00:00:00.000Z", id]),
      b64(["2026-11-21T09:00:00Z", id]),
      b64(["2026-11-21T09:00:00.1234Z", id]),
      b64(["2026-11-21T09:00:00.1234567Z", id]),
      b64(["2026-02-30T00:00:00.000123Z", id]),
      b64([id]),
      b64("texte"),
    ])
      expect(decodeCursor(text), text).toBeNull();
  });
});
