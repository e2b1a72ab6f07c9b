import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ZipFile } from "yazl";
import { z } from "zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import { actorOf, requireArea } from "../../access/actor";
import { recordDocumentAccess } from "../../access/audit";
import { findReadableDocument, findReadableRequestDocuments } from "../../access/documents";
import { notFound } from "../../errors";
import { contentDisposition, servedFileName, uniqueName } from "../../files/names";

/** A patient document, streamed through an authorised route; never a public URL (decision D10). */
export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/documents/:id/file",
    {
      schema: {
        tags: ["documents"],
        summary: "Ouvrir (inline) ou télécharger un document d'une demande",
        params: z.object({ id: z.uuid({ error: "Document introuvable." }) }),
        querystring: z.object({
          disposition: z.enum(["inline", "attachment"]).optional().default("attachment"),
        }),
        response: { 401: errorBodySchema, 404: errorBodySchema },
      },
      onRequest: requireArea("signed-in"),
      // Streamed as stored; PDFs and images gain nothing from compression.
      compress: false,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const document = await findReadableDocument(app.db, actor, request.params.id);
      if (!document) throw notFound("Document introuvable.");
      const size = await app.storage.size(document.storage_key);
      if (size === null) {
        request.log.error({ documentId: document.id }, "fichier absent du stockage");
        throw notFound("Document introuvable.");
      }
      const disposition = request.query.disposition;
      if (document.owner_id !== actor.userId) {
        await recordDocumentAccess(app.db, actor, document, disposition === "inline" ? "view" : "download");
      }
      return (
        reply
          .header("content-type", document.mime_type)
          .header("content-length", size)
          .header(
            "content-disposition",
            contentDisposition(disposition, document.file_name, document.mime_type),
          )
          .header("cache-control", "private, no-store")
          .header("x-content-type-options", "nosniff")
          // The file itself runs nothing: no scripts, only the browser's own viewers.
          .header(
            "content-security-policy",
            "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
          )
          .send(app.storage.read(document.storage_key) as never)
      );
    },
  );

  r.get(
    "/api/dentist/requests/:id/documents.zip",
    {
      schema: {
        tags: ["documents"],
        summary: "'Tout télécharger' : tous les documents d'une demande dans une archive zip",
        params: z.object({ id: z.uuid({ error: "Demande introuvable." }) }),
        response: { 401: errorBodySchema, 404: errorBodySchema },
      },
      onRequest: requireArea("dentist"),
      compress: false,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const found = await findReadableRequestDocuments(app.db, actor, request.params.id);
      if (!found || found.documents.length === 0) throw notFound("Demande introuvable.");
      const sizes = await Promise.all(found.documents.map((d) => app.storage.size(d.storage_key)));
      const present = found.documents.filter((_, i) => sizes[i] !== null);
      if (present.length < found.documents.length)
        request.log.error({ requestId: found.request.id }, "fichier absent du stockage");
      if (present.length === 0) throw notFound("Demande introuvable.");
      // Recorded before streaming: the patient sees each document as downloaded (D10).
      if (found.request.patient_id !== actor.userId)
        for (const document of present) await recordDocumentAccess(app.db, actor, document, "download");

      const zip = new ZipFile();
      const used = new Set<string>();
      for (const document of present) {
        const name = uniqueName(servedFileName(document.file_name, document.mime_type), used);
        // Stored, not deflated: PDFs and images are already compressed. Opened one at a time.
        zip.addReadStreamLazy(name, { compress: false, mtime: new Date(document.created_at) }, (cb) =>
          cb(null, app.storage.read(document.storage_key)),
        );
      }
      zip.end();
      return reply
        .header("content-type", "application/zip")
        .header(
          "content-disposition",
          contentDisposition(
            "attachment",
            `documents-${found.request.id.slice(0, 8)}.zip`,
            "application/zip",
          ),
        )
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .send(zip.outputStream as never);
    },
  );
}
