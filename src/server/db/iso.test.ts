import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "../access/actor";
import { conversationsRepo } from "../modules/conversations/conversations.repo";
import { summary } from "../modules/requests/summary";
import { type DatabaseHandle, openDatabase } from "./index";
import { isoOf } from "./iso";

/*
 * Dates read from a JSON aggregate (PostgreSQL's ISO text) written as the API writes them (issue 38,
 * ADR 060): the same characters as `new Date(text).toISOString()`, without a Date for text in UTC.
 */

const viaDate = (value: Date | string) => new Date(value).toISOString();

describe("isoOf", () => {
  it("writes PostgreSQL's UTC text as toISOString() does: cut to the millisecond, never rounded", () => {
    expect(isoOf("2031-03-30T00:59:59.999999+00:00")).toBe("2031-03-30T00:59:59.999Z");
    expect(isoOf("2026-11-29T10:15:30.580895+00:00")).toBe("2026-11-29T10:15:30.580Z");
    expect(isoOf("2026-11-29T10:15:30.5+00:00")).toBe("2026-11-29T10:15:30.500Z");
    expect(isoOf("2026-11-29T10:15:30.05+00:00")).toBe("2026-11-29T10:15:30.050Z");
    expect(isoOf("2026-11-29T10:15:30.000001+00:00")).toBe("2026-11-29T10:15:30.000Z");
    expect(isoOf("2026-11-29T10:15:30+00:00")).toBe("2026-11-29T10:15:30.000Z");
  });

  it("reads any other form through Date, as before: another offset, a Date, Z", () => {
    expect(isoOf("2026-03-29T03:30:00.123456+02:00")).toBe("2026-03-29T01:30:00.123Z");
    expect(isoOf("2026-11-29T10:15:30.580895-03:30")).toBe("2026-11-29T13:45:30.580Z");
    expect(isoOf("2026-11-29T10:15:30.58Z")).toBe("2026-11-29T10:15:30.580Z");
    const date = new Date(Date.UTC(2026, 10, 29, 10, 15, 30, 7));
    expect(isoOf(date)).toBe("2026-11-29T10:15:30.007Z");
    expect(() => isoOf("pas une date")).toThrow(RangeError);
  });

  it("equals new Date(text).toISOString() over 200 000 instants of 0 to 6 fraction digits, years 0001 to 9999", () => {
    // A fixed sequence (xorshift), so that a failure is reproducible.
    let seed = 0x2f6b_1d3a;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    const first = Date.parse("0001-01-01T00:00:00.000Z");
    const span = Date.parse("9999-12-31T23:59:59.999Z") - first;
    const differing: string[] = [];
    for (let i = 0; i < 200_000; i += 1) {
      const at = new Date(first + Math.floor(next() * span));
      const micros = String(at.getUTCMilliseconds() * 1000 + Math.floor(next() * 1000)).padStart(6, "0");
      const digits = Math.floor(next() * 7);
      const text = `${at.toISOString().slice(0, 19)}${digits ? `.${micros.slice(0, digits)}` : ""}+00:00`;
      if (isoOf(text) !== viaDate(text)) differing.push(text);
    }
    expect(differing).toEqual([]);
  });

  describe("on the database's own text", () => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = openDatabase({});
    });
    afterAll(async () => {
      await database.close();
    });

    it("gives what the driver's Date gives for the same instants inside a JSON aggregate", async () => {
      const { rows } = await sql<{ at: Date; json: { at: string }[] }>`
        select t.at, (select json_agg(json_build_object('at', t.at))) as json
        from (values ('2031-03-30 00:59:59.999999+00'::timestamptz), ('2026-10-25 01:30:00.5+02'),
                     ('2026-11-29 10:15:30+00'), ('2026-11-29 10:15:30.000001+00')) as t(at)
        group by t.at order by t.at`.execute(database.db);
      for (const row of rows) {
        const text = row.json[0]?.at ?? "";
        expect(text).toMatch(/\+00:00$/);
        expect(isoOf(text)).toBe(row.at.toISOString());
      }
    });
  });
});

describe("the lists' rows read from JSON", () => {
  let constructed = 0;
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  /** Counts the Dates made from here on. */
  const countDates = () => {
    const RealDate = Date;
    constructed = 0;
    vi.stubGlobal(
      "Date",
      class extends RealDate {
        constructor(...args: ConstructorParameters<typeof Date>) {
          super(...args);
          constructed += 1;
        }
      },
    );
  };

  it("the patient's list and the conversations make no Date per row for dates in UTC", () => {
    const now = new Date("2026-11-29T12:00:00.000Z");
    const request = {
      id: "0b5a4f0e-0000-4000-8000-000000000001",
      treatment_type: "crown",
      status: "new",
      urgency: "medium",
      created_at: "2026-11-29T10:15:30.580895+00:00",
      document_count: 0,
      open_offers: 0,
      appointment_status: null,
      appointment_starts_at: null,
    };
    const me = "0b5a4f0e-0000-4000-8000-00000000000a";
    const actor = { userId: me, profile: { role: "dentist" } } as Actor;
    const conversation = {
      id: "0b5a4f0e-0000-4000-8000-000000000002",
      request_id: request.id,
      last_message_at: "2026-11-29T10:15:30.580895+00:00",
      treatment_type: "crown",
      request_created_at: "2026-11-28T09:00:00.123456+00:00",
      other_id: "0b5a4f0e-0000-4000-8000-00000000000b",
      other_name: "Patient",
      other_avatar_url: null,
      last_body: "Bonjour",
      last_created_at: "2026-11-29T10:15:30.580895+00:00",
      last_sender_id: me,
      last_attachment_count: 0,
      unread_count: 0,
      request_visible: true,
      other_status: "active" as const,
    };
    const { pageOf } = conversationsRepo({} as never, actor);
    countDates();
    const shown = summary(request, now);
    const page = pageOf([conversation, conversation], 2);
    expect(constructed).toBe(0);
    expect(shown.created_at).toBe("2026-11-29T10:15:30.580Z");
    expect(page.items[1]?.last_message_at).toBe("2026-11-29T10:15:30.580Z");
    expect(page.items[1]?.last_message?.created_at).toBe("2026-11-29T10:15:30.580Z");
  });
});
