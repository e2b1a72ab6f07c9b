import { describe, expect, it } from "vitest";
import { statementNamer } from "./prepared";

// A namer of its own in each test: the process's one (`preparedNameOf`) is shared by every test file
// of a worker (isolate: false), and is full once they have sent PREPARED_LIMIT distinct texts.
describe("statementNamer", () => {
  it("names a select by its text, the same text the same name", () => {
    const nameOf = statementNamer(500);
    const name = nameOf('select "id" from "requests" where "patient_id" = $1');
    expect(name).toMatch(/^k_[A-Za-z0-9_-]{20}$/);
    expect(nameOf('select "id" from "requests" where "patient_id" = $1')).toBe(name);
    expect(nameOf('select "id" from "offers" where "request_id" = $1')).not.toBe(name);
  });

  it("leaves writes and name searches unprepared", () => {
    const nameOf = statementNamer(500);
    expect(nameOf('insert into "messages" ("body") values ($1)')).toBeNull();
    expect(nameOf('update "profiles" set "city" = $1')).toBeNull();
    expect(nameOf('with x as (delete from "sessions" returning 1) select * from x')).toBeNull();
    expect(nameOf('select "id" from "profiles" where "full_name" ilike $1')).toBeNull();
  });

  it("names no new text past its limit, and keeps the names it gave", () => {
    const nameOf = statementNamer(2);
    const first = nameOf('select 1 from "requests"');
    expect(nameOf('select 1 from "offers"')).not.toBeNull();
    expect(nameOf('select 1 from "messages"')).toBeNull();
    expect(nameOf('select 1 from "requests"')).toBe(first);
  });
});
