import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import {
  CHAT_MESSAGES,
  chatMessageSchema,
  conversationListQuerySchema,
  conversationListSchema,
  messagePageQuerySchema,
  messagePageSchema,
  readResultSchema,
} from "../../../shared/schemas/conversations";
import { recordAccess, writeAudit } from "../../access/audit";
import { guardedRoutes } from "../../access/route";
import { notFound } from "../../errors";
import { contentDisposition } from "../../http/files";
import { readMultipart } from "../../http/multipart";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { conversationsRepo, unreadTotal } from "./conversations.repo";
import { markConversationRead, messageFields, messageForm, sendMessage } from "./conversations.service";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const isUuid = (id: string) => z.uuid().safeParse(id).success;

/** Conversations between patients and dentists (ADR 007), for their two parties only. */
export async function conversationRoutes(app: FastifyInstance): Promise<void> {
  // Responses written by compiled serializers: only the schema's fields (plugins/fast-serializer.ts).
  app.setSerializerCompiler(fastSerializerCompiler);
  const signedIn = guardedRoutes(app, "signed-in", { tags: ["conversations"], errors });
  const params = z.object({ id: z.string() });
  const deps = () => ({ db: app.db, storage: app.storage, bus: app.bus, clock: app.clock });

  signedIn.get("/api/conversations", {
    summary: "Mes conversations, activité la plus récente d'abord (recherche sur le nom, pages par curseur)",
    querystring: conversationListQuerySchema,
    response: { 200: conversationListSchema },
    handler: async (request, _reply, actor) => {
      const { search, cursor, limit } = request.query;
      const page = await conversationsRepo(app.db, actor).listWithUnreadTotal({ search, cursor, limit });
      return { items: page.items, next_cursor: page.nextCursor, unread_total: page.unreadTotal };
    },
  });

  signedIn.get("/api/conversations/:id/messages", {
    summary: "Les messages d'une conversation, les plus anciens d'abord (avant un message donné)",
    params,
    querystring: messagePageQuerySchema,
    response: { 200: messagePageSchema },
    handler: async (request, _reply, actor) => {
      const repo = conversationsRepo(app.db, actor);
      const id = request.params.id;
      const conversation = isUuid(id) ? await repo.find(id) : undefined;
      if (!conversation) throw notFound(CHAT_MESSAGES.notFound);
      const page = await repo.messages(id, request.query);
      return { conversation, items: page.items, has_more: page.hasMore };
    },
  });

  signedIn.post("/api/conversations/:id/messages", {
    summary: "Écrire dans une conversation (multipart : body, et jusqu'à 5 fichiers `files` de 10 Mo)",
    consumes: ["multipart/form-data"],
    params,
    response: {
      201: chatMessageSchema,
      400: errorBodySchema,
      // The other party's account erased (conversations.service).
      409: errorBodySchema,
      413: errorBodySchema,
      415: errorBodySchema,
    },
    handler: async (request, reply, actor) => {
      const id = request.params.id;
      const conversation = isUuid(id) ? await conversationsRepo(app.db, actor).find(id) : undefined;
      if (!conversation) throw notFound(CHAT_MESSAGES.notFound);
      const form = await readMultipart(request, app.storage, messageForm(actor));
      const message = await form.use(messageFields, (fields, files) =>
        sendMessage(deps(), actor, conversation, fields.body, files),
      );
      return reply.status(201).send(message);
    },
  });

  signedIn.post("/api/conversations/:id/read", {
    summary: "Marquer comme lus les messages reçus dans cette conversation",
    params,
    response: { 200: readResultSchema },
    handler: async (request, _reply, actor) => {
      const id = request.params.id;
      if (!isUuid(id)) throw notFound(CHAT_MESSAGES.notFound);
      const read = await markConversationRead(deps(), actor, id);
      return { read, unread_total: await unreadTotal(app.db, actor.userId) };
    },
  });

  signedIn.get("/api/conversations/attachments/:id", {
    summary: "Ouvrir ou télécharger une pièce jointe (les deux interlocuteurs seulement)",
    params,
    querystring: z.object({ disposition: z.enum(["inline", "attachment"]).optional().default("inline") }),
    compress: false,
    handler: async (request, reply, actor) => {
      const id = request.params.id;
      const file = isUuid(id) ? await conversationsRepo(app.db, actor).attachment(id) : undefined;
      if (!file) throw notFound("Pièce jointe introuvable.");
      const size = await app.storage.size(file.storage_key);
      if (size === null) {
        request.log.error({ attachmentId: file.id }, "fichier absent du stockage");
        throw notFound("Pièce jointe introuvable.");
      }
      const disposition = request.query.disposition;
      // Privacy: every opening by the recipient is recorded (who, which file, how); a file the
      // patient sent, opened by the dentist, is also in the patient's access history (issue 14).
      if (file.sender_id !== actor.userId)
        await app.db.transaction().execute(async (trx) => {
          await writeAudit(trx, {
            actorId: actor.userId,
            action: disposition === "inline" ? "attachment.view" : "attachment.download",
            subjectType: "message_attachment",
            subjectId: file.id,
            details: { conversation_id: file.conversation_id },
          });
          if (file.sender_id === file.patient_id)
            await recordAccess(trx, actor, {
              requestId: file.request_id,
              action: disposition === "inline" ? "attachment_view" : "attachment_download",
              objectName: file.file_name,
            });
        });
      return reply
        .header("content-type", file.mime_type)
        .header("content-length", size)
        .header("content-disposition", contentDisposition(disposition, file.file_name, file.mime_type))
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .header(
          "content-security-policy",
          "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
        )
        .send(app.storage.read(file.storage_key) as never);
    },
  });
}
