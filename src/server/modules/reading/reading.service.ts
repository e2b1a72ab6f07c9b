import type { Kysely } from "kysely";
import { z } from "zod";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import type { DocumentType } from "../../../shared/domain/requests";
import { DOCUMENT_MESSAGES } from "../../../shared/schemas/documents";
import {
  type QuoteReading,
  READING_MESSAGES,
  readingChoiceSchema,
  readResultSchema,
} from "../../../shared/schemas/reading";
import { REQUEST_NOT_FOUND } from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";
import type { Database } from "../../db/types";
import { AppError, notFound } from "../../errors";
import type { Storage } from "../../storage/storage";
import {
  insertReading,
  isReadableMime,
  isReadableQuote,
  patientReadingsRepo,
  type ReadingRow,
} from "./reading.repo";

/**
 * Reading the uploaded devis (issue 17): the use cases behind the patient's routes, and the
 * trigger after an upload. The reading itself runs in the runner (runner.ts), off the request path.
 */

/** The same rule as PUT …/quote: a request's devis can be read (and its lines saved) while it is open. */
export const quoteEditable = (status: string) => status === "new" || status === "in_review";

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** A row as the patient's screens see it ('running' is still "Lecture du devis…": 'pending'). */
export function toQuoteReading(row: ReadingRow): QuoteReading {
  const parsed = row.status === "done" ? readResultSchema.safeParse(row.result) : null;
  return {
    id: row.id,
    request_id: row.request_id,
    document_id: row.document_id,
    file_name: row.file_name,
    // 'not_quote' rows never reach the patient (the repository leaves them out of `latest`).
    status: row.status === "running" || row.status === "not_quote" ? "pending" : row.status,
    kind: row.kind,
    pages: row.pages,
    result: parsed?.success ? parsed.data : null,
    message: row.message,
    created_at: new Date(row.created_at).toISOString(),
    finished_at: iso(row.finished_at),
    confirmed_at: iso(row.confirmed_at),
    dismissed_at: iso(row.dismissed_at),
    choices: z.array(readingChoiceSchema).safeParse(row.choices).data ?? [],
    recognised: row.purpose === "classify",
  };
}

/**
 * After an upload (inside its transaction): when the patient typed no line of their devis, the
 * first document typed 'quote' in a readable format (PDF, JPEG, PNG) is queued for reading; with no
 * document typed 'quote', every readable image and PDF is queued to be classified (issue 34: a phone
 * photo of the devis typed "Photo"), in their order, read one at a time, until a devis is recognised.
 * Returns the reading's id (the first queued), or null when there is nothing to read.
 */
export async function enqueueFirstQuote(
  trx: Kysely<Database>,
  requestId: string,
  documents: ReadonlyArray<{ id: string; document_type: string; mime_type: string; position: number }>,
  typedLines: number,
): Promise<string | null> {
  if (typedLines > 0) return null;
  const ordered = [...documents].sort((a, b) => a.position - b.position);
  const first = ordered.find(isReadableQuote);
  if (first) return (await insertReading(trx, requestId, first.id)).id;
  let id: string | null = null;
  for (const document of ordered.filter((d) => isReadableMime(d.mime_type))) {
    const row = await insertReading(trx, requestId, document.id, "classify");
    id ??= row.id;
  }
  return id;
}

export function readingService(deps: { db: Db; storage: Storage }, actor: Actor) {
  const repo = patientReadingsRepo(deps.db, actor);

  /** The actor's request, else 404 with the request's message. */
  const requireRequest = async (requestId: string) => {
    const request = await repo.request(requestId);
    if (!request) throw notFound(REQUEST_NOT_FOUND);
    return request;
  };
  const requireReading = async (requestId: string, readingId: string) => {
    await requireRequest(requestId);
    const row = await repo.find(requestId, readingId);
    if (!row) throw notFound(READING_MESSAGES.readingNotFound);
    return row;
  };

  return {
    async latest(requestId: string): Promise<QuoteReading | null> {
      await requireRequest(requestId);
      const row = await repo.latest(requestId);
      return row ? toQuoteReading(row) : null;
    },

    /** Queues a (new) reading of a document of the request: a re-read, or a retry after a failure. */
    async readAgain(requestId: string, documentId: string): Promise<QuoteReading> {
      const result = await repo.enqueue(requestId, documentId, quoteEditable);
      if (result === "not_found") throw notFound(REQUEST_NOT_FOUND);
      if (result === "closed") throw new AppError(409, "CONFLICT", READING_MESSAGES.notEditable);
      if (result === "busy") throw new AppError(409, "CONFLICT", READING_MESSAGES.alreadyReading);
      if (result === "not_quote")
        throw new AppError(400, "VALIDATION_ERROR", READING_MESSAGES.notQuote, {
          document_id: READING_MESSAGES.notQuote,
        });
      const row = await repo.find(requestId, result.id);
      if (!row) throw notFound(READING_MESSAGES.readingNotFound);
      return toQuoteReading(row);
    },

    async dismiss(requestId: string, readingId: string, now: Date): Promise<QuoteReading> {
      await requireReading(requestId, readingId);
      await repo.dismiss(requestId, readingId, now);
      return toQuoteReading(await requireReading(requestId, readingId));
    },

    /**
     * Corrects the type of a document of the actor's request (issue 34); typed 'Devis' on an open
     * request without lines, it is queued for reading (the reading then, else null).
     */
    async changeDocumentType(requestId: string, documentId: string, type: DocumentType) {
      const result = await repo.changeDocumentType(requestId, documentId, type, quoteEditable);
      if (result === "no_request") throw notFound(REQUEST_NOT_FOUND);
      if (result === "no_document") throw notFound(DOCUMENT_MESSAGES.notFound);
      const reading = result.readingId ? await repo.find(requestId, result.readingId) : undefined;
      return {
        document: {
          ...result.document,
          document_type: type,
          created_at: new Date(result.document.created_at).toISOString(),
        },
        reading: reading ? toQuoteReading(reading) : null,
      };
    },

    /** The document of a reading (to render page `page` of it), when that page was read. */
    async pageSource(requestId: string, readingId: string, page: number) {
      await requireReading(requestId, readingId);
      const source = await repo.documentOf(readingId);
      if (!source || page < 1 || page > source.pages) throw notFound(READING_MESSAGES.readingNotFound);
      if (!isReadableMime(source.mime_type) || source.size > MAX_FILE_SIZE)
        throw notFound(READING_MESSAGES.readingNotFound);
      return { key: source.storage_key, mime: source.mime_type };
    },
  };
}
