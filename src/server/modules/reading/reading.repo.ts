import { type Kysely, sql } from "kysely";
import type { ReadingKind, ReadResult } from "../../../shared/schemas/reading";
import type { Actor } from "../../access/actor";
import { lockOwnRequest } from "../../access/requests";
import type { Db } from "../../db/index";
import { storedFileColumns } from "../../db/queries";
import type { Database } from "../../db/types";

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

/** The raw text of a reading, stored (encrypted) under the patient's prefix like their documents. */
export const readingTextKey = (patientId: string, readingId: string) =>
  `${patientId}/readings/${readingId}.txt`;

/** A 'running' row untouched this long was left by a stopped instance: it is read again. */
export const STALE_RUNNING_MS = 2 * 60 * 1000;
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
] as const;

export interface ReadingRow {
  id: string;
  request_id: string;
  document_id: string;
  file_name: string;
  status: "pending" | "running" | "done" | "failed";
  kind: ReadingKind | null;
  pages: number;
  result: unknown;
  message: string | null;
  text_key: string | null;
  created_at: Date;
  finished_at: Date | null;
  confirmed_at: Date | null;
  dismissed_at: Date | null;
}

/** Readings ("q") with their request ("r") and document ("d"): the patient's side and the runner's read them so. */
const readingsWithTheirFiles = (db: Kysely<Database>) =>
  db
    .selectFrom("quote_readings as q")
    .innerJoin("requests as r", "r.id", "q.request_id")
    .innerJoin("documents as d", "d.id", "q.document_id");

/** Queues a reading of a document (inside the caller's transaction). */
export async function insertReading(trx: Kysely<Database>, requestId: string, documentId: string) {
  return trx
    .insertInto("quote_readings")
    .values({ request_id: requestId, document_id: documentId })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** The patient's readings: every query joins the request and filters by its patient. */
export function patientReadingsRepo(db: Kysely<Database>, actor: Actor) {
  const mine = () => readingsWithTheirFiles(db).where("r.patient_id", "=", actor.userId);

  return {
    /** The request's latest reading, or undefined (also for anyone else's request). */
    async latest(requestId: string): Promise<ReadingRow | undefined> {
      return (await mine()
        .select(readingColumns)
        .where("q.request_id", "=", requestId)
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
        const busy = await trx
          .selectFrom("quote_readings")
          .select("id")
          .where("request_id", "=", requestId)
          .where("status", "in", ["pending", "running"])
          .executeTakeFirst();
        if (busy) return "busy" as const;
        return insertReading(trx, requestId, documentId);
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
}

/**
 * The runner's side (a system bypass: no actor). Each instance takes one row at a time; `for
 * update skip locked` lets two instances claim at once without taking the same row.
 */
export function readingQueue(db: Kysely<Database>) {
  const claim = async (): Promise<ClaimedReading | undefined> => {
    const { rows } = await sql<{ id: string; attempts: number }>`
        update quote_readings
           set status = 'running', started_at = now(), attempts = attempts + 1
         where id = (select id from quote_readings
                      where status = 'pending'
                      order by created_at, id
                      limit 1
                      for update skip locked)
           and status = 'pending'
        returning id, attempts`.execute(db);
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
