import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import { REQUEST_NOT_FOUND, requestDetailSchema } from "../../../shared/schemas/requests";
import { actorOf, requireArea } from "../../access/actor";
import { notFound } from "../../errors";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { patientQuoteLines } from "../quotes/quotes.service";
import { accessLogItem, patientRequestDetail } from "../requests/requests.service";
import { summary } from "../requests/summary";
import { patientOffersRepo } from "./offers.repo";

/**
 * The detail of one of the patient's requests, with what dentists sent on it (replies, offers):
 * it sits above requests and offers, so that a request knows nothing of the offers made on it.
 * Written by a compiled serializer like the other patient routes (plugins/fast-serializer.ts).
 */
export async function requestDetailRoutes(app: FastifyInstance): Promise<void> {
  app.setSerializerCompiler(fastSerializerCompiler);
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/patient/requests/:id",
    {
      schema: {
        tags: ["patient"],
        summary: "Le détail d'une de mes demandes, ses documents et qui les a consultés",
        params: z.object({ id: z.string() }),
        response: {
          200: requestDetailSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
      onRequest: requireArea("patient"),
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const id = request.params.id;
      const detail = z.uuid().safeParse(id).success
        ? await patientRequestDetail(app.db, actor, id, app.clock())
        : undefined;
      if (!detail) throw notFound(REQUEST_NOT_FOUND);
      const { row, documents, accessLog, replies } = detail;
      const [offers, quote] = await Promise.all([
        patientOffersRepo(app.db, actor).onRequest(id, app.clock()),
        patientQuoteLines(app.db, actor, id),
      ]);
      return {
        ...summary(row, app.clock()),
        description: row.description,
        budget: row.budget,
        quote_amount_cents: row.quote_amount_cents,
        quote_lines: quote.lines,
        quote_date: quote.quoteDate,
        updated_at: new Date(row.updated_at).toISOString(),
        recipient: row.recipient_dentist_id
          ? {
              id: row.recipient_dentist_id,
              full_name: row.recipient_name ?? "",
              city: row.recipient_city ?? null,
              taking_requests: row.recipient_taking === true,
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
        access_log: accessLog.rows.map(accessLogItem),
        access_log_has_more: accessLog.hasMore,
      };
    },
  );
}
