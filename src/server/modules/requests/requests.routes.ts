import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { journeyOf } from "../../../shared/domain/journey";
import { DASHBOARD_LIST_SIZE } from "../../../shared/domain/limits";
import type { RequestStatus, Urgency } from "../../../shared/domain/requests";
import type { TreatmentType } from "../../../shared/domain/treatments";
import { mayCancelRequest, mayDeleteRequest } from "../../../shared/policies/requests";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import {
  CONSENT_MESSAGES,
  patientDashboardSchema,
  REQUEST_NOT_FOUND,
  requestCreatedSchema,
  requestDetailSchema,
  requestFieldsSchema,
  requestListQuerySchema,
  requestListSchema,
  UPLOAD_MESSAGES,
  verifiedDentistListSchema,
  verifiedDentistQuerySchema,
} from "../../../shared/schemas/requests";
import { actorOf, requireArea } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { AppError, loggableError, notFound } from "../../errors";
import { readMultipart } from "../../http/multipart";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { patientOffersRepo } from "../offers/offers.repo";
import { sortDentists, withDistance } from "../profiles/distance";
import { patientQuotesRepo } from "../quotes/quotes.repo";
import { listVerifiedDentists, patientRequestsRepo } from "./requests.repo";
import { createRequest, requestForm } from "./requests.service";

const NOT_FOUND = REQUEST_NOT_FOUND;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A request's summary with its journey at `now` (ADR 016). */
export function summary(
  row: {
    id: string;
    treatment_type: string;
    status: string;
    urgency: string;
    created_at: Date | string;
    document_count: number;
    open_offers: number;
    appointment_status: "pending" | "confirmed" | null;
    appointment_starts_at: Date | string | null;
  },
  now: Date,
) {
  const appointment = row.appointment_status
    ? { status: row.appointment_status, starts_at: row.appointment_starts_at }
    : null;
  return {
    id: row.id,
    treatment_type: row.treatment_type as TreatmentType,
    status: row.status as RequestStatus,
    urgency: row.urgency as Urgency,
    created_at: new Date(row.created_at).toISOString(),
    document_count: row.document_count,
    journey: journeyOf({ id: row.id, status: row.status, open_offers: row.open_offers, appointment }, now),
  };
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The patient's requests (spec §2 patient screens): only ever the caller's own. */
export async function requestRoutes(app: FastifyInstance): Promise<void> {
  // Responses written by compiled serializers: only the schema's fields (plugins/fast-serializer.ts).
  app.setSerializerCompiler(fastSerializerCompiler);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const patient = requireArea("patient");
  const idParams = z.object({ id: z.string() });
  const repo = async (request: Parameters<typeof actorOf>[0], reply: Parameters<typeof actorOf>[1]) =>
    patientRequestsRepo(app.db, await actorOf(request, reply), app.clock());

  r.get(
    "/api/patient/dashboard",
    {
      schema: {
        tags: ["patient"],
        summary: "Compteurs et dernières demandes du patient",
        response: { 200: patientDashboardSchema, ...errors },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const { counts, recent } = await (await repo(request, reply)).dashboard(DASHBOARD_LIST_SIZE);
      return {
        counts: { ...counts, latest_at: iso(counts.latest_at) },
        recent: recent.map((row) => summary(row, app.clock())),
      };
    },
  );

  r.get(
    "/api/patient/requests",
    {
      schema: {
        tags: ["patient"],
        summary: "Mes demandes, les plus récentes d'abord (recherche par traitement ou statut)",
        querystring: requestListQuerySchema,
        response: { 200: requestListSchema, ...errors },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const { search, page, page_size } = request.query;
      const { items, total } = await (await repo(request, reply)).list({ search, page, pageSize: page_size });
      return { items: items.map((row) => summary(row, app.clock())), total, page, page_size };
    },
  );

  r.post(
    "/api/patient/requests",
    {
      schema: {
        tags: ["patient"],
        summary: "Créer une demande avec ses documents (multipart)",
        description:
          "multipart/form-data : treatment_type (obligatoire), description, budget, quote_amount (euros), quote_lines (tableau JSON des lignes du devis : code, act, tooth, fee_cents), urgency (high|medium|low), recipient ('all' ou l'id d'un dentiste vérifié), consent ('true'), document_types (tableau JSON, un type par fichier : xray|quote|photo|other), puis un ou plusieurs fichiers `files` (10 Mo chacun, 10 au plus).",
        consumes: ["multipart/form-data"],
        response: { 201: requestCreatedSchema, ...errors, 413: errorBodySchema, 415: errorBodySchema },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const form = await readMultipart(request, app.storage, requestForm(actor.userId));
      const deps = { db: app.db, brandName: app.config.brandName, clock: app.clock };
      const id = await form.use(requestFieldsSchema, (input, files) =>
        createRequest(deps, actor, input, files),
      );
      // A devis queued for reading (issue 17) is read off the request path.
      app.readings.wake();
      // The dentists' "À faire" counters follow live (the event carries nothing but its kind).
      void app.bus.publish({ kind: "requests" }).catch(() => {});
      return reply.status(201).send({ id, message: UPLOAD_MESSAGES.success });
    },
  );

  r.get(
    "/api/patient/requests/:id",
    {
      schema: {
        tags: ["patient"],
        summary: "Le détail d'une de mes demandes, ses documents et qui les a consultés",
        params: idParams,
        response: { 200: requestDetailSchema, ...errors },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const requests = await repo(request, reply);
      const id = request.params.id;
      const row = z.uuid().safeParse(id).success ? await requests.find(id) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      const actor = await actorOf(request, reply);
      const [documents, accessLog, replies, offers, quoteLines] = await Promise.all([
        requests.documents(id),
        requests.accessLog(id),
        requests.replies(id),
        patientOffersRepo(app.db, actor).onRequest(id, app.clock()),
        patientQuotesRepo(app.db, actor).lines(id),
      ]);
      return {
        ...summary(row, app.clock()),
        description: row.description,
        budget: row.budget,
        quote_amount_cents: row.quote_amount_cents,
        quote_lines: quoteLines,
        updated_at: new Date(row.updated_at).toISOString(),
        recipient: row.recipient_dentist_id
          ? {
              id: row.recipient_dentist_id,
              full_name: row.recipient_name ?? "",
              city: row.recipient_city ?? null,
            }
          : null,
        documents: documents.map((d) => ({
          id: d.id,
          file_name: d.file_name,
          size: d.size,
          mime_type: d.mime_type,
          document_type: d.document_type as "xray" | "quote" | "photo" | "other",
          created_at: new Date(d.created_at).toISOString(),
        })),
        replies: replies.map((r) => ({
          conversation_id: r.conversation_id,
          dentist: { id: r.dentist_id, full_name: r.full_name, city: r.city, avatar_url: r.avatar_url },
          message: r.body,
          created_at: new Date(r.created_at).toISOString(),
        })),
        offers,
        consent: {
          version: row.consent_version,
          text: row.consent_text,
          given_at: new Date(row.consent_at).toISOString(),
          withdrawn_at: row.consent_withdrawn_at ? new Date(row.consent_withdrawn_at).toISOString() : null,
        },
        access_log: accessLog.map((a) => ({
          id: a.id,
          document_id: a.document_id,
          document_name: a.document_name,
          actor_name: a.actor_name,
          actor_kind: a.actor_kind,
          action: a.action,
          created_at: new Date(a.created_at).toISOString(),
        })),
      };
    },
  );

  r.post(
    "/api/patient/requests/:id/cancel",
    {
      schema: {
        tags: ["patient"],
        summary: "Annuler une de mes demandes (tant qu'elle n'est pas terminée)",
        params: idParams,
        response: {
          200: z.object({ id: z.string(), status: z.literal("cancelled") }),
          ...errors,
          409: errorBodySchema,
        },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const requests = await repo(request, reply);
      const id = request.params.id;
      const row = z.uuid().safeParse(id).success ? await requests.find(id) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      // The policy, then a conditional update so that a concurrent change cannot slip between them.
      const cancelled = mayCancelRequest(row.status) ? await requests.cancel(id) : undefined;
      if (!cancelled) {
        throw new AppError(
          409,
          "CONFLICT",
          "Cette demande est terminée ou déjà annulée : elle ne peut plus être annulée.",
        );
      }
      return { id, status: "cancelled" as const };
    },
  );

  r.post(
    "/api/patient/requests/:id/consent/withdraw",
    {
      schema: {
        tags: ["patient"],
        summary:
          "Retirer mon consentement au partage d'une demande ouverte : elle est fermée aux dentistes (annulée)",
        params: idParams,
        response: {
          200: z.object({ id: z.string(), status: z.literal("cancelled"), message: z.string() }),
          ...errors,
          409: errorBodySchema,
        },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const requests = patientRequestsRepo(app.db, actor);
      const id = request.params.id;
      const row = z.uuid().safeParse(id).success ? await requests.find(id) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      const cancelled = mayCancelRequest(row.status)
        ? await requests.cancel(id, { withdrawConsent: true })
        : undefined;
      if (!cancelled) throw new AppError(409, "CONFLICT", CONSENT_MESSAGES.notOpen);
      await writeAudit(app.db, {
        actorId: actor.userId,
        action: "request.consent_withdrawn",
        subjectType: "request",
        subjectId: id,
      });
      return { id, status: "cancelled" as const, message: CONSENT_MESSAGES.withdrawn };
    },
  );

  r.delete(
    "/api/patient/requests/:id",
    {
      schema: {
        tags: ["patient"],
        summary: "Supprimer une de mes demandes, ses documents et ses échanges (sauf proposition acceptée)",
        params: idParams,
        response: { 200: messageSchema, ...errors, 409: errorBodySchema },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const requests = patientRequestsRepo(app.db, actor);
      const id = request.params.id;
      const row = z.uuid().safeParse(id).success ? await requests.find(id) : undefined;
      if (!row) throw notFound(NOT_FOUND);
      const keys = await requests.remove(id, mayDeleteRequest);
      if (!keys) {
        throw new AppError(
          409,
          "CONFLICT",
          "Vous avez accepté une proposition sur cette demande : elle est gardée pour le dossier du dentiste choisi.",
        );
      }
      await writeAudit(app.db, {
        actorId: actor.userId,
        action: "request.deleted",
        subjectType: "request",
        subjectId: id,
        details: { files: keys.length },
      });
      // Rows first (committed), files after: a file that fails here is swept later (no row names it).
      for (const key of keys)
        await app.storage.remove(key).catch((error) => {
          request.log.error({ err: loggableError(error) }, "fichier d'une demande supprimée non effacé");
        });
      return { message: "Demande supprimée, avec ses documents et ses échanges." };
    },
  );

  r.get(
    "/api/dentists/verified",
    {
      schema: {
        tags: ["patient"],
        summary:
          "Les dentistes vérifiés à qui adresser une demande (par nom ; sort=distance : les plus proches d'abord)",
        querystring: verifiedDentistQuerySchema,
        response: { 200: verifiedDentistListSchema, ...errors },
      },
      onRequest: patient,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const rows = await listVerifiedDentists(app.db);
      const items = rows.map((row) => withDistance(row, actor.profile.postal_code));
      return { items: sortDentists(items, request.query.sort) };
    },
  );
}
