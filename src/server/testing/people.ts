import type { FastifyInstance, InjectOptions } from "fastify";
import { beforeAll, expect } from "vitest";
import { rppsWithKey, verifiedFactsOf } from "../../shared/policies/verification";
import { ensureAdmin } from "../bootstrap";
import { multipart } from "./files";
import { sessionCookie, signUpDentist, signUpPatient, uniqueEmail } from "./harness";

/**
 * The people of an API test, signed up through the public API. The database is written directly
 * only where the product has no API of its own: a dentist is verified by an administrator's
 * decision, an administrator is made by the bootstrap (`ensureAdmin`), as on a real server.
 */

/** Someone signed in: the session cookie, the profile's id and the e-mail. */
export interface Who {
  cookie: string;
  id: string;
  email: string;
}

/** Whom a call is made as: a person, a bare session cookie, or nobody (anonymous). */
export type As = { cookie: string } | string | undefined;

/** The Cookie header of a call made as this person, none for an anonymous call. */
export function cookieOf(as: As): Record<string, string> {
  const cookie = typeof as === "string" ? as : as?.cookie;
  return cookie ? { cookie } : {};
}

/**
 * JSON calls to the test's app as someone. `ctx.app` is read at each call, so the helpers may be
 * made at a file's top level from `appPerFile()`'s object.
 */
export function api(ctx: { app: FastifyInstance }) {
  const call = (method: InjectOptions["method"], url: string, as?: As, payload?: object) =>
    ctx.app.inject({ method, url, headers: cookieOf(as), ...(payload === undefined ? {} : { payload }) });
  return {
    call,
    get: (url: string, as?: As) => call("GET", url, as),
    post: (url: string, payload: object | undefined, as?: As) => call("POST", url, as, payload),
  };
}

/** A form posted as the browser sends it (multipart: these fields, these files), as someone. */
export function postForm(
  app: FastifyInstance,
  url: string,
  as: As,
  fields: Record<string, string>,
  files: Parameters<typeof multipart>[1] = [],
) {
  const body = multipart(fields, files);
  return app.inject({
    method: "POST",
    url,
    payload: body.payload,
    headers: { ...body.headers, ...cookieOf(as) },
  });
}

/** A patient signed up with these details (the harness's defaults otherwise). */
export async function patient(app: FastifyInstance, overrides: Record<string, unknown> = {}): Promise<Who> {
  const { response, cookie, body } = await signUpPatient(app, overrides);
  expect(response.statusCode, response.body).toBe(201);
  return { cookie, id: response.json().profile.id, email: String(body.email) };
}

/** Verifies a dentist (what an administrator's decision does), with other profile columns if given. */
export async function verifyDentist(app: FastifyInstance, id: string, columns: Record<string, string> = {}) {
  await app.db
    .updateTable("profiles")
    .set({ is_verified: true, ...columns })
    .where("id", "=", id)
    .execute();
}

/** An RPPS number no other test dentist has: one practitioner's for life (ADR 075). */
export function uniqueRpps(): string {
  return rppsWithKey(String(1_000_000_000 + Math.floor(Math.random() * 8_999_999_999)));
}

/**
 * Gives a dentist what the team checks before verifying him (D12): an RPPS number and his practice,
 * as his profile form would. An administrator's « Vérifier » refuses a dentist without them (ADR 075).
 */
export async function givePractice(app: FastifyInstance, id: string) {
  await app.db
    .updateTable("profiles")
    .set({
      rpps: uniqueRpps(),
      practice_address: "8 rue du Cabinet",
      practice_postcode: "75011",
    })
    .where("id", "=", id)
    .execute();
}

/**
 * The body of the team's « Vérifier »: the dentist's RPPS number and practice as they stand, the
 * values its screen would show and send back (ADR 076).
 */
export async function verifyBody(app: FastifyInstance, id: string) {
  const facts = await app.db
    .selectFrom("profiles")
    .select(["rpps", "practice_address", "practice_postcode"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { decision: "verify", checked: verifiedFactsOf(facts) };
}

/** A dentist signed up with these details, verified unless `verified` is false. */
export async function dentist(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
  verified = true,
): Promise<Who> {
  const { response, cookie, body } = await signUpDentist(app, overrides);
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().profile.id as string;
  if (verified) await verifyDentist(app, id);
  return { cookie, id, email: String(body.email) };
}

/** An administrator made as the bootstrap makes one (ADMIN_EMAIL), then signed in. */
export async function signInAdmin(
  app: FastifyInstance,
  email = uniqueEmail("admin"),
  password = "admin-secret",
): Promise<Who> {
  await ensureAdmin({ db: app.db, auth: app.auth }, email, password);
  const login = await app.inject({ method: "POST", url: "/api/account/login", payload: { email, password } });
  expect(login.statusCode, login.body).toBe(200);
  return { cookie: sessionCookie(login), id: login.json().profile?.id ?? "", email };
}

/** Who a test file signs up before its tests; the keys are the names the tests use. */
export interface Cast {
  /** Patients by first name, under one last name. */
  patients?: string[];
  lastName?: string;
  /** Verified dentists: a first name, or the sign-up's details. */
  dentists?: Record<string, string | Record<string, unknown>>;
  /** Dentists never verified. */
  unverified?: Record<string, string | Record<string, unknown>>;
}

/** Signs the cast up in order (patients, verified dentists, unverified dentists). */
export async function people(app: FastifyInstance, cast: Cast): Promise<Record<string, Who>> {
  const who: Record<string, Who> = {};
  const details = (given: string | Record<string, unknown>) =>
    typeof given === "string" ? { first_name: given } : given;
  for (const name of cast.patients ?? [])
    who[name] = await patient(app, {
      first_name: name,
      ...(cast.lastName ? { last_name: cast.lastName } : {}),
    });
  for (const [key, given] of Object.entries(cast.dentists ?? {}))
    who[key] = await dentist(app, details(given));
  for (const [key, given] of Object.entries(cast.unverified ?? {}))
    who[key] = await dentist(app, details(given), false);
  return who;
}

/** The usual cast of a marketplace test: two patients of one family and two verified dentists. */
export const USUAL_CAST = {
  patients: ["Paula", "Quentin"],
  lastName: "Durand",
  dentists: { drA: "Anne", drB: "Bruno" },
} satisfies Cast;

/**
 * The cast signed up once for the whole test file, after its app is built (`appPerFile`, made
 * before this). The object is filled in by `beforeAll`: read `who.x` inside tests and hooks.
 */
export function peoplePerFile(ctx: { app: FastifyInstance }, cast: Cast = USUAL_CAST): Record<string, Who> {
  const who: Record<string, Who> = {};
  beforeAll(async () => {
    Object.assign(who, await people(ctx.app, cast));
  });
  return who;
}
