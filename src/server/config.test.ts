import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "sourio-config-"));

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("no error");
}

const KEY = randomBytes(32).toString("base64");

describe("loadConfig", () => {
  it("has working defaults for the embedded mode and keeps a generated secret", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.demoData).toBe(true);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8")).toBe(config.authSecret);
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(config.authSecret);
    // The master key of the files, generated once too (encryption at rest).
    expect(config.dataKeys).toHaveLength(1);
    expect(loadConfig({ DATA_DIR: dir }).dataKeys[0]?.equals(config.dataKeys[0] as Buffer)).toBe(true);
  });

  it("takes DATA_KEY, then the older keys of DATA_KEY_PREVIOUS, without writing a key file", () => {
    const dir = dataDir();
    const previous = randomBytes(32).toString("base64url");
    const config = loadConfig({ DATA_DIR: dir, DATA_KEY: KEY, DATA_KEY_PREVIOUS: previous });
    expect(config.dataKeys.map((k) => k.toString("base64"))).toEqual([
      KEY,
      Buffer.from(previous, "base64url").toString("base64"),
    ]);
    expect(existsSync(path.join(dir, "data-key"))).toBe(false);
  });

  it.each([
    [{ DATABASE_URL: "nonsense" }, "DATABASE_URL"],
    [{ PORT: "abc" }, "PORT"],
    [{ NODE_ENV: "production" }, "AUTH_SECRET"],
    [{ AUTH_SECRET: "short" }, "AUTH_SECRET"],
    [{ ADMIN_EMAIL: "root@example.com" }, "ADMIN_PASSWORD"],
    [{ ADMIN_EMAIL: "not-an-email", ADMIN_PASSWORD: "secret123" }, "ADMIN_EMAIL"],
    [{ SMTP_URL: "http://mail" }, "SMTP_URL"],
    [{ DEMO_DATA: "maybe" }, "DEMO_DATA"],
    [{ PUBLIC_URL: "pas une url" }, "PUBLIC_URL"],
    [{ NODE_ENV: "production", AUTH_SECRET: "x".repeat(32) }, "DATA_KEY"],
    [{ DATA_KEY: "trop-courte" }, "DATA_KEY"],
    [{ DATA_KEY: KEY, DATA_KEY_PREVIOUS: `${KEY},nope` }, "DATA_KEY_PREVIOUS"],
    [
      { NODE_ENV: "production", AUTH_SECRET: "x".repeat(32), DATA_KEY: KEY, TEST_CLOCK: "true" },
      "TEST_CLOCK",
    ],
  ])("stops on %o with one line naming %s", (env, variable) => {
    const error = errorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain("\n");
  });

  it("turns demo data off with DEMO_DATA=false and on PostgreSQL by default", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DEMO_DATA: "false" }).demoData).toBe(false);
    expect(
      loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: "postgres://u:p@localhost:5432/db" }).demoData,
    ).toBe(false);
  });

  it("reads devis with one OCR worker by default, two when asked, and refuses more", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).readingConcurrency).toBe(1);
    expect(loadConfig({ DATA_DIR: dataDir(), READING_CONCURRENCY: "2" }).readingConcurrency).toBe(2);
    for (const value of ["3", "0", "deux"]) {
      const error = errorOf({ READING_CONCURRENCY: value });
      expect(error.variable).toBe("READING_CONCURRENCY");
      expect(error.message).toBe("Configuration invalide : READING_CONCURRENCY doit valoir 1 ou 2");
    }
  });

  it("uses secure cookies behind https", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: "https://sourio.fr" }).secureCookies).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir() }).secureCookies).toBe(false);
  });
});
