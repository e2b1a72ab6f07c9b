import type { FastifyInstance } from "fastify";
import { ZipFile } from "yazl";
import { z } from "zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import { recordDocumentAccess } from "../../access/audit";
import { findReadableDocument, findReadableRequestDocuments } from "../../access/documents";
import { guardedRoutes } from "../../access/route";
import { notFound } from "../../errors";
import { servedFileName, uniqueName } from "../../files/names";
import { sendPrivateFile, storedFileSize, VIEWER_CSP } from "../../http/files";

/** A patient document, streamed through an authorised route; never a public URL (ADR 005). */
export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const module = { tags: ["documents"], errors: { 401: errorBodySchema, 404: errorBodySchema } };
  const dentist = guardedRoutes(app, "dentist", module);
  const signedIn = guardedRoutes(app, "signed-in", module);
  signedIn.get("/api/documents/:id/file", {
    summary: "Ouvrir (inline) ou télécharger un document d'une demande",
    params: z.object({ id: z.uuid({ error: "Document introuvable." }) }),
    querystring: z.object({
      disposition: z.enum(["inline", "attachment"]).optional().default("attachment"),
    }),
    // Streamed as stored; PDFs and images gain nothing from compression.
    compress: false,
    handler: async (request, reply, actor) => {
      const document = await findReadableDocument(app.db, actor, request.params.id);
      if (!document) throw notFound("Document introuvable.");
      const size = await storedFileSize(
        app.storage,
        document.storage_key,
        request.log,
        { documentId: document.id },
        () => notFound("Document introuvable."),
      );
      const disposition = request.query.disposition;
      if (document.owner_id !== actor.userId) {
        await recordDocumentAccess(app.db, actor, document, disposition === "inline" ? "view" : "download");
      }
      return sendPrivateFile(reply, app.storage.read(document.storage_key), {
        type: document.mime_type,
        name: document.file_name,
        disposition,
        size,
        csp: VIEWER_CSP,
      });
    },
  });

  dentist.get("/api/dentist/requests/:id/documents.zip", {
    summary: "'Tout télécharger' : tous les documents d'une demande dans une archive zip",
    params: z.object({ id: z.uuid({ error: "Demande introuvable." }) }),
    compress: false,
    handler: async (request, reply, actor) => {
      const found = await findReadableRequestDocuments(app.db, actor, request.params.id);
      if (!found || found.documents.length === 0) throw notFound("Demande introuvable.");
      const sizes = await Promise.all(found.documents.map((d) => app.storage.size(d.storage_key)));
      const present = found.documents.filter((_, i) => sizes[i] !== null);
      if (present.length < found.documents.length)
        request.log.error({ requestId: found.request.id }, "fichier absent du stockage");
      if (present.length === 0) throw notFound("Demande introuvable.");
      // Recorded before streaming: the patient sees each document as downloaded (ADR 005).
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
      return sendPrivateFile(reply, zip.outputStream, {
        type: "application/zip",
        name: `documents-${found.request.id.slice(0, 8)}.zip`,
        disposition: "attachment",
      });
    },
  });
}
