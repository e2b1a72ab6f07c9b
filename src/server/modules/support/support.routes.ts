import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import {
  supportAccessQuerySchema,
  supportAccessSchema,
  supportMessageSchema,
  supportPageQuerySchema,
  supportPageSchema,
  supportUnreadSchema,
} from "../../../shared/schemas/support";
import { getActor } from "../../access/actor";
import { guardedRoutes } from "../../access/route";
import { forbidden, notFound, unauthenticated } from "../../errors";
import { contentDisposition } from "../../http/files";
import { readMultipart } from "../../http/multipart";
import { supportAccessPage, supportPage, supportUnread } from "./support.repo";
import {
  openSupportImage,
  postOwnMessage,
  readTeamAnswers,
  supportFields,
  supportForm,
  supportRoleOf,
} from "./support.service";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * Area guard of the support chat: a patient or a dentist (verified or not: a dentist waiting for
 * verification especially needs help), each on their own thread; 401 signed out, 403 otherwise (the
 * team answers from the admin area).
 */
async function patientOrDentistGuard(request: FastifyRequest, reply: FastifyReply) {
  const actor = await getActor(request, reply);
  if (!actor) throw unauthenticated();
  if (!supportRoleOf(actor)) throw forbidden();
}

/** 'Besoin d'aide ?': a signed-in patient's or dentist's own thread with the team (issues 7, 16). */
export async function supportRoutes(app: FastifyInstance): Promise<void> {
  const module = { tags: ["support"], errors };
  const patientOrDentist = guardedRoutes(app, patientOrDentistGuard, module);
  const signedIn = guardedRoutes(app, "signed-in", module);
  const deps = () => ({ db: app.db, storage: app.storage, bus: app.bus, clock: app.clock });

  patientOrDentist.get("/api/support/messages", {
    summary: "Mes échanges avec l'équipe (les plus anciens d'abord)",
    querystring: supportPageQuerySchema,
    response: { 200: supportPageSchema },
    handler: async (request, _reply, actor) => {
      const page = await supportPage(app.db, actor.userId, request.query);
      return { items: page.items, has_more: page.hasMore };
    },
  });

  patientOrDentist.post("/api/support/messages", {
    summary:
      "Écrire à l'équipe (multipart : body et/ou une image `image`, JPG ou PNG, 10 Mo ; `request_id` : la demande dont il s'agit)",
    consumes: ["multipart/form-data"],
    response: {
      201: supportMessageSchema,
      400: errorBodySchema,
      413: errorBodySchema,
      415: errorBodySchema,
    },
    handler: async (request, reply, actor) => {
      // A person the support chat is not for is refused before the form is read.
      if (!supportRoleOf(actor)) throw forbidden();
      const form = await readMultipart(request, app.storage, supportForm(actor));
      const message = await form.use(supportFields, (fields, [image]) =>
        postOwnMessage(deps(), actor, fields, image),
      );
      return reply.status(201).send(message);
    },
  });

  patientOrDentist.post("/api/support/read", {
    summary: "Marquer comme lues les réponses de l'équipe",
    response: { 200: z.object({ read: z.number() }) },
    handler: async (_request, _reply, actor) => {
      return { read: await readTeamAnswers(deps(), actor) };
    },
  });

  patientOrDentist.get("/api/support/unread", {
    summary: "Combien de réponses de l'équipe je n'ai pas encore lues",
    response: { 200: supportUnreadSchema },
    handler: async (_request, _reply, actor) => ({ unread: await supportUnread(app.db, actor.userId) }),
  });

  patientOrDentist.get("/api/support/access", {
    summary: "Quand l'équipe a ouvert mon fil d'aide ou ses images : une page, les plus récents d'abord",
    querystring: supportAccessQuerySchema,
    response: { 200: supportAccessSchema },
    handler: async (request, reply, actor) => {
      reply.header("cache-control", "no-store");
      return supportAccessPage(app.db, actor.userId, request.query.page);
    },
  });

  signedIn.get("/api/support/messages/:id/image", {
    summary: "L'image d'un message d'assistance (l'auteur du fil et les administrateurs)",
    params: z.object({ id: z.string() }),
    compress: false,
    handler: async (request, reply, actor) => {
      const found = await openSupportImage(deps(), actor, request.params.id);
      if (!found) throw notFound("Image introuvable.");
      const { row, size } = found;
      return reply
        .header("content-type", row.image_type ?? "application/octet-stream")
        .header("content-length", size)
        .header(
          "content-disposition",
          contentDisposition("inline", row.image_name ?? "image", row.image_type),
        )
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; img-src 'self'; frame-ancestors 'self'")
        .send(app.storage.read(row.image_key) as never);
    },
  });
}
