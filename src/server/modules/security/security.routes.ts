import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  accountErasureSchema,
  accountSessionListSchema,
  ERASURE_MESSAGES,
  emailChangeConfirmSchema,
  emailChangeSchema,
  passwordChangeSchema,
  SECURITY_MESSAGES,
  sessionIdParamsSchema,
  sessionRevokedSchema,
} from "../../../shared/schemas/account";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import { authHeaders, forwardCookies } from "../../access/actor";
import { guardedRoutes } from "../../access/route";
import { confirmEmailChange, type EmailChangeDeps, requestEmailChange } from "./email-change.service";
import { checkErasurePassword, eraseAccount, erasureDeps } from "./erasure.service";
import { ownPasswordThrottle } from "./own-password";
import * as service from "./security.service";
import { trustedDeviceClearCookie } from "./trusted-device";

/** The answers of a route that asks for the password: bad input or password, signed out, too many tries. */
const passwordErrors = { 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema };

/**
 * 'Sécurité' on every profile (patient, dentist, admin): password change and the list of one's
 * own sessions. Better Auth's /list-sessions and /revoke-session are closed (they hand session
 * tokens to the browser): these routes are the only way, and they never show a token.
 */
export async function securityRoutes(app: FastifyInstance): Promise<void> {
  const signedIn = guardedRoutes(app, "signed-in", { tags: ["account"], errors: { 401: errorBodySchema } });
  // Wrong own passwords, charged before the check (own-password.ts).
  const throttle = ownPasswordThrottle(app);
  const deps = (request: FastifyRequest): service.Deps => ({
    db: app.db,
    auth: app.auth,
    mailer: app.mailer,
    config: app.config,
    clock: app.clock,
    log: request.log,
    throttle,
  });

  signedIn.post("/api/account/password", {
    summary: "Changer mon mot de passe (mot de passe actuel exigé ; mes autres appareils sont déconnectés)",
    body: passwordChangeSchema,
    response: { 200: messageSchema, ...passwordErrors },
    handler: async (request, reply, actor) => {
      const headers = await service.changePassword(deps(request), actor, request.body, authHeaders(request));
      // The new session of this device (the old one was revoked with the others).
      forwardCookies(reply, headers);
      reply.header("cache-control", "no-store");
      return { message: SECURITY_MESSAGES.passwordChanged };
    },
  });

  signedIn.get("/api/account/sessions", {
    summary: "Mes appareils connectés (sessions actives), les plus récents d'abord",
    response: { 200: accountSessionListSchema },
    handler: async (request, reply, actor) => {
      reply.header("cache-control", "no-store");
      return { sessions: await service.listSessions(deps(request), actor, authHeaders(request)) };
    },
  });

  signedIn.delete("/api/account/sessions/:id", {
    summary: "Déconnecter un de mes appareils (le mien : déconnexion)",
    params: sessionIdParamsSchema,
    response: { 200: sessionRevokedSchema, 404: errorBodySchema },
    handler: async (request, reply, actor) => {
      const result = await service.revokeSession(
        deps(request),
        actor,
        request.params.id,
        authHeaders(request),
      );
      forwardCookies(reply, result.headers);
      return {
        message: result.signedOut
          ? SECURITY_MESSAGES.currentSessionRevoked
          : SECURITY_MESSAGES.sessionRevoked,
        signed_out: result.signedOut,
      };
    },
  });

  const emailChange = (request: FastifyRequest): EmailChangeDeps => ({
    db: app.db,
    mailer: app.mailer,
    config: app.config,
    clock: app.clock,
    log: request.log,
    throttle,
    customerEmailChanged: (dentistId, email) =>
      app.billing.customerEmailChanged(dentistId, email, request.log),
  });

  signedIn.post("/api/account/email", {
    summary:
      "Changer mon adresse e-mail (mot de passe actuel exigé) : un lien est envoyé à la nouvelle adresse, qui ne devient celle du compte qu'une fois ce lien ouvert",
    body: emailChangeSchema,
    response: {
      200: messageSchema,
      ...passwordErrors,
      403: errorBodySchema,
      409: errorBodySchema,
      503: errorBodySchema,
    },
    handler: async (request, reply, actor) => {
      reply.header("cache-control", "no-store");
      return { message: await requestEmailChange(emailChange(request), actor, request.body) };
    },
  });

  // Public: the link may be opened on another device than the one that asked; its token is the proof.
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/account/email/confirm",
    {
      schema: {
        tags: ["account"],
        summary: "Confirmer ma nouvelle adresse e-mail avec le lien reçu à cette adresse",
        body: emailChangeConfirmSchema,
        response: { 200: messageSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { message: await confirmEmailChange(emailChange(request), request.body) };
    },
  );

  signedIn.post("/api/account/delete", {
    summary:
      "Supprimer mon compte (mot de passe exigé) : profil, demandes, documents, messages effacés ; ce que d'autres gardent est pseudonymisé",
    body: accountErasureSchema,
    response: { 200: messageSchema, ...passwordErrors, 403: errorBodySchema, 409: errorBodySchema },
    handler: async (request, reply, actor) => {
      const erasure = erasureDeps(app, request.log);
      await checkErasurePassword(erasure, throttle, actor.userId, request.body.password);
      const { subscriptionCancelled } = await eraseAccount(erasure, actor.userId, "self");
      // The session is gone with the account: the browser forgets its cookies too.
      const headers = await app.auth.api
        .signOut({ headers: authHeaders(request), returnHeaders: true })
        .then((result) => result.headers)
        .catch(() => null);
      forwardCookies(reply, headers);
      reply.header("set-cookie", trustedDeviceClearCookie(app.config.secureCookies));
      reply.header("cache-control", "no-store");
      return {
        message: subscriptionCancelled ? ERASURE_MESSAGES.erasedWithSubscription : ERASURE_MESSAGES.erased,
      };
    },
  });
}
