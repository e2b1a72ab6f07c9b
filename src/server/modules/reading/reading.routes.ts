import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { ERROR_CODES, errorBodySchema } from "../../../shared/schemas/common";
import {
  DOCUMENT_MESSAGES,
  documentTypeSavedSchema,
  documentTypeUpdateSchema,
} from "../../../shared/schemas/documents";
import { quoteReadingSchema, READING_MESSAGES, readingResponseSchema } from "../../../shared/schemas/reading";
import { REQUEST_NOT_FOUND } from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import { requireVisible } from "../../access/guards";
import { isUuid } from "../../access/objects";
import { guardedRoutes } from "../../access/route";
import { AppError, notFound } from "../../errors";
import { readingService } from "./reading.service";
import { readAll } from "./runner";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The status logged for a request its client closed before the answer (nginx's convention). */
const CLIENT_CLOSED = 499;

/**
 * Aborted when the client goes away before its answer is sent (the page left, the connection cut):
 * a preview nobody waits for leaves the preview process's queue, or is stopped there, and the next
 * person's preview or avatar does not wait behind it.
 */
function clientLeft(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const closed = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error("le client est parti"));
  };
  // Gone already (while the page was fetched from storage): its "close" has been emitted.
  if (reply.raw.destroyed) closed();
  else reply.raw.once("close", closed);
  return controller.signal;
}

/** Readings a patient may ask for in an hour (re-reads and retries; an upload's own reading aside). */
export const READ_AGAIN_PER_HOUR = 10;

/**
 * The reading of the patient's devis (issue 17), patient area only: the request's latest reading,
 * a re-read or retry, a document's type corrected (issue 34: made a devis, it is read), "je saisis
 * moi-même", and the preview of a page read. Another person's
 * request or reading answers 404, like a missing one. Confirming the lines read is PUT …/quote with
 * `reading_id` (modules/quotes).
 */
export async function readingRoutes(app: FastifyInstance): Promise<void> {
  const patient = guardedRoutes(app, "patient", { tags: ["patient"], errors });
  const service = (actor: Actor) => readingService({ db: app.db, storage: app.storage }, actor);
  const requestId = (id: string) => {
    if (!isUuid(id)) throw notFound(REQUEST_NOT_FOUND);
    return id;
  };
  const visible = requireVisible("request", REQUEST_NOT_FOUND);
  const readingId = (id: string) => {
    if (!isUuid(id)) throw notFound(READING_MESSAGES.readingNotFound);
    return id;
  };
  // Per patient, counted in the database like the other limits (plugins/rate-limit-store.ts): a
  // reading costs seconds of a process, a loop of re-reads must not keep it busy.
  const readLimit = app.rateLimit({
    max: READ_AGAIN_PER_HOUR,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: async (request) => `reading:${(await request.actorPromise)?.userId ?? request.ip}`,
    errorResponseBuilder: () => new AppError(429, ERROR_CODES.rateLimited, READING_MESSAGES.tooManyReadings),
  });

  patient.get("/api/patient/requests/:id/reading", {
    summary: "La dernière lecture du devis d'une de mes demandes (lignes lues à vérifier), ou null",
    params: z.object({ id: z.string() }),
    response: { 200: readingResponseSchema },
    handler: async (request, _reply, actor) => ({
      reading: await service(actor).latest(requestId(request.params.id)),
    }),
  });

  patient.post("/api/patient/requests/:id/documents/:documentId/read", {
    summary: "Lire (ou relire) un devis de ma demande : la lecture se fait en arrière-plan",
    params: z.object({ id: z.string(), documentId: z.string() }),
    response: {
      202: z.object({ reading: quoteReadingSchema }),
      400: errorBodySchema,
      409: errorBodySchema,
      429: errorBodySchema,
    },
    preValidation: async (request, reply) => {
      await readLimit.call(app, request, reply);
    },
    handler: async (request, reply, actor) => {
      const readings = service(actor);
      const id = requestId(request.params.id);
      // Any id that is not a document of this request: the same answer as a document that cannot be read.
      const documentId = isUuid(request.params.documentId)
        ? request.params.documentId
        : "00000000-0000-0000-0000-000000000000";
      const reading = await readings.readAgain(id, documentId);
      app.readings.wake();
      return reply.status(202).send({ reading });
    },
  });

  patient.patch("/api/patient/requests/:id/documents/:documentId", {
    summary:
      "Corriger le type d'un document de ma demande (Devis, Radiographie, Photo, Autre) ; un devis est alors lu",
    params: z.object({ id: z.string(), documentId: z.string() }),
    body: documentTypeUpdateSchema,
    response: { 200: documentTypeSavedSchema, 400: errorBodySchema, 429: errorBodySchema },
    // Anyone else's request: 404 before the body is looked at. A document made a devis is read: it
    // counts with the re-reads (a loop of type changes must not keep the reading process busy either).
    preValidation: async (request, reply) => {
      await visible(request, reply);
      if ((request.body as { type?: unknown } | undefined)?.type === "quote")
        await readLimit.call(app, request, reply);
    },
    handler: async (request, _reply, actor) => {
      const documentId = request.params.documentId;
      if (!isUuid(documentId)) throw notFound(DOCUMENT_MESSAGES.notFound);
      const { document, reading } = await service(actor).changeDocumentType(
        requestId(request.params.id),
        documentId,
        request.body.type,
      );
      if (reading) app.readings.wake();
      return {
        document,
        reading,
        message: reading
          ? DOCUMENT_MESSAGES.typeSavedReading
          : DOCUMENT_MESSAGES.typeSaved(request.body.type),
      };
    },
  });

  patient.post("/api/patient/requests/:id/reading/:readingId/dismiss", {
    summary: "Fermer la lecture du devis : je saisis ses lignes moi-même",
    params: z.object({ id: z.string(), readingId: z.string() }),
    response: { 200: z.object({ reading: quoteReadingSchema, message: z.string() }) },
    handler: async (request, _reply, actor) => {
      const readings = service(actor);
      const reading = await readings.dismiss(
        requestId(request.params.id),
        readingId(request.params.readingId),
        app.clock(),
      );
      return { reading, message: READING_MESSAGES.dismissed };
    },
  });

  patient.get("/api/patient/requests/:id/reading/:readingId/pages/:page", {
    summary: "L'aperçu (PNG) d'une page lue du devis, à côté des lignes à vérifier",
    params: z.object({ id: z.string(), readingId: z.string(), page: z.string() }),
    // A PNG gains little from compression.
    compress: false,
    handler: async (request, reply, actor) => {
      const readings = service(actor);
      const id = requestId(request.params.id);
      const reading = readingId(request.params.readingId);
      const page = /^[1-9][0-9]{0,2}$/.test(request.params.page) ? Number(request.params.page) : 0;
      if (page === 0) throw notFound(READING_MESSAGES.readingNotFound);
      const source = await readings.pageSource(id, reading, page);
      const data = await readAll(app.storage.read(source.key), MAX_FILE_SIZE);
      let png: Buffer;
      const left = clientLeft(reply);
      try {
        // In the preview's own bounded process (runner.ts, sandbox.ts): capped in pixels and time.
        png = await app.readings.preview(data, source.mime, page, left);
      } catch (error) {
        // Nobody to answer: 499, as a proxy logs a client that closed its request.
        if (left.aborted) return reply.code(CLIENT_CLOSED).send();
        // A page the renderer cannot find, or cannot render (too large, damaged, out of time): 404
        // with the reading's French message, as for a page out of range.
        if (error instanceof Error && error.name === "ReadingError") throw notFound(error.message);
        throw error;
      }
      return reply
        .header("content-type", "image/png")
        .header("content-length", png.length)
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .send(png as never);
    },
  });
}
