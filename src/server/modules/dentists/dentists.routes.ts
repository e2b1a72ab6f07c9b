import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { GEO_MESSAGES } from "../../../shared/domain/geo";
import type { DocumentType } from "../../../shared/domain/requests";
import { errorBodySchema } from "../../../shared/schemas/common";
import {
  bulkSetAsideResultSchema,
  bulkSetAsideSchema,
  DENTIST_MESSAGES,
  dentistDashboardSchema,
  dentistRequestDetailSchema,
  dentistRequestListQuerySchema,
  dentistRequestListSchema,
  dentistTodoCountSchema,
  replyResultSchema,
  replySchema,
} from "../../../shared/schemas/dentist";
import type { Actor } from "../../access/actor";
import { foundOr404, pathId, requireVisible } from "../../access/guards";
import { guardedRoutes } from "../../access/route";
import { isoOf } from "../../db/iso";
import { AppError, validationError } from "../../errors";
import { lookupPostalCode, postalCodesWithin } from "../../geo/communes";
import { useCaseDeps } from "../../http/deps";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { dentistQuoteLines } from "../quotes/quotes.service";
import { replyToRequest } from "../requests/reply.service";
import { announceRequestChange } from "../requests/request.events";
import { dentistDashboardScreen, dentistTodoCount } from "./dashboard.service";
import { dentistRequestsRepo } from "./dentists.repo";
import { requestSummary } from "./summary";

const iso = isoOf;
const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The dentist area's requests (the dentist area's screens), bound to the calling dentist. */
export async function dentistRoutes(app: FastifyInstance): Promise<void> {
  // Responses written by compiled serializers: only the schema's fields (plugins/fast-serializer.ts).
  app.setSerializerCompiler(fastSerializerCompiler);
  const dentist = guardedRoutes(app, "dentist", { tags: ["dentist"], errors });
  const idParams = z.object({ id: z.string() });
  /** A request this dentist sees, with his repository; 404 otherwise (as its page says). */
  const seenRequest = async (actor: Actor, id: string) => {
    const repo = dentistRequestsRepo(app.db, actor);
    return { repo, row: await foundOr404(id, repo.find, DENTIST_MESSAGES.notFound) };
  };

  dentist.get("/api/dentist/dashboard", {
    summary: "Tableau de bord du dentiste",
    response: { 200: dentistDashboardSchema },
    handler: async (_request, _reply, actor) => {
      // One round trip (issue 38, ADR 051).
      const screen = await dentistDashboardScreen(app.db, actor);
      const { todo } = screen;
      const summary = (row: Parameters<typeof requestSummary>[0]) =>
        requestSummary(row, actor.profile.practice_postcode);
      return {
        verified: screen.verified,
        pending_count: todo.requests.count,
        todo: { ...todo, requests: { count: todo.requests.count, items: todo.requests.items.map(summary) } },
        response_rate: screen.response_rate,
        unread_messages: screen.unread_messages,
        recent_requests: screen.recent_requests.map(summary),
        recent_messages: screen.recent_messages,
        monthly: screen.monthly,
        average_response_minutes: screen.average_response_minutes,
      };
    },
  });

  dentist.get("/api/dentist/todo-count", {
    summary:
      "Les compteurs du menu : demandes à traiter ('Demandes'), rendez-vous à confirmer ('Rendez-vous')",
    response: { 200: dentistTodoCountSchema },
    handler: async (_request, _reply, actor) => dentistTodoCount(app.db, actor),
  });

  dentist.get("/api/dentist/requests", {
    summary: "Demandes de devis visibles par ce dentiste (recherche, filtres et pages côté serveur)",
    querystring: dentistRequestListQuerySchema,
    response: { 200: dentistRequestListSchema },
    handler: async (request, _reply, actor) => {
      const repo = dentistRequestsRepo(app.db, actor);
      const { search, status, treatment, within_km, page, page_size } = request.query;
      const near = within_km
        ? postalCodesWithin(actor.profile.practice_postcode, Number(within_km))
        : undefined;
      if (near === null)
        throw validationError([{ path: ["within_km"], message: GEO_MESSAGES.distanceFilterUnavailable }]);
      const { items, hasMore, treatments } = await repo.listWithTreatments({
        search,
        status,
        treatment,
        near,
        page,
        pageSize: page_size,
      });
      return {
        items: items.map((row) => requestSummary(row, actor.profile.practice_postcode)),
        page,
        page_size,
        has_more: hasMore,
        treatments,
        verified: repo.verified,
        distance_filter: lookupPostalCode(actor.profile.practice_postcode)?.point != null,
      };
    },
  });

  dentist.get("/api/dentist/requests/:id", {
    summary: "Le détail d'une demande (la marque comme consultée par ce dentiste)",
    params: idParams,
    response: { 200: dentistRequestDetailSchema },
    handler: async (request, _reply, actor) => {
      const { id } = request.params;
      const { repo, row } = await seenRequest(actor, id);
      const [documents, conversationId, quoteLines] = await Promise.all([
        repo.documents(id),
        repo.conversationId(id),
        dentistQuoteLines(app.db, actor, id),
        repo.markOpened(id),
      ]);
      return {
        ...requestSummary(row, actor.profile.practice_postcode),
        description: row.description,
        assigned: row.assigned,
        conversation_id: conversationId,
        quote_lines: quoteLines,
        documents: documents.map((d) => ({
          id: d.id,
          file_name: d.file_name,
          size: d.size,
          mime_type: d.mime_type,
          document_type: d.document_type as DocumentType,
          created_at: iso(d.created_at),
        })),
      };
    },
  });

  dentist.post("/api/dentist/requests/:id/assign", {
    summary: "S'assigner cette demande",
    params: idParams,
    response: { 200: z.object({ message: z.string() }) },
    handler: async (request, _reply, actor) => {
      const { id } = request.params;
      const { repo } = await seenRequest(actor, id);
      await repo.assign(id);
      return { message: DENTIST_MESSAGES.assigned };
    },
  });

  // « Ne pas donner suite » (ADR 091): out of his requests to answer, and back. His other screens
  // reload (lists, counters), never the request's page, whose loading records a view.
  const announceToMe = (request: FastifyRequest, id: string, actor: Actor) =>
    announceRequestChange({ bus: app.bus, log: request.log }, id, [actor.userId]);

  dentist.post("/api/dentist/requests/:id/set-aside", {
    summary: "Écarter cette demande (ne pas donner suite) : elle ne compte plus dans les demandes à traiter",
    params: idParams,
    response: { 200: z.object({ message: z.string() }), 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { id } = request.params;
      const { repo, row } = await seenRequest(actor, id);
      // The patient chose him and waits for him alone: he answers her, even to decline.
      if (row.addressed_to_me) throw new AppError(409, "CONFLICT", DENTIST_MESSAGES.setAsideNamed);
      if (!(await repo.setAside(id))) throw new AppError(409, "CONFLICT", DENTIST_MESSAGES.setAsideAnswered);
      announceToMe(request, id, actor);
      return { message: DENTIST_MESSAGES.setAside };
    },
  });

  dentist.delete("/api/dentist/requests/:id/set-aside", {
    summary: "Remettre cette demande parmi les demandes à traiter",
    params: idParams,
    response: { 200: z.object({ message: z.string() }) },
    handler: async (request, _reply, actor) => {
      const { id } = request.params;
      const { repo } = await seenRequest(actor, id);
      await repo.putBack(id);
      announceToMe(request, id, actor);
      return { message: DENTIST_MESSAGES.putBack };
    },
  });

  dentist.post("/api/dentist/requests/set-aside", {
    summary:
      "Écarter plusieurs demandes à la fois (ou les remettre) : celles qui ne peuvent pas l'être restent telles quelles",
    body: bulkSetAsideSchema,
    response: { 200: bulkSetAsideResultSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { ids, aside } = request.body;
      const repo = dentistRequestsRepo(app.db, actor);
      const changed = aside ? await repo.setAsideMany(ids) : await repo.putBackMany(ids);
      for (const id of changed) announceToMe(request, id, actor);
      return {
        changed,
        message: aside
          ? DENTIST_MESSAGES.setAsideMany(changed.length, ids.length - changed.length)
          : DENTIST_MESSAGES.putBackMany(changed.length),
      };
    },
  });

  dentist.post("/api/dentist/requests/:id/reply", {
    summary: "Répondre à une demande (ouvre la conversation avec le patient)",
    params: idParams,
    body: replySchema,
    response: { 201: replyResultSchema, 400: errorBodySchema, 409: errorBodySchema },
    preValidation: requireVisible("request", DENTIST_MESSAGES.notFound),
    handler: async (request, reply, actor) => {
      const id = pathId(request.params.id, DENTIST_MESSAGES.notFound);
      const { conversationId } = await replyToRequest(useCaseDeps(request), actor, id, request.body.message);
      return reply.status(201).send({ conversation_id: conversationId, message: DENTIST_MESSAGES.replySent });
    },
  });
}
