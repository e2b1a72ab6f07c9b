import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  adminSubscriptionsQuerySchema,
  adminSubscriptionsSchema,
  planInputSchema,
  redirectSchema,
  subscriptionPageSchema,
  subscriptionSummarySchema,
} from "../../../shared/schemas/billing";
import { errorBodySchema } from "../../../shared/schemas/common";
import { guardedRoutes } from "../../access/route";
import {
  adminSubscriptions,
  type BillingDeps,
  cancelPlanChange,
  handleWebhook,
  openPortal,
  schedulePlanChange,
  setCancellation,
  startCheckout,
  subscriptionPage,
} from "./billing.service";
import { WEBHOOK_PATH } from "./runtime";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function billingDeps(request: FastifyRequest): BillingDeps {
  const app = request.server;
  return {
    db: app.db,
    mailer: app.mailer,
    config: app.config,
    clock: app.clock,
    log: request.log,
    provider: () => app.billing.provider(),
    storage: app.storage,
  };
}

/** Dentists' subscription (issue 35, ADR 044): the Abonnement page, the provider's webhook, the admin list. */
export async function billingRoutes(app: FastifyInstance): Promise<void> {
  const module = { tags: ["abonnement"], errors };
  const dentist = guardedRoutes(app, "dentist", module);
  const admin = guardedRoutes(app, "admin", module);
  const changed = z.object({ subscription: subscriptionSummarySchema, message: z.string() });

  dentist.get("/api/dentist/subscription", {
    summary: "Mon abonnement : état, formules (HT, TVA, TTC), prochain paiement",
    response: { 200: subscriptionPageSchema },
    handler: async (request, _reply, actor) => subscriptionPage(billingDeps(request), actor),
  });

  dentist.post("/api/dentist/subscription/checkout", {
    summary: "S'abonner : l'adresse de la page de paiement (carte ou prélèvement SEPA)",
    body: planInputSchema,
    response: { 200: redirectSchema, 400: errorBodySchema, 409: errorBodySchema, 503: errorBodySchema },
    handler: async (request, _reply, actor) => ({
      url: await startCheckout(billingDeps(request), actor, request.body.plan),
    }),
  });

  dentist.post("/api/dentist/subscription/portal", {
    summary: "Gérer mon moyen de paiement : l'adresse du portail du prestataire",
    response: { 200: redirectSchema, 409: errorBodySchema, 503: errorBodySchema },
    handler: async (request, _reply, actor) => ({ url: await openPortal(billingDeps(request), actor) }),
  });

  dentist.post("/api/dentist/subscription/cancel", {
    summary: "Résilier mon abonnement à la fin de la période payée",
    response: { 200: changed, 409: errorBodySchema, 503: errorBodySchema },
    handler: async (request, _reply, actor) => setCancellation(billingDeps(request), actor, true),
  });

  dentist.post("/api/dentist/subscription/reactivate", {
    summary: "Réactiver mon abonnement résilié avant la fin de la période payée",
    response: { 200: changed, 409: errorBodySchema, 503: errorBodySchema },
    handler: async (request, _reply, actor) => setCancellation(billingDeps(request), actor, false),
  });

  dentist.post("/api/dentist/subscription/plan", {
    summary: "Changer de formule à la fin de la période payée (rien n'est prélevé avant)",
    body: planInputSchema,
    response: { 200: changed, 400: errorBodySchema, 409: errorBodySchema, 503: errorBodySchema },
    handler: async (request, _reply, actor) =>
      schedulePlanChange(billingDeps(request), actor, request.body.plan),
  });

  dentist.delete("/api/dentist/subscription/plan", {
    summary: "Annuler le changement de formule prévu",
    response: { 200: changed, 409: errorBodySchema, 503: errorBodySchema },
    handler: async (request, _reply, actor) => cancelPlanChange(billingDeps(request), actor),
  });

  admin.get("/api/admin/subscriptions", {
    summary: "Abonnements : nombre par état, revenu mensuel récurrent HT, liste (recherche, pages)",
    querystring: adminSubscriptionsQuerySchema,
    response: { 200: adminSubscriptionsSchema, 400: errorBodySchema },
    handler: async (request) => adminSubscriptions(billingDeps(request), request.query),
  });

  // The provider's webhook: public (its signature is the proof), the raw body as it was signed.
  await app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "buffer", bodyLimit: 512 * 1024 },
      (_req, body, done) => done(null, body),
    );
    scope.post(
      WEBHOOK_PATH,
      {
        schema: {
          tags: ["abonnement"],
          summary: "Webhook du prestataire de paiement (signé ; chaque événement appliqué une fois)",
          response: { 200: z.object({ received: z.boolean() }), 400: errorBodySchema },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers["stripe-signature"];
        await handleWebhook(
          billingDeps(request),
          body,
          typeof signature === "string" ? signature : undefined,
        );
        return { received: true };
      },
    );
  });
}
