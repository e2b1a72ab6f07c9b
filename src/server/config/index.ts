import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  isValidFrenchVatNumber,
  isValidSiren,
  normalizeSiren,
  type SellerIdentity,
  vatNumberOf,
} from "../../shared/domain/invoices";
import { DEFAULT_PLAN_PRICES_HT_CENTS, type PlanPrices } from "../../shared/domain/subscription";
import { parseMasterKey, readOrCreateKeyFile } from "./data-key";

export const SESSION_DAYS = 30;
/**
 * Better Auth's session times, in seconds: its length, and how often it slides (at most once a day).
 * Here, not in auth.ts, because the actor's session cache (access/actor.ts) follows the same
 * schedule and auth.ts itself uses the access layer (ADR 029).
 */
export const SESSION_TIMES = { expiresIn: SESSION_DAYS * 24 * 60 * 60, updateAge: 24 * 60 * 60 } as const;

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "doit valoir true ou false",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/** An optional setting: blank or absent is undefined; anything else must pass `schema`. */
const optional = <T extends z.ZodType<unknown, string>>(schema: T) => optionalText.pipe(schema.optional());

/** An amount in euros ("89", "89.00", "89,50") to cents. */
const euros = z
  .string()
  .regex(/^\d{1,6}([.,]\d{1,2})?$/, { error: "doit être un montant en euros HT (89 ou 89,00)" })
  .transform((v) => Math.round(Number(v.replace(",", ".")) * 100))
  .refine((cents) => cents > 0, { error: "doit être un montant positif" });

/** A whole number from `min` to `max` (the variable's text coerced), with one French message for any other value. */
const wholeBetween = (min: number, max: number, message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });

const MASTER_KEY_ERROR = {
  error: "doit être une clé de 32 octets en base64 (openssl rand -base64 32)",
};

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number({ error: "doit être un numéro de port" }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\/.+/, {
      error: "doit être une URL postgres://utilisateur:motdepasse@hôte:port/base",
    }),
  ),
  PUBLIC_URL: optional(z.url({ error: "doit être une URL http(s) complète" })),
  AUTH_SECRET: optional(z.string().min(32, { error: "doit contenir au moins 32 caractères" })),
  DATA_KEY: optional(z.string().refine((v) => parseMasterKey(v) !== null, MASTER_KEY_ERROR)),
  DATA_KEY_PREVIOUS: optional(
    z.string().refine((v) => v.split(",").every((k) => parseMasterKey(k) !== null), MASTER_KEY_ERROR),
  ),
  ADMIN_EMAIL: optional(z.email({ error: "doit être une adresse e-mail" })),
  ADMIN_PASSWORD: optional(z.string().min(6, { error: "doit contenir au moins 6 caractères" })),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\/.+/, { error: "doit être une URL smtp:// ou smtps://" })),
  MAIL_FROM: optionalText,
  BRAND_NAME: z.string().trim().min(1).default("Sourio"),
  CONTACT_EMAIL: z.email({ error: "doit être une adresse e-mail" }).default("contact@sourio.fr"),
  DEMO_DATA: optional(booleanFlag),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  /** A request answered in more than this many ms is logged (warn) even when it succeeded (issue 19). */
  LOG_SLOW_REQUEST_MS: z.coerce.number().int().min(0).default(500),
  /**
   * Behind a proxy: which peers may tell the client's address in `X-Forwarded-For`. `true` trusts
   * every peer (only when nothing but the proxy can reach the instances); better, the proxies'
   * addresses or ranges, comma-separated (`10.0.0.5, 10.0.1.0/24`, or `loopback`, `uniquelocal`):
   * then what a client writes in the header itself is never taken for its address.
   */
  TRUST_PROXY: optional(
    z.union([
      booleanFlag,
      z
        .string()
        .regex(
          /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)(\s*,\s*(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?))*$/,
          {
            error: "doit valoir true, false ou des adresses de proxys séparées par des virgules",
          },
        ),
    ]),
  ),
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  LOGIN_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  CONTACT_RATE_LIMIT_PER_HOUR: z.coerce.number().int().positive().default(5),
  TEST_CLOCK: optional(booleanFlag),
  /**
   * The response cache of the lists and the dashboard (ADR 030): `on` (default) or `off`, every read
   * then computed (the bench measures both, issue 38).
   */
  RESPONSE_CACHE: optional(z.enum(["on", "off"], { error: "doit valoir on ou off" })),
  /** OCR workers of the devis reading per instance (issue 17): 1, or 2 on a machine with cores to spare. */
  READING_CONCURRENCY: wholeBetween(1, 2, "doit valoir 1 ou 2").default(1),
  /**
   * The whole reading of one devis, in seconds of its process's CPU time (issue 32, ADR 037 and its
   * addendum): past it, it is stopped; a reading that stalls is stopped after 4 × as long on the wall
   * clock (sandbox.ts, stallLimitMs). At most 110 s: with the process's start and that backstop, a
   * reading still runs before the 10 minutes after which a 'running' row is taken for one a stopped
   * instance left (reading.repo.ts, STALE_RUNNING_MS).
   */
  READING_TIME_LIMIT_S: z.coerce
    .number({ error: "doit être un nombre de secondes (1 à 110)" })
    .min(1, { error: "doit être un nombre de secondes (1 à 110)" })
    .max(110, { error: "doit être un nombre de secondes (1 à 110)" })
    .default(90),
  /**
   * The reading process's CPU priority (Unix nice, 0 to 19; ADR 037): 19, the lowest, so that the
   * server keeps answering on a 2-core machine. A test suite that runs its own processes beside it
   * sets it to theirs (ADR 054, addendum).
   */
  READING_NICE: wholeBetween(0, 19, "doit être un entier de 0 à 19").default(19),
  /** The reading process's memory ceiling, in MB: above it, it is stopped (issue 32). */
  READING_MEMORY_MB: wholeBetween(256, 16384, "doit être un nombre de Mo (256 à 16384)").default(1024),
  /**
   * The bearer token of GET /metrics (Prometheus, ADR 047); without it the route answers 404.
   * At least 32 characters (openssl rand -hex 32).
   */
  METRICS_TOKEN: optional(
    z.string().min(32, { error: "doit contenir au moins 32 caractères (openssl rand -hex 32)" }),
  ),
  // S3-compatible object storage (issue 18, ADR 022): all of them, or none for the local disk.
  S3_ENDPOINT: optional(
    z.url({ protocol: /^https?$/, error: "doit être une URL http(s) complète (https://s3.exemple.fr)" }),
  ),
  S3_BUCKET: optional(
    z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
      error: "doit être un nom de bucket de 3 à 63 caractères (minuscules, chiffres, points, tirets)",
    }),
  ),
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: optional(booleanFlag),
  // Payments (issue 35, ADR 044): Stripe's keys and the two prices' ids, all of them or none (none:
  // the local stand-in, refused in production).
  STRIPE_SECRET_KEY: optional(
    z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, {
      error: "doit être une clé secrète Stripe (sk_live_… ou sk_test_…)",
    }),
  ),
  STRIPE_WEBHOOK_SECRET: optional(
    z.string().regex(/^whsec_[A-Za-z0-9]+$/, { error: "doit être un secret de webhook Stripe (whsec_…)" }),
  ),
  STRIPE_PRICE_MONTHLY: optional(
    z.string().regex(/^price_[A-Za-z0-9]+$/, { error: "doit être l'identifiant d'un prix Stripe (price_…)" }),
  ),
  STRIPE_PRICE_YEARLY: optional(
    z.string().regex(/^price_[A-Za-z0-9]+$/, { error: "doit être l'identifiant d'un prix Stripe (price_…)" }),
  ),
  /** The French VAT as a Stripe tax rate (20 %, exclusive), added to the HT prices at checkout. */
  STRIPE_TAX_RATE: optional(
    z
      .string()
      .regex(/^txr_[A-Za-z0-9]+$/, { error: "doit être l'identifiant d'un taux de taxe Stripe (txr_…)" }),
  ),
  /** The plans' prices HT in euros (89 and 890 by default), as the Stripe prices say. */
  PRICE_MONTHLY_HT: optional(euros),
  PRICE_YEARLY_HT: optional(euros),
  // Sourio's identity as the seller on its invoices (issue 35, ADR 045): all of them, or none for the
  // labelled development identity; required in production.
  INVOICE_SELLER_NAME: optionalText,
  INVOICE_SELLER_ADDRESS: optionalText,
  INVOICE_SELLER_POSTAL_CODE: optional(
    z.string().regex(/^\d{5}$/, { error: "doit être un code postal (5 chiffres)" }),
  ),
  INVOICE_SELLER_CITY: optionalText,
  INVOICE_SELLER_SIREN: optional(
    z
      .string()
      .transform(normalizeSiren)
      .refine(isValidSiren, { error: "doit être un numéro SIREN (9 chiffres, clé de Luhn valide)" }),
  ),
  INVOICE_SELLER_LEGAL_FORM: optionalText,
  INVOICE_SELLER_CAPITAL: optionalText,
  INVOICE_SELLER_RCS: optionalText,
  INVOICE_SELLER_VAT_NUMBER: optional(
    z
      .string()
      .transform((v) => v.replace(/\s+/g, "").toUpperCase())
      .refine(isValidFrenchVatNumber, {
        error: "doit être un numéro de TVA intracommunautaire français (FR, clé, SIREN)",
      }),
  ),
});

const SELLER_REQUIRED = [
  "INVOICE_SELLER_NAME",
  "INVOICE_SELLER_ADDRESS",
  "INVOICE_SELLER_POSTAL_CODE",
  "INVOICE_SELLER_CITY",
  "INVOICE_SELLER_SIREN",
  "INVOICE_SELLER_LEGAL_FORM",
  "INVOICE_SELLER_CAPITAL",
  "INVOICE_SELLER_RCS",
  "INVOICE_SELLER_VAT_NUMBER",
] as const;

/**
 * The seller printed on invoices issued without INVOICE_SELLER_* (development, tests, demo): a
 * placeholder identity that says it is one, printed with a banner on every page (invoices.pdf.ts).
 * Its SIREN is a valid-looking number reserved for nothing real: 000000000 passes the Luhn check
 * but no register; its VAT number is the one computed from it.
 */
export const DEVELOPMENT_SELLER = {
  name: "Sourio (identité de développement, à configurer)",
  address: "1 rue de l'Exemple",
  postalCode: "75001",
  city: "Paris",
  siren: "000000000",
  legalForm: "SAS",
  capital: "1 000 €",
  rcs: "RCS Paris (non immatriculée : identité de développement)",
  vatNumber: vatNumberOf("000000000"),
  development: true,
} as const satisfies SellerIdentity;

const STRIPE_REQUIRED = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_PRICE_MONTHLY",
  "STRIPE_PRICE_YEARLY",
  "STRIPE_TAX_RATE",
] as const;

const S3_REQUIRED = [
  "S3_ENDPOINT",
  "S3_BUCKET",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
] as const;

export interface AppConfig {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL server URL; undefined means the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  publicUrl: string;
  authSecret: string;
  /** Master keys wrapping each stored file's data key: the current one first, then older ones. */
  dataKeys: Buffer[];
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  brandName: string;
  contactEmail: string;
  demoData: boolean;
  logLevel: string;
  /**
   * Requests are logged in one line when they fail (4xx info, 5xx error) or take more than this
   * (warn); a fast success only at LOG_LEVEL=debug or trace (plugins/logging.ts).
   */
  slowRequestMs: number;
  /** The proxies trusted in front of the app: false (none), true (all) or their addresses. */
  trustProxy: boolean | string;
  secureCookies: boolean;
  loginRateLimit: { perIp: number; perAccount: number; windowMs: number };
  contactRateLimitPerHour: number;
  /** Browser tests only: POST /api/test/clock moves the server's clock (refused in production). */
  testClock: boolean;
  /** Whether the lists' and the dashboard's answers are kept in the response cache (ADR 030). */
  responseCache: boolean;
  /** OCR workers reading devis at once in this instance (1–2). */
  readingConcurrency: number;
  /**
   * The reading's own process (ADR 037): the whole reading's time limit and a preview's (ms of the
   * process's CPU time), its memory ceiling (MB), its OCR workers. The shape of modules/reading/runner.ts's ReadingLimits.
   */
  readingLimits: {
    timeMs: number;
    previewTimeMs: number;
    memoryMb: number;
    ocrConcurrency: number;
    nice: number;
  };
  /** The bearer token of GET /metrics; undefined: no metrics are kept and the route answers 404. */
  metricsToken: string | undefined;
  /** The S3-compatible bucket of the files; undefined means the local disk under dataDir. */
  // The shape of storage/s3.ts's S3Settings (app.ts hands it to S3Storage); inferred here so that
  // the config imports nothing of the server.
  s3: ReturnType<typeof s3Settings>;
  /** Stripe's settings; undefined means the local stand-in (never in production, ADR 044). */
  stripe: ReturnType<typeof stripeSettings>;
  /** The plans' prices HT, in cents. */
  planPrices: PlanPrices;
  /** Sourio as the seller on its invoices: INVOICE_SELLER_*, else the development identity (not in production). */
  invoiceSeller: SellerIdentity;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Configuration invalide : ${variable} ${detail}`);
    this.name = "ConfigError";
  }
}

/**
 * Reads the configuration from an environment once. A bad or missing value throws a ConfigError
 * whose message is one line naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? "?");
    throw new ConfigError(variable, issue?.message ?? "est invalide");
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.ADMIN_EMAIL && !e.ADMIN_PASSWORD)
    throw new ConfigError("ADMIN_PASSWORD", "est requis avec ADMIN_EMAIL");
  if (e.ADMIN_PASSWORD && !e.ADMIN_EMAIL)
    throw new ConfigError("ADMIN_EMAIL", "est requis avec ADMIN_PASSWORD");

  const s3 = s3Settings(e);
  // Instances sharing a database or a bucket must share the session secret and the files' key: a
  // secret or key generated in one instance's DATA_DIR would be unknown to the others.
  const shared = e.DATABASE_URL ? "DATABASE_URL" : sharedStorageVariable(e);
  let authSecret = e.AUTH_SECRET;
  if (!authSecret) {
    if (e.NODE_ENV === "production")
      throw new ConfigError("AUTH_SECRET", "est requis en production (32 caractères au moins)");
    if (shared)
      throw new ConfigError(
        "AUTH_SECRET",
        `est requis avec ${shared} : toutes les instances doivent partager le même (32 caractères au moins)`,
      );
    authSecret = readOrCreateSecret(dataDir);
  }
  let dataKeys: Buffer[];
  if (e.DATA_KEY) {
    dataKeys = [e.DATA_KEY, ...(e.DATA_KEY_PREVIOUS?.split(",") ?? [])].map(
      (k) => parseMasterKey(k) as Buffer,
    );
  } else {
    if (e.NODE_ENV === "production")
      throw new ConfigError("DATA_KEY", "est requis en production (openssl rand -base64 32)");
    if (shared)
      throw new ConfigError(
        "DATA_KEY",
        `est requis avec ${shared} : toutes les instances doivent partager la même (openssl rand -base64 32)`,
      );
    if (e.DATA_KEY_PREVIOUS) throw new ConfigError("DATA_KEY", "est requis avec DATA_KEY_PREVIOUS");
    dataKeys = readOrCreateKeyFile(dataDir);
  }
  if (e.TEST_CLOCK && e.NODE_ENV === "production")
    throw new ConfigError("TEST_CLOCK", "est interdit en production");
  const invoiceSeller = sellerSettings(e);
  const stripe = stripeSettings(e);
  if (!stripe && e.NODE_ENV === "production")
    throw new ConfigError(
      "STRIPE_SECRET_KEY",
      `est requis en production (les paiements demandent ${STRIPE_REQUIRED.join(", ")})`,
    );
  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    env: e.NODE_ENV,
    port,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    authSecret,
    dataKeys,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `${e.BRAND_NAME} <${e.CONTACT_EMAIL}>`,
    brandName: e.BRAND_NAME,
    contactEmail: e.CONTACT_EMAIL,
    // Demo accounts are for the embedded database only, unless asked for explicitly.
    demoData: e.DEMO_DATA ?? (!e.DATABASE_URL && e.NODE_ENV !== "production" && e.NODE_ENV !== "test"),
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    slowRequestMs: e.LOG_SLOW_REQUEST_MS,
    trustProxy: e.TRUST_PROXY ?? false,
    secureCookies: publicUrl.startsWith("https://") || e.NODE_ENV === "production",
    loginRateLimit: {
      perIp: e.LOGIN_RATE_LIMIT_PER_IP,
      perAccount: e.LOGIN_RATE_LIMIT_PER_ACCOUNT,
      windowMs: 15 * 60 * 1000,
    },
    contactRateLimitPerHour: e.CONTACT_RATE_LIMIT_PER_HOUR,
    testClock: e.TEST_CLOCK ?? false,
    responseCache: e.RESPONSE_CACHE !== "off",
    readingConcurrency: e.READING_CONCURRENCY,
    readingLimits: {
      timeMs: Math.round(e.READING_TIME_LIMIT_S * 1000),
      // A preview is one page: at most 15 s, and never longer than a whole reading.
      previewTimeMs: Math.round(Math.min(15, e.READING_TIME_LIMIT_S) * 1000),
      memoryMb: e.READING_MEMORY_MB,
      ocrConcurrency: e.READING_CONCURRENCY,
      nice: e.READING_NICE,
    },
    metricsToken: e.METRICS_TOKEN,
    s3,
    invoiceSeller,
    stripe,
    planPrices: {
      monthly: e.PRICE_MONTHLY_HT ?? DEFAULT_PLAN_PRICES_HT_CENTS.monthly,
      yearly: e.PRICE_YEARLY_HT ?? DEFAULT_PLAN_PRICES_HT_CENTS.yearly,
    },
  };
}

/** Stripe's settings when any STRIPE_* variable is set, each of them being then required. */
function stripeSettings(e: z.infer<typeof envSchema>) {
  const given = STRIPE_REQUIRED.filter((name) => e[name] !== undefined);
  if (given.length === 0) return undefined;
  const lacking = STRIPE_REQUIRED.find((name) => e[name] === undefined);
  if (lacking)
    throw new ConfigError(
      lacking,
      `est requis avec ${given[0]} (les paiements demandent ${STRIPE_REQUIRED.join(", ")})`,
    );
  return {
    secretKey: e.STRIPE_SECRET_KEY as string,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET as string,
    prices: { monthly: e.STRIPE_PRICE_MONTHLY as string, yearly: e.STRIPE_PRICE_YEARLY as string },
    taxRate: e.STRIPE_TAX_RATE as string,
  };
}

/** Sourio's identity on its invoices: every INVOICE_SELLER_* variable, or none outside production. */
function sellerSettings(e: z.infer<typeof envSchema>): SellerIdentity {
  const given = SELLER_REQUIRED.filter((name) => e[name] !== undefined);
  if (given.length === 0) {
    if (e.NODE_ENV === "production")
      throw new ConfigError(
        "INVOICE_SELLER_NAME",
        `est requis en production : les factures portent l'identité du vendeur (${SELLER_REQUIRED.join(", ")})`,
      );
    return { ...DEVELOPMENT_SELLER };
  }
  const lacking = SELLER_REQUIRED.find((name) => e[name] === undefined);
  if (lacking)
    throw new ConfigError(
      lacking,
      `est requis avec ${given[0]} (l'identité du vendeur sur les factures demande ${SELLER_REQUIRED.join(", ")})`,
    );
  const siren = e.INVOICE_SELLER_SIREN as string;
  const vatNumber = e.INVOICE_SELLER_VAT_NUMBER as string;
  if (vatNumber.slice(4) !== siren)
    throw new ConfigError("INVOICE_SELLER_VAT_NUMBER", "doit contenir le SIREN de INVOICE_SELLER_SIREN");
  return {
    name: e.INVOICE_SELLER_NAME as string,
    address: e.INVOICE_SELLER_ADDRESS as string,
    postalCode: e.INVOICE_SELLER_POSTAL_CODE as string,
    city: e.INVOICE_SELLER_CITY as string,
    siren,
    legalForm: e.INVOICE_SELLER_LEGAL_FORM as string,
    capital: e.INVOICE_SELLER_CAPITAL as string,
    rcs: e.INVOICE_SELLER_RCS as string,
    vatNumber,
    development: false,
  };
}

/** The S3 settings when any S3_* variable is set, each of the required ones then being required. */
function s3Settings(e: z.infer<typeof envSchema>) {
  const given = [...S3_REQUIRED, "S3_FORCE_PATH_STYLE" as const].filter((name) => e[name] !== undefined);
  if (given.length === 0) return undefined;
  const lacking = S3_REQUIRED.find((name) => e[name] === undefined);
  if (lacking)
    throw new ConfigError(
      lacking,
      `est requis avec ${given[0]} (le stockage S3 demande ${S3_REQUIRED.join(", ")})`,
    );
  return {
    endpoint: (e.S3_ENDPOINT as string).replace(/\/+$/, ""),
    bucket: e.S3_BUCKET as string,
    region: e.S3_REGION as string,
    accessKeyId: e.S3_ACCESS_KEY_ID as string,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
  };
}

/** The first S3_* variable set (the bucket is then shared by every instance), else undefined. */
function sharedStorageVariable(e: z.infer<typeof envSchema>): string | undefined {
  return [...S3_REQUIRED, "S3_FORCE_PATH_STYLE" as const].find((name) => e[name] !== undefined);
}

/** In the embedded mode the auth secret is generated once and kept in DATA_DIR. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
