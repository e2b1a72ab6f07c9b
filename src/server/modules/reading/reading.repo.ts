import { type Kysely, sql } from "kysely";
import type { DocumentType } from "../../../shared/domain/requests";
import type { ReadingKind, ReadResult } from "../../../shared/schemas/reading";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { lockOwnRequest } from "../../access/requests";
import type { Db } from "../../db/index";
import { storedFileColumns } from "../../db/queries";
import type { Database, ReadingRowStatus } from "../../db/types";

/**
 * Readings of uploaded devis (issue 17). Two faces: the patient's, bound to the actor (only the
 * readings of the actor's own requests; anyone else's answer as missing), and the runner's queue
 * (`readingQueue`, a system bypass: it reads whatever is next, whoever it belongs to).
 */

/** The types a reading can read (sniffed from the content at upload, stored as the document's mime_type). */
export const READABLE_MIME_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type ReadableMime = (typeof READABLE_MIME_TYPES)[number];
export const isReadableMime = (mime: string): mime is ReadableMime =>
  (READABLE_MIME_TYPES as readonly string[]).includes(mime);

/** Whether a document may be read: a devis ('quote') in a readable format. */
export const isReadableQuote = (doc: { document_type: string; mime_type: string }) =>
  doc.document_type === "quote" && isReadableMime(doc.mime_type);

/** Whether the request has lines of its devis (typed or confirmed): then nothing is read for it. */
const hasQuoteLines = async (db: Kysely<Database>, requestId: string) =>
  Boolean(
    await db
      .selectFrom("request_quote_lines")
      .select("request_id")
      .where("request_id", "=", requestId)
      .limit(1)
      .executeTakeFirst(),
  );

/** The raw text of a reading, stored (encrypted) under the patient's prefix like their documents. */
export const readingTextKey = (patientId: string, readingId: string) =>
  `${patientId}/readings/${readingId}.txt`;

/**
 * A 'running' row untouched this long was left by a stopped instance: it is read again. Beyond the
 * longest a live instance holds one: its reading process's start (SANDBOX_START_MS, 60 s), then the
 * wall-clock backstop of the longest time limit (READING_TIME_LIMIT_S 110 s of CPU: 440 s, sandbox.ts),
 * 500 s with a minute and a half to spare for the file and the result (ADR 037, addendum).
 */
export const STALE_RUNNING_MS = 10 * 60 * 1000;
/** A reading is tried this many times at most (a crash each time: the file is probably the cause). */
export const MAX_ATTEMPTS = 3;

const readingColumns = [
  "q.id",
  "q.request_id",
  "q.document_id",
  "d.file_name",
  "q.status",
  "q.kind",
  "q.pages",
  "q.result",
  "q.message",
  "q.text_key",
  "q.created_at",
  "q.finished_at",
  "q.confirmed_at",
  "q.dismissed_at",
  "q.choices",
  "q.purpose",
] as const;

export interface ReadingRow {
  id: string;
  request_id: string;
  document_id: string;
  file_name: string;
  status: ReadingRowStatus;
  kind: ReadingKind | null;
  pages: number;
  result: unknown;
  message: string | null;
  text_key: string | null;
  created_at: Date;
  finished_at: Date | null;
  confirmed_at: Date | null;
  dismissed_at: Date | null;
  choices: unknown;
  purpose: "read" | "classify";
}

/** Readings ("q") with their request ("r") and document ("d"): the patient's side and the runner's read them so. */
const readingsWithTheirFiles = (db: Kysely<Database>) =>
  db
    .selectFrom("quote_readings as q")
    .innerJoin("requests as r", "r.id", "q.request_id")
    .innerJoin("documents as d", "d.id", "q.document_id");

/**
 * Queues a reading of a document (inside the caller's transaction): 'read' for a devis, 'classify' for
 * another image or PDF, read only if it is recognised as a devis (issue 34).
 */
export async function insertReading(
  trx: Kysely<Database>,
  requestId: string,
  documentId: string,
  purpose: "read" | "classify" = "read",
) {
  return trx
    .insertInto("quote_readings")
    .values({ request_id: requestId, document_id: documentId, purpose })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** A reading of a devis of the request is queued or under way (a classification does not count). */
const readingUnderWay = (trx: Kysely<Database>, requestId: string) =>
  trx
    .selectFrom("quote_readings")
    .select("id")
    .where("request_id", "=", requestId)
    .where("status", "in", ["pending", "running"])
    .where("purpose", "=", "read")
    .executeTakeFirst();

/** The patient's readings: every query joins the request and filters by its patient. */
export function patientReadingsRepo(db: Kysely<Database>, actor: Actor) {
  const mine = () => readingsWithTheirFiles(db).where("r.patient_id", "=", actor.userId);

  return {
    /**
     * The request's latest reading, or undefined (also for anyone else's request). A document not
     * typed 'Devis' shows only once it was recognised as one and read (issue 34): its classification
     * under way, or what was not a devis, shows nothing.
     */
    async latest(requestId: string): Promise<ReadingRow | undefined> {
      return (await mine()
        .select(readingColumns)
        .where("q.request_id", "=", requestId)
        .where((eb) =>
          eb.or([
            eb.and([eb("q.purpose", "=", "read"), eb("q.status", "!=", "not_quote")]),
            eb("q.status", "=", "done"),
          ]),
        )
        .orderBy("q.created_at", "desc")
        .orderBy("q.id", "desc")
        .limit(1)
        .executeTakeFirst()) as ReadingRow | undefined;
    },

    async find(requestId: string, readingId: string): Promise<ReadingRow | undefined> {
      return (await mine()
        .select(readingColumns)
        .where("q.request_id", "=", requestId)
        .where("q.id", "=", readingId)
        .executeTakeFirst()) as ReadingRow | undefined;
    },

    /** The document a reading is of, with what the preview needs. */
    async documentOf(readingId: string) {
      return mine()
        .select(["d.storage_key", "d.mime_type", "d.size", "q.pages", "q.status"])
        .where("q.id", "=", readingId)
        .executeTakeFirst();
    },

    /** The actor's request (its status), or undefined. */
    async request(requestId: string) {
      return db
        .selectFrom("requests")
        .select(["id", "status"])
        .where("id", "=", requestId)
        .where("patient_id", "=", actor.userId)
        .executeTakeFirst();
    },

    /**
     * Queues a new reading of one of the request's documents, in one transaction with the request
     * locked (two clicks cannot queue two). 'not_found' for anyone else's request; 'closed' when
     * the request is finished or cancelled; 'not_quote' for a document that is not a readable devis
     * of this request; 'busy' while a reading of the request is pending or running.
     */
    async enqueue(requestId: string, documentId: string, editable: (status: string) => boolean) {
      return db.transaction().execute(async (trx) => {
        const request = await lockOwnRequest(trx, actor, requestId);
        if (!request) return "not_found" as const;
        if (!editable(request.status)) return "closed" as const;
        const document = await trx
          .selectFrom("documents")
          .select(["id", "document_type", "mime_type"])
          .where("id", "=", documentId)
          .where("request_id", "=", requestId)
          .executeTakeFirst();
        // A readable file of this request; its type may be corrected to 'quote' by asking to read it.
        if (!document || !isReadableMime(document.mime_type)) return "not_quote" as const;
        if (await readingUnderWay(trx, requestId)) return "busy" as const;
        return insertReading(trx, requestId, documentId);
      });
    },

    /**
     * Corrects the type of one of the request's documents (issue 34), the request locked. Typed
     * 'Devis' now, readable, on an open request without lines and with no reading of a devis under
     * way: a reading is queued in the same transaction. The change is written to the audit trail.
     * 'no_request' for anyone else's request, 'no_document' for a document not of this request.
     */
    async changeDocumentType(
      requestId: string,
      documentId: string,
      type: DocumentType,
      editable: (status: string) => boolean,
    ) {
      return db.transaction().execute(async (trx) => {
        const request = await lockOwnRequest(trx, actor, requestId);
        if (!request) return "no_request" as const;
        const document = await trx
          .selectFrom("documents")
          .select(["id", "document_type", "mime_type"])
          .where("id", "=", documentId)
          .where("request_id", "=", requestId)
          .executeTakeFirst();
        if (!document) return "no_document" as const;
        const updated = await trx
          .updateTable("documents")
          .set({ document_type: type })
          .where("id", "=", documentId)
          .returning(["id", "file_name", "size", "mime_type", "document_type", "created_at"])
          .executeTakeFirstOrThrow();
        if (document.document_type !== type)
          await writeAudit(trx, {
            actorId: actor.userId,
            action: "request.document_type_changed",
            subjectType: "request",
            subjectId: requestId,
            details: { document_id: documentId, from: document.document_type, to: type },
          });
        let readingId: string | null = null;
        if (
          type === "quote" &&
          document.document_type !== "quote" &&
          editable(request.status) &&
          isReadableMime(document.mime_type) &&
          !(await hasQuoteLines(trx, requestId)) &&
          !(await readingUnderWay(trx, requestId))
        )
          readingId = (await insertReading(trx, requestId, documentId)).id;
        return { document: updated, readingId };
      });
    },

    /** Marks a reading dismissed (the patient types the lines); undefined when it is not the actor's. */
    async dismiss(requestId: string, readingId: string, now: Date) {
      return db
        .updateTable("quote_readings")
        .set((eb) => ({ dismissed_at: eb.fn.coalesce("dismissed_at", eb.val(now)) }))
        .where("id", "=", readingId)
        .where("request_id", "=", requestId)
        .where("request_id", "in", (eb) =>
          eb.selectFrom("requests").select("id").where("patient_id", "=", actor.userId),
        )
        .returning("id")
        .executeTakeFirst();
    },
  };
}

/** A reading taken from the queue, with its document and patient. */
export interface ClaimedReading {
  id: string;
  requestId: string;
  documentId: string;
  patientId: string;
  storageKey: string;
  mime: string;
  size: number;
  attempts: number;
  /** 'classify': a document not typed 'Devis', read only if recognised as one (issue 34). */
  purpose: "read" | "classify";
}

/**
 * The runner's side (a system bypass: no actor). Each instance takes one row at a time; `for
 * update skip locked` lets two instances claim at once without taking the same row.
 */
export function readingQueue(db: Kysely<Database>) {
  const claim = async (): Promise<ClaimedReading | undefined> => {
    const { rows } = await sql<{ id: string; attempts: number; purpose: "read" | "classify" }>`
        update quote_readings
           set status = 'running', started_at = now(), attempts = attempts + 1
         where id = (select q.id from quote_readings q
                       join documents d on d.id = q.document_id
                      where q.status = 'pending'
                        -- One reading per request at a time (issue 34): its documents in their order.
                        and not exists (select 1 from quote_readings o
                                         where o.request_id = q.request_id and o.status = 'running')
                      order by q.created_at, d.position, q.id
                      limit 1
                      for update of q skip locked)
           and status = 'pending'
        returning id, attempts, purpose`.execute(db);
    const claimed = rows[0];
    if (!claimed) return undefined;
    const row = await readingsWithTheirFiles(db)
      .select(["q.id", "q.request_id", "q.document_id", "r.patient_id", ...storedFileColumns("d")])
      .where("q.id", "=", claimed.id)
      .executeTakeFirst();
    // Deleted between the two statements (its request or document): the next one.
    if (!row) return claim();
    return {
      id: row.id,
      requestId: row.request_id,
      documentId: row.document_id,
      patientId: row.patient_id,
      storageKey: row.storage_key,
      mime: row.mime_type,
      size: row.size,
      attempts: claimed.attempts,
      purpose: claimed.purpose,
    };
  };
  return {
    claim,

    /** Records the result of a running reading; false when the row is gone (request or document deleted). */
    async finish(
      id: string,
      outcome: { kind: ReadingKind; pages: number; result: ReadResult; textKey: string },
    ): Promise<boolean> {
      const row = await db
        .updateTable("quote_readings")
        .set({
          status: "done",
          kind: outcome.kind,
          pages: outcome.pages,
          result: JSON.stringify(outcome.result),
          text_key: outcome.textKey,
          message: null,
          finished_at: sql<Date>`now()`,
        })
        .where("id", "=", id)
        .where("status", "=", "running")
        .returning("id")
        .executeTakeFirst();
      return Boolean(row);
    },

    /**
     * A classification no longer needed (issue 34): the request has its lines, or a devis of it was
     * read or recognised, or is queued to be read. Not every photo of a request is read.
     */
    async classificationNeedless(job: ClaimedReading): Promise<boolean> {
      if (await hasQuoteLines(db, job.requestId)) return true;
      const devis = await db
        .selectFrom("quote_readings")
        .select("id")
        .where("request_id", "=", job.requestId)
        .where("id", "!=", job.id)
        .where((eb) =>
          eb.or([
            eb("status", "=", "done"),
            eb.and([eb("purpose", "=", "read"), eb("status", "in", ["pending", "running"])]),
          ]),
        )
        .executeTakeFirst();
      return Boolean(devis);
    },

    /** A classified document that is not a devis (or was not looked at): nothing shown for it. */
    async notQuote(id: string, outcome?: { kind: ReadingKind; pages: number }): Promise<boolean> {
      const row = await db
        .updateTable("quote_readings")
        .set({
          status: "not_quote",
          ...(outcome ? { kind: outcome.kind, pages: outcome.pages } : {}),
          finished_at: sql<Date>`now()`,
        })
        .where("id", "=", id)
        .where("status", "=", "running")
        .returning("id")
        .executeTakeFirst();
      return Boolean(row);
    },

    async fail(id: string, message: string): Promise<boolean> {
      const row = await db
        .updateTable("quote_readings")
        .set({ status: "failed", message, finished_at: sql<Date>`now()` })
        .where("id", "=", id)
        .where("status", "=", "running")
        .returning("id")
        .executeTakeFirst();
      return Boolean(row);
    },

    /** Puts a reading interrupted by a stop back in the queue. */
    async release(id: string): Promise<void> {
      await db
        .updateTable("quote_readings")
        .set({ status: "pending", started_at: null })
        .where("id", "=", id)
        .where("status", "=", "running")
        .execute();
    },

    /**
     * The queue as the metrics show it (ADR 047): readings waiting, running and failed (every
     * instance's: the queue is the database's), and how long the oldest waiting one has waited.
     */
    async gauges(): Promise<{
      waiting: number;
      running: number;
      failed: number;
      oldestWaitingSeconds: number;
    }> {
      const { rows } = await sql<{ waiting: number; running: number; failed: number; oldest: number | null }>`
        select count(*) filter (where status = 'pending')::int as waiting,
               count(*) filter (where status = 'running')::int as running,
               count(*) filter (where status = 'failed')::int as failed,
               extract(epoch from now() - min(created_at) filter (where status = 'pending'))::float8 as oldest
          from quote_readings`.execute(db);
      const row = rows[0];
      return {
        waiting: row?.waiting ?? 0,
        running: row?.running ?? 0,
        failed: row?.failed ?? 0,
        oldestWaitingSeconds: Math.max(0, row?.oldest ?? 0),
      };
    },

    /**
     * Crash recovery: 'running' rows older than `staleMs` go back to 'pending', or to 'failed' with
     * `message` once tried MAX_ATTEMPTS times. Returns the rows failed (to tell their patients).
     */
    async recover(message: string, staleMs = STALE_RUNNING_MS) {
      const { rows } = await sql<{ id: string; request_id: string; status: string; patient_id: string }>`
        update quote_readings q
           set status = case when q.attempts >= ${MAX_ATTEMPTS} then 'failed' else 'pending' end,
               message = case when q.attempts >= ${MAX_ATTEMPTS} then ${message} else q.message end,
               finished_at = case when q.attempts >= ${MAX_ATTEMPTS} then now() else null end,
               started_at = case when q.attempts >= ${MAX_ATTEMPTS} then q.started_at else null end
          from requests r
         where r.id = q.request_id
           and q.status = 'running'
           and q.started_at < now() - make_interval(secs => ${staleMs / 1000})
        returning q.id, q.request_id, q.status, r.patient_id`.execute(db);
      return rows;
    },
  };
}

/** For the export: the patient's readings with their stored text keys. */
export async function readingsForExport(db: Db, actor: Actor): Promise<ReadingRow[]> {
  return (await db
    .selectFrom("quote_readings as q")
    .innerJoin("requests as r", "r.id", "q.request_id")
    .innerJoin("documents as d", "d.id", "q.document_id")
    .where("r.patient_id", "=", actor.userId)
    .select(readingColumns)
    .orderBy("q.created_at")
    .execute()) as ReadingRow[];
}
