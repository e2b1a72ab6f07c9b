import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";
import { STALE_RUNNING_MS } from "./modules/reading/reading.repo";
import { SANDBOX_START_MS, stallLimitMs } from "./modules/reading/sandbox";
import { tempDirs } from "./testing/temp-dirs";

/** Each test's data directory (its generated secret and key), removed after the file. */
const tempDir = tempDirs();
const dataDir = () => tempDir("sourio-config-");

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
/** What every instance on one database or one bucket is given (they must share them). */
const SHARED = { AUTH_SECRET: "s".repeat(32), DATA_KEY: KEY };

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

  it("requires AUTH_SECRET and DATA_KEY set explicitly with PostgreSQL or S3, generating neither", () => {
    const postgres = { DATABASE_URL: "postgres://u:p@localhost:5432/db" };
    const bucket = {
      S3_ENDPOINT: "https://s3.gra.io.cloud.ovh.net",
      S3_BUCKET: "sourio-documents",
      S3_REGION: "gra",
      S3_ACCESS_KEY_ID: "AKIAEXEMPLE",
      S3_SECRET_ACCESS_KEY: "secret-exemple",
    };
    for (const [shared, variable] of [
      [postgres, "DATABASE_URL"],
      [bucket, "S3_ENDPOINT"],
    ] as const) {
      const dir = dataDir();
      const noSecret = errorOf({ DATA_DIR: dir, ...shared, DATA_KEY: KEY });
      expect(noSecret.message).toBe(
        `Configuration invalide : AUTH_SECRET est requis avec ${variable} : toutes les instances doivent partager le même (32 caractères au moins)`,
      );
      const noKey = errorOf({ DATA_DIR: dir, ...shared, AUTH_SECRET: "s".repeat(32) });
      expect(noKey.message).toBe(
        `Configuration invalide : DATA_KEY est requis avec ${variable} : toutes les instances doivent partager la même (openssl rand -base64 32)`,
      );
      expect(existsSync(path.join(dir, "auth-secret"))).toBe(false);
      expect(existsSync(path.join(dir, "data-key"))).toBe(false);
      expect(loadConfig({ DATA_DIR: dir, ...shared, ...SHARED }).authSecret).toBe(SHARED.AUTH_SECRET);
    }
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
    // Payments (issue 35): all five Stripe settings or none (production: see the seller's tests below).
    [{ STRIPE_SECRET_KEY: "sk_test_abc" }, "STRIPE_WEBHOOK_SECRET"],
    [{ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" }, "STRIPE_PRICE_MONTHLY"],
    [{ STRIPE_SECRET_KEY: "pk_test_abc" }, "STRIPE_SECRET_KEY"],
    [{ STRIPE_PRICE_YEARLY: "yearly" }, "STRIPE_PRICE_YEARLY"],
    [{ STRIPE_TAX_RATE: "20" }, "STRIPE_TAX_RATE"],
    [
      {
        STRIPE_SECRET_KEY: "sk_test_abc",
        STRIPE_WEBHOOK_SECRET: "whsec_abc",
        STRIPE_PRICE_MONTHLY: "price_m",
        STRIPE_PRICE_YEARLY: "price_y",
      },
      "STRIPE_TAX_RATE",
    ],
    [{ PRICE_MONTHLY_HT: "quatre-vingt" }, "PRICE_MONTHLY_HT"],
  ])("stops on %o with one line naming %s", (env, variable) => {
    const error = errorOf(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain("\n");
  });

  it("payments: the stand-in without Stripe settings, Stripe's with all five; prices HT in euros", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).stripe).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir() }).planPrices).toEqual({ monthly: 8900, yearly: 89000 });
    const config = loadConfig({
      DATA_DIR: dataDir(),
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      STRIPE_PRICE_MONTHLY: "price_m",
      STRIPE_PRICE_YEARLY: "price_y",
      STRIPE_TAX_RATE: "txr_fr20",
      PRICE_MONTHLY_HT: "99,50",
      PRICE_YEARLY_HT: "990",
    });
    expect(config.stripe).toEqual({
      secretKey: "sk_live_abc",
      webhookSecret: "whsec_abc",
      prices: { monthly: "price_m", yearly: "price_y" },
      taxRate: "txr_fr20",
    });
    expect(config.planPrices).toEqual({ monthly: 9950, yearly: 99000 });
  });

  it("turns demo data off with DEMO_DATA=false and on PostgreSQL by default", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), DEMO_DATA: "false" }).demoData).toBe(false);
    expect(
      loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: "postgres://u:p@localhost:5432/db", ...SHARED })
        .demoData,
    ).toBe(false);
  });

  it("keeps the response cache by default, switches it off with RESPONSE_CACHE=off, refuses anything else", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).responseCache).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), RESPONSE_CACHE: "on" }).responseCache).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), RESPONSE_CACHE: "off" }).responseCache).toBe(false);
    const error = errorOf({ RESPONSE_CACHE: "non" });
    expect(error.variable).toBe("RESPONSE_CACHE");
    expect(error.message).toBe("Configuration invalide : RESPONSE_CACHE doit valoir on ou off");
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

  it("bounds the reading's own process: 90 s, 1 024 MB and nice 19 by default, or as set; refuses nonsense", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).readingLimits).toEqual({
      timeMs: 90_000,
      previewTimeMs: 15_000,
      memoryMb: 1024,
      ocrConcurrency: 1,
      nice: 19,
    });
    expect(loadConfig({ DATA_DIR: dataDir(), READING_NICE: "0" }).readingLimits.nice).toBe(0);
    for (const value of ["-5", "20", "bas"])
      expect(errorOf({ READING_NICE: value }).message).toBe(
        "Configuration invalide : READING_NICE doit être un entier de 0 à 19",
      );
    expect(
      loadConfig({ DATA_DIR: dataDir(), READING_TIME_LIMIT_S: "8", READING_MEMORY_MB: "512" }).readingLimits,
    ).toMatchObject({ timeMs: 8000, previewTimeMs: 8000, memoryMb: 512 });
    for (const value of ["0", "600", "vite"])
      expect(errorOf({ READING_TIME_LIMIT_S: value }).message).toBe(
        "Configuration invalide : READING_TIME_LIMIT_S doit être un nombre de secondes (1 à 110)",
      );
    // The limits are CPU time; a stalled child is ended on the wall clock after 4 × as long, a minute
    // more at least: a preview 75 s, a reading 6 min. The longest reading allowed (110 s), with its
    // process's start, ends before a starting instance takes its row for a stopped instance's.
    expect(stallLimitMs(15_000)).toBe(75_000);
    expect(stallLimitMs(90_000)).toBe(360_000);
    const longest = loadConfig({ DATA_DIR: dataDir(), READING_TIME_LIMIT_S: "110" }).readingLimits.timeMs;
    expect(SANDBOX_START_MS + stallLimitMs(longest)).toBeLessThan(STALE_RUNNING_MS);
    expect(errorOf({ READING_MEMORY_MB: "100" }).message).toBe(
      "Configuration invalide : READING_MEMORY_MB doit être un nombre de Mo (256 à 16384)",
    );
  });

  it("trusts no proxy by default, every proxy with true, or only the proxies named", () => {
    const trust = (value?: string) =>
      loadConfig({ DATA_DIR: dataDir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;
    expect(trust()).toBe(false);
    expect(trust("false")).toBe(false);
    expect(trust("true")).toBe(true);
    expect(trust("10.0.0.5, 10.0.1.0/24")).toBe("10.0.0.5, 10.0.1.0/24");
    expect(trust("loopback")).toBe("loopback");
    for (const value of ["partout", "10.0.0.5; rm"]) {
      const error = errorOf({ TRUST_PROXY: value });
      expect(error.variable).toBe("TRUST_PROXY");
      expect(error.message).toContain("des adresses de proxys séparées par des virgules");
    }
  });

  it("uses secure cookies behind https", () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: "https://sourio.fr" }).secureCookies).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir() }).secureCookies).toBe(false);
  });

  describe("the seller on invoices (INVOICE_SELLER_*)", () => {
    const SELLER = {
      INVOICE_SELLER_NAME: "Sourio",
      INVOICE_SELLER_ADDRESS: "10 rue de la Paix",
      INVOICE_SELLER_POSTAL_CODE: "75002",
      INVOICE_SELLER_CITY: "Paris",
      INVOICE_SELLER_SIREN: "552 100 554",
      INVOICE_SELLER_LEGAL_FORM: "SAS",
      INVOICE_SELLER_CAPITAL: "10 000 €",
      INVOICE_SELLER_RCS: "RCS Paris 552 100 554",
      INVOICE_SELLER_VAT_NUMBER: "FR 96 552100554",
    };
    const PRODUCTION = { NODE_ENV: "production", AUTH_SECRET: "x".repeat(32), DATA_KEY: KEY };
    const STRIPE = {
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      STRIPE_PRICE_MONTHLY: "price_m",
      STRIPE_PRICE_YEARLY: "price_y",
      STRIPE_TAX_RATE: "txr_fr20",
    };

    it("uses a development identity that says so when none is set, outside production", () => {
      const seller = loadConfig({ DATA_DIR: dataDir() }).invoiceSeller;
      expect(seller.development).toBe(true);
      expect(seller.name).toContain("identité de développement");
    });

    it("takes every variable, the SIREN and VAT number without their spaces", () => {
      expect(loadConfig({ DATA_DIR: dataDir(), ...PRODUCTION, ...SELLER, ...STRIPE }).invoiceSeller).toEqual({
        name: "Sourio",
        address: "10 rue de la Paix",
        postalCode: "75002",
        city: "Paris",
        siren: "552100554",
        legalForm: "SAS",
        capital: "10 000 €",
        rcs: "RCS Paris 552 100 554",
        vatNumber: "FR96552100554",
        development: false,
      });
    });

    it.each([
      [PRODUCTION, "INVOICE_SELLER_NAME", "est requis en production"],
      // Production refuses to start without the payment provider's settings (issue 35, ADR 044).
      [{ ...PRODUCTION, ...SELLER }, "STRIPE_SECRET_KEY", "est requis en production"],
      [{ INVOICE_SELLER_NAME: "Sourio" }, "INVOICE_SELLER_ADDRESS", "est requis avec INVOICE_SELLER_NAME"],
      [{ ...SELLER, INVOICE_SELLER_SIREN: "552100555" }, "INVOICE_SELLER_SIREN", "clé de Luhn"],
      [{ ...SELLER, INVOICE_SELLER_VAT_NUMBER: "FR97552100554" }, "INVOICE_SELLER_VAT_NUMBER", "TVA"],
      [
        { ...SELLER, INVOICE_SELLER_VAT_NUMBER: "FR11123456782" },
        "INVOICE_SELLER_VAT_NUMBER",
        "doit contenir le SIREN",
      ],
      [{ ...SELLER, INVOICE_SELLER_POSTAL_CODE: "7500" }, "INVOICE_SELLER_POSTAL_CODE", "code postal"],
    ])("stops on %o naming %s, in French", (env, variable, text) => {
      const error = errorOf(env);
      expect(error.variable).toBe(variable);
      expect(error.message).toContain(text);
    });
  });

  describe("S3 storage", () => {
    const S3 = {
      S3_ENDPOINT: "https://s3.gra.io.cloud.ovh.net/",
      S3_BUCKET: "sourio-documents",
      S3_REGION: "gra",
      S3_ACCESS_KEY_ID: "AKIAEXEMPLE",
      S3_SECRET_ACCESS_KEY: "secret-exemple",
    };

    it("uses the local disk when no S3 variable is set", () => {
      expect(loadConfig({ DATA_DIR: dataDir() }).s3).toBeUndefined();
    });

    it("reads the bucket's settings, path-style addressing off unless asked for", () => {
      expect(loadConfig({ DATA_DIR: dataDir(), ...S3, ...SHARED }).s3).toEqual({
        endpoint: "https://s3.gra.io.cloud.ovh.net",
        bucket: "sourio-documents",
        region: "gra",
        accessKeyId: "AKIAEXEMPLE",
        secretAccessKey: "secret-exemple",
        forcePathStyle: false,
      });
      expect(
        loadConfig({ DATA_DIR: dataDir(), ...S3, ...SHARED, S3_FORCE_PATH_STYLE: "true" }).s3?.forcePathStyle,
      ).toBe(true);
    });

    it("requires all of them once one is set, naming the missing one in French", () => {
      for (const missing of Object.keys(S3)) {
        const env: Record<string, string> = { ...S3 };
        delete env[missing];
        const error = errorOf(env);
        expect(error.variable).toBe(missing);
        expect(error.message).toContain(`Configuration invalide : ${missing} est requis avec`);
      }
      const alone = errorOf({ S3_FORCE_PATH_STYLE: "true" });
      expect(alone.variable).toBe("S3_ENDPOINT");
      expect(alone.message).toBe(
        "Configuration invalide : S3_ENDPOINT est requis avec S3_FORCE_PATH_STYLE (le stockage S3 demande S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)",
      );
      // Empty values count as unset.
      expect(loadConfig({ DATA_DIR: dataDir(), S3_BUCKET: " ", S3_REGION: "" }).s3).toBeUndefined();
    });

    it("refuses a bad endpoint, bucket name or flag", () => {
      expect(errorOf({ ...S3, S3_ENDPOINT: "s3.exemple.fr" }).message).toBe(
        "Configuration invalide : S3_ENDPOINT doit être une URL http(s) complète (https://s3.exemple.fr)",
      );
      expect(errorOf({ ...S3, S3_ENDPOINT: "ftp://s3.exemple.fr" }).variable).toBe("S3_ENDPOINT");
      for (const bucket of ["ab", "Sourio", "sourio_docs", "-sourio", `s${"x".repeat(63)}`]) {
        const error = errorOf({ ...S3, S3_BUCKET: bucket });
        expect(error.variable).toBe("S3_BUCKET");
        expect(error.message).toContain("doit être un nom de bucket de 3 à 63 caractères");
      }
      expect(errorOf({ ...S3, S3_FORCE_PATH_STYLE: "peut-être" }).message).toBe(
        "Configuration invalide : S3_FORCE_PATH_STYLE doit valoir true ou false",
      );
    });
  });
});
