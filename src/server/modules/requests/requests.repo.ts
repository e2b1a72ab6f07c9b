import { type RawBuilder, sql, type Transaction } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { JOURNEY_SEARCH_LABELS, type JourneySearchState } from "../../../shared/domain/journey";
import { TREATMENT_LABELS } from "../../../shared/domain/treatments";
import { keysMatchingLabel } from "../../../shared/format/search";
import { parisToday } from "../../../shared/policies/offers";
import { ACCESS_LOG_PAGE_SIZE } from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { addressableDentist } from "../../access/subscription";
import { runCompiled } from "../../db/compiled";
import { readingTextKeys } from "../../db/file-keys";
import type { Db } from "../../db/index";
import { fetchPage } from "../../db/paging";
import type { Database } from "../../db/types";

/** Offer `o` of request `r` is sent and still valid on `today` (Paris): open to the patient's choice. */
const isOpenOffer = (today: string) =>
  sql<boolean>`o.request_id = r.id and o.status = 'sent' and (o.valid_until is null or o.valid_until >= ${today}::date)`;

/**
 * A request's row as the lists show it, with what its journey is derived from (ADR 016): the
 * offers still open to the patient's choice (sent, valid on `today` in Paris) and its live
 * appointment. Its documents, its offers still 'sent' and its live appointment are columns the
 * database keeps (migration 039, ADR 057 addendum): the open offers are counted, by the day, only
 * on a request that has a sent one.
 */
const summaryColumns = (today: string) =>
  [
    "r.id",
    "r.treatment_type",
    "r.status",
    "r.urgency",
    "r.created_at",
    "r.document_count",
    sql<number>`(case when r.sent_offers = 0 then 0 else (select count(*)::int from offers o where ${isOpenOffer(today)}) end)`.as(
      "open_offers",
    ),
    "r.appointment_status",
    "r.appointment_starts_at",
  ] as const;

/** Settled requests whose confirmed appointment has taken place: 'Terminée' (ADR 016). */
const isDone = (now: Date) =>
  sql<boolean>`(r.status = 'completed' or (r.status = 'accepted' and exists (select 1 from appointments a where a.request_id = r.id and a.status = 'confirmed' and a.starts_at <= ${now})))`;

/** The pages of the list (without a search) kept compiled; further pages are built each time. */
const COMPILED_PAGES = 3;

/**
 * A search of the patient's requests: the treatments and the journey states whose labels match it,
 * the states as they are at `at` (the list's time).
 */
interface RequestSearch {
  treatments: string[];
  states: JourneySearchState[];
  at: Date;
}

/** The request has an offer open to the patient's choice on `today` (Paris), as the lists count them. */
const hasOpenOffer = (today: string) =>
  sql<boolean>`(r.sent_offers > 0 and exists (select 1 from offers o where ${isOpenOffer(today)}))`;

/**
 * Requests whose journey at `at` is one of `states`: `journeyStateOf` (shared/domain/journey.ts)
 * in SQL, on the columns the lists derive it from (the stored status, the open offers, the live
 * appointment), so that a search finds a request by the state its row shows.
 */
function inJourneyStates(states: JourneySearchState[], at: Date): RawBuilder<boolean> {
  const open = hasOpenOffer(parisToday(at));
  const unsettled = sql`r.status not in ('cancelled', 'completed', 'accepted')`;
  const confirmed = sql`r.status = 'accepted' and r.appointment_status = 'confirmed'`;
  const of: Record<JourneySearchState, RawBuilder<unknown>> = {
    // « Envoyée » and « En cours » (taken on by a dentist), as journeyOf labels them.
    sent: sql`${unsettled} and r.status <> 'in_review' and not ${open}`,
    taken: sql`r.status = 'in_review' and not ${open}`,
    compare: sql`${unsettled} and ${open}`,
    accepted: sql`r.status = 'accepted' and r.appointment_status is null`,
    appointment_pending: sql`r.status = 'accepted' and r.appointment_status = 'pending'`,
    appointment_confirmed: sql`${confirmed} and (r.appointment_starts_at is null or r.appointment_starts_at > ${at})`,
    done: sql`r.status = 'completed' or (${confirmed} and r.appointment_starts_at <= ${at})`,
    cancelled: sql`r.status = 'cancelled'`,
  };
  return sql<boolean>`(${sql.join(
    states.map((state) => sql`(${of[state]})`),
    sql` or `,
  )})`;
}

/** A patient's own requests, those matching a search's treatments or journey states when there is one. */
function ownRequests(db: Db, patientId: string, filter: RequestSearch | undefined) {
  const query = db.selectFrom("requests as r").where("r.patient_id", "=", patientId);
  if (!filter) return query;
  return query.where((eb) =>
    eb.or([
      ...(filter.treatments.length ? [eb("r.treatment_type", "in", filter.treatments)] : []),
      ...(filter.states.length ? [inJourneyStates(filter.states, filter.at)] : []),
    ]),
  );
}

/** How many requests the patient has (matching the search). */
function totalQuery(db: Db, patientId: string, filter: RequestSearch | undefined) {
  return ownRequests(db, patientId, filter).select(sql<number>`count(*)::int`.as("total"));
}

/** A page of the patient's requests, newest first. */
export function listQuery(
  db: Db,
  patientId: string,
  today: string,
  options: { page: number; pageSize: number },
  filter: RequestSearch | undefined,
) {
  return ownRequests(db, patientId, filter)
    .select(summaryColumns(today))
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
}

/**
 * The list screen in one row: its page as one JSON array (one field: on PGlite each field of each
 * row is copied and decoded in JavaScript, which cost more than PostgreSQL's building the JSON, ADR
 * 057) and the total, an uncorrelated subquery run once, there even for a page past the end.
 */
function screenQuery(
  db: Db,
  patientId: string,
  today: string,
  options: { page: number; pageSize: number },
  filter: RequestSearch | undefined,
) {
  return db.selectNoFrom([
    jsonArrayFrom(listQuery(db, patientId, today, options, filter)).as("rows"),
    totalQuery(db, patientId, filter).as("total"),
  ]);
}

/** The e-mail contacts of these people (none asked, no query). */
async function contactsOf(trx: Transaction<Database>, ids: string[]) {
  if (ids.length === 0) return [];
  return trx.selectFrom("profiles").select(["id", "email", "first_name"]).where("id", "in", ids).execute();
}

/**
 * Cancels a patient's open requests (the one named by `id`, else all of them) and closes the offers
 * still waiting on them, in the caller's transaction; `withdrawConsent` records that the patient
 * withdrew the consent. Returns each request cancelled with the dentists whose offer it closed (their
 * e-mail contacts). Her own « Annuler », and the team's suspension of her account (ADR 092).
 */
export async function cancelOpenRequests(
  trx: Transaction<Database>,
  patientId: string,
  now: Date,
  options: { id?: string; withdrawConsent?: boolean } = {},
) {
  let update = trx
    .updateTable("requests")
    .set({
      status: "cancelled",
      cancelled_at: now,
      updated_at: now,
      ...(options.withdrawConsent ? { consent_withdrawn_at: now } : {}),
    })
    .where("patient_id", "=", patientId)
    .where("status", "in", ["new", "in_review"]);
  if (options.id !== undefined) update = update.where("id", "=", options.id);
  const cancelled = await update.returning(["id", "status", "treatment_type"]).execute();
  if (cancelled.length === 0) return [];
  const closed = await trx
    .updateTable("offers")
    .set({ status: "closed", decided_at: now, updated_at: now })
    .where(
      "request_id",
      "in",
      cancelled.map((request) => request.id),
    )
    .where("status", "=", "sent")
    .returning(["request_id", "dentist_id"])
    .execute();
  const told = await contactsOf(
    trx,
    closed.map((offer) => offer.dentist_id),
  );
  return cancelled.map((request) => {
    const closedFor = new Set(closed.filter((o) => o.request_id === request.id).map((o) => o.dentist_id));
    return { ...request, closedOffersOf: told.filter((dentist) => closedFor.has(dentist.id)) };
  });
}

/** A patient's own requests: every query is filtered by the actor's id. */
export function patientRequestsRepo(db: Db, actor: Actor, now: Date = new Date()) {
  const mine = () => db.selectFrom("requests as r").where("r.patient_id", "=", actor.userId);
  const columns = summaryColumns(parisToday(now));

  return {
    async list(options: { search: string; page: number; pageSize: number }) {
      let filter: RequestSearch | undefined;
      if (options.search) {
        const treatments = keysMatchingLabel(options.search, TREATMENT_LABELS);
        const states = keysMatchingLabel(options.search, JOURNEY_SEARCH_LABELS);
        if (treatments.length === 0 && states.length === 0) return { items: [], total: 0 };
        filter = { treatments, states, at: now };
      }
      const today = parisToday(now);
      // The page and the total in one round trip (issue 38). Without a search, the first pages are
      // built and compiled once (db/compiled.ts): only the patient's id and the day vary.
      const [screen] =
        filter || options.page > COMPILED_PAGES
          ? await screenQuery(db, actor.userId, today, options, filter).execute()
          : await runCompiled(
              db,
              `patient-requests:${options.page}:${options.pageSize}`,
              { me: actor.userId, today },
              (p) => screenQuery(db, p.me, p.today, options, undefined),
            );
      // The rows' dates are ISO text (JSON): `summary` makes them the same ISO text as from a Date.
      return { items: screen?.rows ?? [], total: screen?.total ?? 0 };
    },

    async dashboard(limit: number) {
      const [counts, recent] = await Promise.all([
        mine()
          .select([
            sql<number>`count(*) filter (where r.status <> 'cancelled' and not ${isDone(now)})::int`.as(
              "active",
            ),
            sql<number>`count(*) filter (where ${isDone(now)})::int`.as("completed"),
            sql<Date | null>`max(r.created_at)`.as("latest_at"),
            // The team's answers she has not read yet (her help card says so): the unread index serves it.
            sql<number>`(select count(*) from support_messages m where m.patient_id = ${actor.userId} and m.from_team and m.read_at is null)::int`.as(
              "support_unread",
            ),
          ])
          .executeTakeFirstOrThrow(),
        mine().select(columns).orderBy("r.created_at", "desc").orderBy("r.id", "desc").limit(limit).execute(),
      ]);
      return { counts, recent };
    },

    async find(id: string) {
      return mine()
        .leftJoin("profiles as d", "d.id", "r.recipient_dentist_id")
        .select([
          ...columns,
          "r.description",
          "r.budget",
          "r.quote_amount_cents",
          "r.updated_at",
          "r.recipient_dentist_id",
          "d.full_name as recipient_name",
          "d.city as recipient_city",
          // Whether a request addressed to him reaches him now (null: not addressed to anyone).
          (eb) =>
            eb
              .selectFrom("profiles")
              .select(sql<boolean>`true`.as("yes"))
              .whereRef("profiles.id", "=", "r.recipient_dentist_id")
              .where((p) => addressableDentist(p, now))
              .as("recipient_taking"),
          "r.consent_version",
          "r.consent_text",
          "r.consent_at",
          "r.consent_withdrawn_at",
        ])
        .where("r.id", "=", id)
        .executeTakeFirst();
    },

    async documents(requestId: string) {
      return db
        .selectFrom("documents as d")
        .innerJoin("requests as r", "r.id", "d.request_id")
        .where("r.patient_id", "=", actor.userId)
        .where("d.request_id", "=", requestId)
        .select(["d.id", "d.file_name", "d.size", "d.mime_type", "d.document_type", "d.created_at"])
        .orderBy("d.position")
        .execute();
    },

    /** A page of who read this request and its documents, newest first (its rows and whether more follow). */
    async accessLog(requestId: string, page = 1) {
      const query = db
        .selectFrom("document_access as a")
        .innerJoin("requests as r", "r.id", "a.request_id")
        .leftJoin("documents as d", "d.id", "a.document_id")
        .where("r.patient_id", "=", actor.userId)
        .where("a.request_id", "=", requestId)
        .select([
          "a.id",
          "a.document_id",
          sql<string | null>`coalesce(d.file_name, a.object_name)`.as("document_name"),
          "a.actor_name",
          "a.actor_kind",
          "a.action",
          "a.created_at",
        ])
        .orderBy("a.created_at", "desc")
        // Rows written together (a zip's documents) share their created_at: the id orders them.
        .orderBy("a.id", "desc");
      return fetchPage(query, { page, pageSize: ACCESS_LOG_PAGE_SIZE });
    },

    /**
     * The dentists' replies: each dentist's latest message in his conversation about this request, his
     * current word (an offer he withdrew shows as withdrawn, not as his answer), in the order they first
     * replied.
     */
    async replies(requestId: string) {
      return db
        .selectFrom("conversations as c")
        .innerJoin("profiles as d", "d.id", "c.dentist_id")
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom("messages as m")
              .select(["m.body", "m.created_at"])
              .whereRef("m.conversation_id", "=", "c.id")
              .whereRef("m.sender_id", "=", "c.dentist_id")
              .orderBy("m.created_at", "desc")
              .orderBy("m.id", "desc")
              .limit(1)
              .as("latest"),
          (join) => join.onTrue(),
        )
        .select([
          "c.id as conversation_id",
          "d.id as dentist_id",
          "d.full_name",
          "d.city",
          "d.avatar_url",
          "latest.body",
          "latest.created_at",
        ])
        .where("c.request_id", "=", requestId)
        .where("c.patient_id", "=", actor.userId)
        .orderBy("c.created_at")
        .orderBy("c.id")
        .execute();
    },

    /**
     * Sends an open request addressed to one dentist to every verified dentist, with the new consent
     * that goes with it (ADR 073), and records it in the audit log with the dentist and the consent it
     * replaced, in one transaction. `changed` false when it was already open to all; undefined when it
     * is not open (or not the actor's).
     */
    async openToAll(id: string, consent: { version: string; text: string }) {
      return db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom("requests")
          .select(["recipient_dentist_id", "consent_version", "consent_at"])
          .where("id", "=", id)
          .where("patient_id", "=", actor.userId)
          .where("status", "in", ["new", "in_review"])
          .forUpdate()
          .executeTakeFirst();
        if (!current) return undefined;
        if (current.recipient_dentist_id === null) return { changed: false };
        await trx
          .updateTable("requests")
          .set({
            recipient_dentist_id: null,
            consent_version: consent.version,
            consent_text: consent.text,
            consent_at: now,
            updated_at: now,
          })
          .where("id", "=", id)
          .execute();
        await writeAudit(trx, {
          actorId: actor.userId,
          action: "request.opened_to_all",
          subjectType: "request",
          subjectId: id,
          details: {
            replaced: {
              dentist_id: current.recipient_dentist_id,
              consent_version: current.consent_version,
              consent_at: new Date(current.consent_at).toISOString(),
            },
          },
        });
        return { changed: true };
      });
    },

    /**
     * Cancels an open request, and closes the offers still waiting on it, in one transaction;
     * `withdrawConsent` records that the patient withdrew the consent. Returns the dentists whose offer
     * it closed (their e-mail contacts); undefined when it is not the actor's or no longer open.
     */
    async cancel(id: string, options: { withdrawConsent?: boolean } = {}) {
      return db.transaction().execute(async (trx) => {
        const [cancelled] = await cancelOpenRequests(trx, actor.userId, now, { id, ...options });
        if (!cancelled) return undefined;
        if (options.withdrawConsent)
          await writeAudit(trx, {
            actorId: actor.userId,
            action: "request.consent_withdrawn",
            subjectType: "request",
            subjectId: id,
          });
        return cancelled;
      });
    },

    /**
     * Deletes the request and, in cascade, everything hanging on it (documents and their access
     * history, offers, conversations and their messages, appointments), in one transaction when its
     * status allows it, with its audit row. Returns the stored file keys to remove once committed and
     * the dentists whose offer it withdrew from them (their e-mail contacts); undefined when it is not
     * the actor's or may not be deleted.
     */
    async remove(id: string, allowed: (status: string) => boolean) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom("requests")
          .select("status")
          .where("id", "=", id)
          .where("patient_id", "=", actor.userId)
          .forUpdate()
          .executeTakeFirst();
        if (!row || !allowed(row.status)) return undefined;
        const documents = await trx
          .selectFrom("documents")
          .select("storage_key as key")
          .where("request_id", "=", id)
          .execute();
        const attachments = await trx
          .selectFrom("message_attachments as a")
          .innerJoin("messages as m", "m.id", "a.message_id")
          .innerJoin("conversations as c", "c.id", "m.conversation_id")
          .select("a.storage_key as key")
          .where("c.request_id", "=", id)
          .execute();
        // The texts read from its devis (issue 17): their rows go with the request.
        const readings = await readingTextKeys(trx, "request_id", [id]);
        // The dentists whose offer still waited on it, told once it is gone, as for a cancellation.
        const waiting = await trx
          .selectFrom("offers")
          .select("dentist_id")
          .where("request_id", "=", id)
          .where("status", "=", "sent")
          .execute();
        const told = await contactsOf(
          trx,
          waiting.map((offer) => offer.dentist_id),
        );
        await trx.deleteFrom("requests").where("id", "=", id).execute();
        const keys = [...documents, ...attachments].map((file) => file.key).concat(readings);
        await writeAudit(trx, {
          actorId: actor.userId,
          action: "request.deleted",
          subjectType: "request",
          subjectId: id,
          details: { files: keys.length },
        });
        return { keys, closedOffersOf: told };
      });
    },
  };
}

/**
 * Verified dentists a patient may address a request to at `now` (derived from profiles, so it never
 * disagrees with them): those taking new requests, not one whose trial or subscription lapsed.
 */
export async function listVerifiedDentists(db: Db, now: Date) {
  return db
    .selectFrom("profiles")
    .select(["id", "full_name", "city", "specialties", "practice_postcode"])
    .where((eb) => addressableDentist(eb, now))
    .orderBy("full_name")
    .limit(500)
    .execute();
}
