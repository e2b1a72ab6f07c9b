import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { CONSENT_VERSION, consentText } from "../../../shared/domain/consent";
import { DASHBOARD_LIST_SIZE } from "../../../shared/domain/limits";
import { mayCancelRequest, mayDeleteRequest } from "../../../shared/policies/requests";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import {
  ACCESS_LOG_PAGE_SIZE,
  accessLogPageSchema,
  accessLogQuerySchema,
  CONSENT_MESSAGES,
  OPEN_TO_ALL_MESSAGES,
  openToAllBodySchema,
  patientDashboardSchema,
  REQUEST_NOT_FOUND,
  requestListQuerySchema,
  requestListSchema,
  verifiedDentistListSchema,
  verifiedDentistQuerySchema,
} from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import { requireVisible } from "../../access/guards";
import { guardedRoutes } from "../../access/route";
import { AppError, notFound } from "../../errors";
import { sortDentists, withDistance } from "../../geo/distance";
import { useCaseDeps } from "../../http/deps";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { loggableError } from "../../redact";
import { announceOpenRequests, announceRequestChange } from "./request.events";
import { listVerifiedDentists, patientRequestsRepo } from "./requests.repo";
import { accessLogItem, tellDentistsOfCancellation } from "./requests.service";
import { summary } from "./summary";

const NOT_FOUND = REQUEST_NOT_FOUND;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The patient's requests (the patient area's screens): only ever the caller's own. */
export async function requestRoutes(app: FastifyInstance): Promise<void> {
  // Responses written by compiled serializers: only the schema's fields (plugins/fast-serializer.ts).
  app.setSerializerCompiler(fastSerializerCompiler);
  const patient = guardedRoutes(app, "patient", { tags: ["patient"], errors });
  const idParams = z.object({ id: z.string() });
  const repo = (actor: Actor) => patientRequestsRepo(app.db, actor, app.clock());
  /** One of the caller's own requests by the id in the path, else 404 (anyone else's too). */
  const ownRequest = async (actor: Actor, id: string) => {
    const requests = patientRequestsRepo(app.db, actor, app.clock());
    const row = z.uuid().safeParse(id).success ? await requests.find(id) : undefined;
    if (!row) throw notFound(NOT_FOUND);
    return { requests, id, row };
  };

  patient.get("/api/patient/dashboard", {
    summary: "Compteurs et dernières demandes du patient",
    response: { 200: patientDashboardSchema },
    handler: async (_request, _reply, actor) => {
      const { counts, recent } = await repo(actor).dashboard(DASHBOARD_LIST_SIZE);
      return {
        counts: { ...counts, latest_at: iso(counts.latest_at) },
        recent: recent.map((row) => summary(row, app.clock())),
      };
    },
  });

  patient.get("/api/patient/requests", {
    summary: "Mes demandes, les plus récentes d'abord (recherche par traitement ou statut)",
    querystring: requestListQuerySchema,
    response: { 200: requestListSchema },
    handler: async (request, _reply, actor) => {
      const { search, page, page_size } = request.query;
      const { items, total } = await repo(actor).list({ search, page, pageSize: page_size });
      return { items: items.map((row) => summary(row, app.clock())), total, page, page_size };
    },
  });

  patient.get("/api/patient/requests/:id/access-log", {
    summary: "Qui a consulté une de mes demandes et ses documents : une page, les plus récents d'abord",
    params: idParams,
    querystring: accessLogQuerySchema,
    response: { 200: accessLogPageSchema },
    handler: async (request, _reply, actor) => {
      const { requests, id } = await ownRequest(actor, request.params.id);
      const { page } = request.query;
      const { rows, hasMore } = await requests.accessLog(id, page);
      return { items: rows.map(accessLogItem), page, page_size: ACCESS_LOG_PAGE_SIZE, has_more: hasMore };
    },
  });

  patient.post("/api/patient/requests/:id/cancel", {
    summary: "Annuler une de mes demandes (tant qu'elle n'est pas terminée)",
    params: idParams,
    response: {
      200: z.object({ id: z.string(), status: z.literal("cancelled") }),
      409: errorBodySchema,
    },
    handler: async (request, _reply, actor) => {
      const { requests, id, row } = await ownRequest(actor, request.params.id);
      // The policy, then a conditional update so that a concurrent change cannot slip between them.
      const cancelled = mayCancelRequest(row.status) ? await requests.cancel(id) : undefined;
      if (!cancelled) {
        throw new AppError(
          409,
          "CONFLICT",
          "Cette demande est terminée ou déjà annulée : elle ne peut plus être annulée.",
        );
      }
      tellDentistsOfCancellation(useCaseDeps(request), [
        {
          id,
          treatment_type: row.treatment_type,
          closedOffersOf: cancelled.closedOffersOf,
          patientId: actor.userId,
        },
      ]);
      return { id, status: "cancelled" as const };
    },
  });

  patient.post("/api/patient/requests/:id/open-to-all", {
    summary:
      "Envoyer à tous les dentistes vérifiés une demande ouverte adressée à un seul dentiste (nouveau consentement)",
    params: idParams,
    body: openToAllBodySchema,
    // Someone else's request: 404 before the body is looked at.
    preValidation: requireVisible("request", NOT_FOUND),
    response: {
      200: z.object({ id: z.string(), message: z.string() }),
      409: errorBodySchema,
    },
    handler: async (request, _reply, actor) => {
      const { requests, id } = await ownRequest(actor, request.params.id);
      const consent = {
        version: CONSENT_VERSION,
        text: consentText({ brand: app.config.brandName, dentistName: null }),
      };
      const opened = await requests.openToAll(id, consent);
      if (!opened) throw new AppError(409, "CONFLICT", OPEN_TO_ALL_MESSAGES.notOpen);
      if (opened.changed) {
        // The verified dentists' lists have one more request (no content in the event); the patient's
        // other tabs show it sent to all.
        announceOpenRequests({ bus: app.bus, log: request.log });
        announceRequestChange({ bus: app.bus, log: request.log }, id, [actor.userId]);
      }
      return { id, message: OPEN_TO_ALL_MESSAGES.done };
    },
  });

  patient.post("/api/patient/requests/:id/consent/withdraw", {
    summary:
      "Retirer mon consentement au partage d'une demande ouverte : elle est fermée aux dentistes (annulée)",
    params: idParams,
    response: {
      200: z.object({ id: z.string(), status: z.literal("cancelled"), message: z.string() }),
      409: errorBodySchema,
    },
    handler: async (request, _reply, actor) => {
      const { requests, id, row } = await ownRequest(actor, request.params.id);
      const cancelled = mayCancelRequest(row.status)
        ? await requests.cancel(id, { withdrawConsent: true })
        : undefined;
      if (!cancelled) throw new AppError(409, "CONFLICT", CONSENT_MESSAGES.notOpen);
      tellDentistsOfCancellation(useCaseDeps(request), [
        {
          id,
          treatment_type: row.treatment_type,
          closedOffersOf: cancelled.closedOffersOf,
          patientId: actor.userId,
        },
      ]);
      return { id, status: "cancelled" as const, message: CONSENT_MESSAGES.withdrawn };
    },
  });

  patient.delete("/api/patient/requests/:id", {
    summary: "Supprimer une de mes demandes, ses documents et ses échanges (sauf proposition acceptée)",
    params: idParams,
    response: { 200: messageSchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { requests, id, row } = await ownRequest(actor, request.params.id);
      const removed = await requests.remove(id, mayDeleteRequest);
      if (!removed) {
        throw new AppError(
          409,
          "CONFLICT",
          "Vous avez accepté une proposition sur cette demande : elle est gardée pour le dossier du dentiste choisi.",
        );
      }
      tellDentistsOfCancellation(useCaseDeps(request), [
        {
          id,
          treatment_type: row.treatment_type,
          closedOffersOf: removed.closedOffersOf,
          patientId: actor.userId,
        },
      ]);
      // Rows first (committed), files after: a file that fails here is swept later (no row names it).
      for (const key of removed.keys)
        await app.storage.remove(key).catch((error) => {
          request.log.error({ err: loggableError(error) }, "fichier d'une demande supprimée non effacé");
        });
      return { message: "Demande supprimée, avec ses documents et ses échanges." };
    },
  });

  patient.get("/api/dentists/verified", {
    summary:
      "Les dentistes vérifiés à qui adresser une demande (par nom ; sort=distance : les plus proches d'abord)",
    querystring: verifiedDentistQuerySchema,
    response: { 200: verifiedDentistListSchema },
    handler: async (request, _reply, actor) => {
      const rows = await listVerifiedDentists(app.db, app.clock());
      const items = rows.map((row) => withDistance(row, actor.profile.postal_code));
      return { items: sortDentists(items, request.query.sort) };
    },
  });
}
