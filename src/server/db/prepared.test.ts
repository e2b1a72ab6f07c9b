import { describe, expect, it } from "vitest";
import { preparedNameOf } from "./prepared";

describe("preparedNameOf", () => {
  it("names a select by its text, the same text the same name", () => {
    const name = preparedNameOf('select "id" from "requests" where "patient_id" = $1');
    expect(name).toMatch(/^k_[A-Za-z0-9_-]{20}$/);
    expect(preparedNameOf('select "id" from "requests" where "patient_id" = $1')).toBe(name);
    expect(preparedNameOf('select "id" from "offers" where "request_id" = $1')).not.toBe(name);
  });

  it("leaves writes and name searches unprepared", () => {
    expect(preparedNameOf('insert into "messages" ("body") values ($1)')).toBeNull();
    expect(preparedNameOf('update "profiles" set "city" = $1')).toBeNull();
    expect(preparedNameOf('with x as (delete from "sessions" returning 1) select * from x')).toBeNull();
    expect(preparedNameOf('select "id" from "profiles" where "full_name" ilike $1')).toBeNull();
  });
});
