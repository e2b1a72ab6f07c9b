import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
  signupRequestSchema,
} from "../../../shared/schemas/account";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import { meResponseSchema } from "../../../shared/schemas/profile";
import { AppError } from "../../errors";
import { authHeaders, forwardCookies } from "../../session";
import { toProfileDto } from "../profiles/profiles.repo";
import * as service from "./account.service";
import { LoginThrottle } from "./login-throttle";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema };

/** Sign-up, login, logout and password reset, wrapping Better Auth with our rules and messages. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = (request: FastifyRequest) => ({ db: app.db, auth: app.auth, log: request.log });
  const { perIp, perAccount, windowMs } = app.config.loginRateLimit;
  const tooMany = () =>
    new AppError(
      429,
      "RATE_LIMITED",
      "Trop de tentatives de connexion. Veuillez réessayer dans quelques minutes.",
    );
  // Brute force: per IP on every account route, and per account (failed logins) whatever the IP.
  const perIpLimit = app.rateLimit({ max: perIp, timeWindow: windowMs, errorResponseBuilder: tooMany });
  const throttle = new LoginThrottle(perAccount, windowMs);

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
        response: { 200: meResponseSchema, ...errors },
      },
      onRequest: [perIpLimit],
    },
    async (request, reply) => {
      const key = request.body.email;
      if (!throttle.allows(key)) throw tooMany();
      try {
        const { profile, headers } = await service.logIn(deps(request), request.body, authHeaders(request));
        throttle.recordSuccess(key);
        forwardCookies(reply, headers);
        return { profile: toProfileDto(profile) };
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401) throttle.recordFailure(key);
        throw error;
      }
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
    async (request) => ({ message: await service.requestPasswordReset(deps(request), request.body) }),
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
  const allowed = new Set([
    "/get-session",
    "/sign-out",
    "/list-sessions",
    "/revoke-session",
    "/revoke-other-sessions",
  ]);
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
