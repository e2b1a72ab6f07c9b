import { describe, expect, it } from "vitest";
import { postgresConnection } from "./archive";

describe("pg_dump and pg_restore's connection", () => {
  it("leaves the password out of the command line: it goes in PGPASSWORD, decoded", () => {
    const { url, env } = postgresConnection(
      "postgres://sourio:p%40ss%3Aw0rd@db.internal:5432/sourio?sslmode=require",
    );
    expect(url).toBe("postgres://sourio@db.internal:5432/sourio?sslmode=require");
    expect(url).not.toContain("w0rd");
    expect(env.PGPASSWORD).toBe("p@ss:w0rd");
    // The rest of the environment is kept (PATH finds nothing else otherwise).
    expect(env.PATH).toBe(process.env.PATH);
  });

  it("adds nothing for a URL without a password", () => {
    const { url, env } = postgresConnection("postgres://postgres@127.0.0.1:55432/postgres");
    expect(url).toBe("postgres://postgres@127.0.0.1:55432/postgres");
    expect(env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });
});
