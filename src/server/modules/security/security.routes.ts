import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  accountErasureSchema,
  accountSessionListSchema,
  ERASURE_MESSAGES,
  emailChangeConfirmSchema,
  emailChangeSchema,
  otherSessionsRevokedMessage,
  otherSessionsRevokedSchema,
  passwordChangeSchema,
  SECURITY_MESSAGES,
  sessionIdParamsSchema,
  sessionRevokedSchema,
} from "../../../shared/schemas/account";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import {
  TWO_FACTOR_MESSAGES,
  twoFactorCodesSchema,
  twoFactorConfirmSchema,
  twoFactorPasswordSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from "../../../shared/schemas/twoFactor";
import { authHeaders, forwardCookies } from "../../access/actor";
import { guardedRoutes } from "../../access/route";
import { confirmEmailChange, type EmailChangeDeps, requestEmailChange } from "./email-change.service";
import { checkErasurePassword, eraseAccount, erasureDeps } from "./erasure.service";
import { ownPasswordThrottle } from "./own-password";
import * as service from "./security.service";
import { trustedDeviceClearCookie } from "./trusted-device";
import * as twoFactor from "./two-factor.service";

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

  signedIn.delete("/api/account/sessions", {
    summary: "Déconnecter tous mes autres appareils (celui-ci reste connecté)",
    response: { 200: otherSessionsRevokedSchema },
    handler: async (request, _reply, actor) => {
      const revoked = await service.revokeOtherSessions(deps(request), actor, authHeaders(request));
      return { message: otherSessionsRevokedMessage(revoked), revoked };
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

  // Two-step sign-in (ADR 098): its state, turning it on (password, then the app's first code),
  // new recovery codes, turning it off. No answer of these is kept by a browser or a proxy.
  signedIn.get("/api/account/two-factor", {
    summary: "La double authentification de mon compte est-elle activée ?",
    response: { 200: twoFactorStatusSchema },
    handler: async (request, reply, actor) => {
      reply.header("cache-control", "no-store");
      return twoFactor.twoFactorStatus(deps(request), actor);
    },
  });

  signedIn.delete("/api/account/two-factor/remembered-devices", {
    summary:
      "Redemander le code sur tous les appareils où « Ne plus demander de code sur cet appareil » a été coché",
    response: { 200: messageSchema },
    handler: async (request, reply, actor) => {
      await twoFactor.forgetDevices(deps(request), actor);
      reply.header("cache-control", "no-store");
      return { message: TWO_FACTOR_MESSAGES.devicesForgotten };
    },
  });

  signedIn.post("/api/account/two-factor/setup", {
    summary:
      "Commencer l'activation de la double authentification (mot de passe exigé) : la clé pour l'application et dix codes de secours, en vigueur une fois le premier code confirmé",
    body: twoFactorPasswordSchema,
    response: { 200: twoFactorSetupSchema, ...passwordErrors, 409: errorBodySchema },
    handler: async (request, reply, actor) => {
      reply.header("cache-control", "no-store");
      return twoFactor.setUp(deps(request), actor, request.body, authHeaders(request));
    },
  });

  signedIn.post("/api/account/two-factor/confirm", {
    summary: "Activer la double authentification avec le premier code de l'application",
    body: twoFactorConfirmSchema,
    response: { 200: messageSchema, 400: errorBodySchema, 409: errorBodySchema },
    handler: async (request, reply, actor) => {
      // This device's session is renewed by Better Auth: its new cookie.
      forwardCookies(
        reply,
        await twoFactor.confirm(deps(request), actor, request.body, authHeaders(request)),
      );
      reply.header("cache-control", "no-store");
      return { message: TWO_FACTOR_MESSAGES.enabled };
    },
  });

  signedIn.post("/api/account/two-factor/backup-codes", {
    summary: "Remplacer mes codes de secours (mot de passe exigé) : les anciens ne fonctionnent plus",
    body: twoFactorPasswordSchema,
    response: { 200: twoFactorCodesSchema, ...passwordErrors, 409: errorBodySchema },
    handler: async (request, reply, actor) => {
      reply.header("cache-control", "no-store");
      const codes = await twoFactor.renewCodes(deps(request), actor, request.body, authHeaders(request));
      return { backup_codes: codes, message: TWO_FACTOR_MESSAGES.codesRenewed };
    },
  });

  signedIn.post("/api/account/two-factor/disable", {
    summary: "Désactiver la double authentification (mot de passe exigé)",
    body: twoFactorPasswordSchema,
    response: { 200: messageSchema, ...passwordErrors, 409: errorBodySchema },
    handler: async (request, reply, actor) => {
      forwardCookies(
        reply,
        await twoFactor.disable(deps(request), actor, request.body, authHeaders(request)),
      );
      reply.header("cache-control", "no-store");
      return { message: TWO_FACTOR_MESSAGES.disabled };
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
