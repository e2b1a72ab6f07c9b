import type { Kysely } from "kysely";
import {
  COVER_FIELDS,
  type Cover,
  QUOTE_LINE_FIELDS,
  type QuoteLineDto,
} from "../../../shared/schemas/quotes";
import { type ReadingChoice, readResultSchema } from "../../../shared/schemas/reading";
import type { Actor } from "../../access/actor";
import { lockOwnRequest, requestVisibleToDentist } from "../../access/requests";
import { isVerifiedDentist } from "../../access/rules";
import type { Db } from "../../db/index";
import type { Database } from "../../db/types";

/**
 * Structured quotes (issue 15): the lines of a patient's original devis and the patient's mutuelle.
 * Every read and write is bound to the actor: the patient's own requests and cover; for a dentist, the
 * lines of a request he may see.
 */
const lineColumns = ["q.request_id", ...QUOTE_LINE_FIELDS.map((c) => `q.${c}` as const)] as const;

const toDto = ({ request_id: _request, ...line }: QuoteLineDto & { request_id: string }): QuoteLineDto =>
  line;

/** Writes a request's lines in their order (inside the caller's transaction). */
export async function insertQuoteLines(
  trx: Kysely<Database>,
  requestId: string,
  lines: readonly QuoteLineDto[],
) {
  if (lines.length === 0) return;
  await trx
    .insertInto("request_quote_lines")
    .values(lines.map((line, position) => ({ request_id: requestId, position, ...line })))
    .execute();
}

export const linesTotal = (lines: readonly QuoteLineDto[]) => lines.reduce((sum, l) => sum + l.fee_cents, 0);

/**
 * Confirms a reading inside the transaction that saves the lines (PUT …/quote with reading_id):
 * only a finished reading of that request (whose patient the caller has already checked). The
 * reading module writes the reading; its confirmation is part of saving the lines, so it is here.
 * The patient's choices (issue 34) are kept for the figures the reading compared with the table (a line
 * it read with the table's values beside it) and, "read" only, for a figure it corrected (`as_read`:
 * the patient kept the value first read rather than the correction, ADR 043 addendum; a free line's AMO
 * read again in its cell has no table beside it), one per line and field, the last one sent. Nothing
 * else is kept: a choice about a figure nobody compared or corrected says nothing.
 */
async function confirmReading(
  trx: Kysely<Database>,
  requestId: string,
  readingId: string,
  now: Date,
  choices: readonly ReadingChoice[],
) {
  const reading = await trx
    .selectFrom("quote_readings")
    .select("result")
    .where("id", "=", readingId)
    .where("request_id", "=", requestId)
    .where("status", "=", "done")
    .forUpdate()
    .executeTakeFirst();
  if (!reading) return false;
  const lines = readResultSchema.safeParse(reading.result).data?.lines ?? [];
  const kept = new Map<string, ReadingChoice>();
  for (const choice of choices) {
    const line = lines[choice.line];
    const corrected =
      choice.use === "read" && choice.field !== "basket" && line?.as_read?.[choice.field] !== undefined;
    if (line?.expected || corrected) kept.set(`${choice.line}.${choice.field}`, choice);
  }
  await trx
    .updateTable("quote_readings")
    .set({ confirmed_at: now, choices: JSON.stringify([...kept.values()]) })
    .where("id", "=", readingId)
    .execute();
  return true;
}

export function patientQuotesRepo(db: Db, actor: Actor) {
  return {
    /**
     * The lines of one of the actor's own requests (none for anyone else's), and the devis's date they
     * were resolved with (null without lines).
     */
    async lines(requestId: string): Promise<{ lines: QuoteLineDto[]; quoteDate: string | null }> {
      const rows = await db
        .selectFrom("request_quote_lines as q")
        .innerJoin("requests as r", "r.id", "q.request_id")
        .select([...lineColumns, "r.quote_date"])
        .where("q.request_id", "=", requestId)
        .where("r.patient_id", "=", actor.userId)
        .orderBy("q.position")
        .execute();
      return {
        lines: rows.map(({ quote_date: _date, ...row }) => toDto(row)),
        quoteDate: rows[0]?.quote_date ?? null,
      };
    },

    /**
     * Replaces the lines of an open request of the actor's, in one transaction, and sets the quote's
     * amount to their total (kept as it was when the lines are cleared). 'not_found' for anyone else's
     * request, 'closed' once it is finished or cancelled.
     */
    async replace(
      requestId: string,
      lines: readonly QuoteLineDto[],
      quoteDate: string,
      now: Date,
      readingId?: string | null,
      choices: readonly ReadingChoice[] = [],
    ) {
      return db.transaction().execute(async (trx) => {
        const request = await lockOwnRequest(trx, actor, requestId);
        if (!request) return "not_found" as const;
        if (request.status !== "new" && request.status !== "in_review") return "closed" as const;
        // Lines confirmed from a reading of the devis (issue 17): a finished reading of this request.
        if (readingId && !(await confirmReading(trx, requestId, readingId, now, choices)))
          return "no_reading" as const;
        await trx.deleteFrom("request_quote_lines").where("request_id", "=", requestId).execute();
        await insertQuoteLines(trx, requestId, lines);
        const amount = lines.length > 0 ? linesTotal(lines) : request.quote_amount_cents;
        await trx
          .updateTable("requests")
          .set({
            quote_amount_cents: amount,
            quote_date: lines.length > 0 ? quoteDate : null,
            updated_at: now,
          })
          .where("id", "=", requestId)
          .execute();
        return { amount };
      });
    },

    async cover(): Promise<Cover | null> {
      const row = await db
        .selectFrom("patient_covers")
        .select(COVER_FIELDS)
        .where("patient_id", "=", actor.userId)
        .executeTakeFirst();
      return row ?? null;
    },

    async saveCover(cover: Cover, now: Date) {
      await db
        .insertInto("patient_covers")
        .values({ patient_id: actor.userId, ...cover, updated_at: now })
        .onConflict((oc) =>
          oc
            .column("patient_id")
            .doUpdateSet((eb) => ({ ...cover, updated_at: eb.ref("excluded.updated_at") })),
        )
        .execute();
    },

    async removeCover() {
      await db.deleteFrom("patient_covers").where("patient_id", "=", actor.userId).execute();
    },
  };
}

export function dentistQuotesRepo(db: Db, actor: Actor) {
  const verified = isVerifiedDentist(actor.profile);
  return {
    /** The patient's original quote on a request this dentist may see (none otherwise). */
    async lines(requestId: string): Promise<QuoteLineDto[]> {
      if (!verified) return [];
      const rows = await db
        .selectFrom("request_quote_lines as q")
        .innerJoin("requests as r", "r.id", "q.request_id")
        .select(lineColumns)
        .where("q.request_id", "=", requestId)
        .where((eb) => requestVisibleToDentist(eb, actor.userId, actor.limited))
        .orderBy("q.position")
        .execute();
      return rows.map(toDto);
    },
  };
}
