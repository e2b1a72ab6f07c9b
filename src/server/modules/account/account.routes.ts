import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  forgotPasswordSchema,
  loginSchema,
  resetLinkCheckSchema,
  resetLinkStateSchema,
  resetPasswordSchema,
  signupRequestSchema,
} from "../../../shared/schemas/account";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import { meResponseSchema } from "../../../shared/schemas/profile";
import {
  loginCodeSchema,
  SECOND_FACTOR_STATUS,
  secondFactorNeededSchema,
} from "../../../shared/schemas/twoFactor";
import { authHeaders, forwardCookies } from "../../access/actor";
import type { ProfileRow } from "../../db/types";
import { AppError } from "../../errors";
import { LoginThrottle, loginLimits } from "../../throttle/login-throttle";
import { toProfileDto } from "../profiles/profiles.service";
import { newDeviceId, readTrustedDevice, trustedDeviceSetCookie } from "../security/trusted-device";
import * as service from "./account.service";

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/** Sign-up, login, logout and password reset, wrapping Better Auth with our rules and messages. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = (request: FastifyRequest) => ({
    db: app.db,
    auth: app.auth,
    mailer: app.mailer,
    config: app.config,
    log: request.log,
    clock: app.clock,
  });
  const { authSecret, secureCookies } = app.config;
  // Brute force (login-throttle.ts): failed logins per (account, IP), per IP and per account, or
  // per trusted device; requests per IP on the other account routes. Counters in the database.
  const throttle = new LoginThrottle(app.db, authSecret, loginLimits(app.config.loginRateLimit), app.clock);
  const tooMany = (retryAfterSeconds: number) =>
    new AppError(
      429,
      "RATE_LIMITED",
      "Trop de tentatives de connexion. Veuillez réessayer dans quelques minutes.",
      undefined,
      retryAfterSeconds,
    );
  const perIpLimit = async (request: FastifyRequest) => {
    const blocked = await throttle.take(throttle.requestCounters(request.ip));
    if (blocked !== null) throw tooMany(blocked);
  };
  // Set at every sign-in (login or sign-up): this browser is now a trusted device of the account.
  const trustDevice = (reply: FastifyReply, userId: string, deviceId = newDeviceId()) =>
    reply.header("set-cookie", trustedDeviceSetCookie(authSecret, { userId, deviceId }, secureCookies));
  // A session is open: this browser becomes a trusted device of the account; one that had never
  // signed into it tells its owner (ADR 082).
  const signedIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    profile: ProfileRow,
    trusted: { deviceId: string } | null,
  ) => {
    trustDevice(reply, profile.id, trusted?.deviceId);
    if (!trusted) service.tellNewSignIn(deps(request), profile, request.headers["user-agent"]);
    return { profile: toProfileDto(profile) };
  };
  // Work started after an answer (the reset e-mail) is finished before the app closes.
  app.addHook("onClose", () => service.accountWorkSettled());

  r.post(
    "/api/account/signup",
    {
      schema: {
        tags: ["account"],
        summary: "Créer un compte patient ou dentiste",
        description:
          "role 'dentist' demande first_name, last_name, city, phone_number, email, password, password_confirmation, accept_terms ; toute autre valeur crée un compte patient (first_name, last_name, email, password). Personne ne devient administrateur ainsi.",
        body: signupRequestSchema,
        response: { 201: meResponseSchema, ...errors },
      },
      onRequest: [perIpLimit],
    },
    async (request, reply) => {
      const { profile, headers } = await service.signUp(deps(request), request.body, authHeaders(request));
      forwardCookies(reply, headers);
      trustDevice(reply, profile.id);
      return reply.status(201).send({ profile: toProfileDto(profile) });
    },
  );

  r.post(
    "/api/account/login",
    {
      schema: {
        tags: ["account"],
        summary: "Se connecter (patient, dentiste ou administrateur)",
        body: loginSchema,
        description:
          "Répond 202 { second_factor: true } quand le mot de passe est juste et que le compte demande un code (connexion en deux étapes) : la connexion se termine par /api/account/login/code.",
        response: { 200: meResponseSchema, 202: secondFactorNeededSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      // A valid trusted-device cookie of this very account: the attempt counts on that device only.
      const device = readTrustedDevice(authSecret, request.headers.cookie, secureCookies);
      const trusted = device && (await service.isAccountOf(app.db, device.userId, email)) ? device : null;
      const counters = throttle.loginCounters(email, request.ip, trusted?.deviceId ?? null);
      const blocked = await throttle.take(counters);
      if (blocked !== null) throw tooMany(blocked);
      let result: Awaited<ReturnType<typeof service.logIn>>;
      try {
        result = await service.logIn(deps(request), request.body, authHeaders(request));
      } catch (error) {
        // A wrong password stays charged; anything else was not a guess.
        if (!(error instanceof AppError && error.statusCode === 401))
          await throttle.giveBack(counters, false);
        throw error;
      }
      await throttle.giveBack(counters, true);
      forwardCookies(reply, result.headers);
      // Two-step sign-in (ADR 098): the password was right, the code is still due.
      if ("secondFactor" in result) return reply.status(SECOND_FACTOR_STATUS).send({ second_factor: true });
      return signedIn(request, reply, result.profile, trusted);
    },
  );

  r.post(
    "/api/account/login/code",
    {
      schema: {
        tags: ["account"],
        summary:
          "Terminer une connexion en deux étapes : le code de l'application d'authentification, ou un code de secours",
        description:
          "Après une réponse 202 de /api/account/login (cookie de connexion en attente, 10 minutes). Au plus 5 codes par connexion en attente ; 10 codes faux de suite bloquent ceux du compte 15 minutes.",
        body: loginCodeSchema,
        response: { 200: meResponseSchema, ...errors },
      },
      onRequest: [perIpLimit],
    },
    async (request, reply) => {
      const result = await service.logInWithCode(deps(request), request.body, authHeaders(request));
      forwardCookies(reply, result.headers);
      const device = readTrustedDevice(authSecret, request.headers.cookie, secureCookies);
      return signedIn(request, reply, result.profile, device?.userId === result.profile.id ? device : null);
    },
  );

  r.post(
    "/api/account/logout",
    { schema: { tags: ["account"], summary: "Se déconnecter", response: { 200: messageSchema } } },
    async (request, reply) => {
      forwardCookies(reply, await service.logOut(deps(request), authHeaders(request)));
      return { message: "Déconnexion réussie" };
    },
  );

  r.post(
    "/api/account/forgot-password",
    {
      schema: {
        tags: ["account"],
        summary: "Recevoir un lien pour choisir un nouveau mot de passe",
        body: forgotPasswordSchema,
        response: { 200: messageSchema, ...errors },
      },
      onRequest: [perIpLimit],
    },
    async (request) => ({ message: service.requestPasswordReset(deps(request), request.body) }),
  );

  r.post(
    "/api/account/reset-password/check",
    {
      schema: {
        tags: ["account"],
        summary:
          "Savoir si un lien de réinitialisation est encore valable (avant de choisir le mot de passe)",
        body: resetLinkCheckSchema,
        response: { 200: resetLinkStateSchema, ...errors },
      },
      onRequest: [perIpLimit],
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { valid: await service.resetLinkValid(deps(request), request.body.token) };
    },
  );

  r.post(
    "/api/account/reset-password",
    {
      schema: {
        tags: ["account"],
        summary: "Choisir un nouveau mot de passe avec le lien reçu",
        body: resetPasswordSchema,
        response: { 200: messageSchema, ...errors },
      },
      onRequest: [perIpLimit],
    },
    async (request) => ({ message: await service.resetPassword(deps(request), request.body) }),
  );

  // Better Auth's own endpoints: only the harmless ones are reachable; sign-up, sign-in and
  // password reset go through the routes above (validation, throttling, profiles, French errors).
  // Not /get-session, /list-sessions nor /revoke-session: they hand session tokens to the browser's
  // scripts (the cookie is httpOnly for a reason). GET /api/me says who is signed in, and
  // GET/DELETE /api/account/sessions (security.routes.ts) list and end sessions by our own ids.
  const allowed = new Set(["/sign-out", "/revoke-other-sessions"]);
  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    schema: { hide: true },
    async handler(request, reply) {
      const sub = request.url.slice("/api/auth".length).split("?")[0] ?? "";
      if (!allowed.has(sub)) throw new AppError(404, "NOT_FOUND", "Ressource introuvable.");
      const url = new URL(request.url, app.config.publicUrl);
      const headers = authHeaders(request);
      if (request.headers["content-type"]) headers.set("content-type", request.headers["content-type"]);
      for (const name of ["origin", "referer"] as const) {
        const value = request.headers[name];
        if (typeof value === "string") headers.set(name, value);
      }
      const response = await app.auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: request.body ? JSON.stringify(request.body) : undefined,
        }),
      );
      reply.status(response.status);
      response.headers.forEach((value, key) => {
        if (key !== "set-cookie") reply.header(key, value);
      });
      forwardCookies(reply, response.headers);
      return reply.send(response.body ? await response.text() : null);
    },
  });
}
