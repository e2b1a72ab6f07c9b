import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import {
  appointmentMonthLabel,
  latestStartOfPastAppointment,
  mayEditReview,
  REVIEW_FLAGS,
  REVIEW_LIMITS,
  type ReviewFlag,
  type ReviewReportDecision,
  reviewAuthorLabel,
} from "../../../shared/domain/reviews";
import type {
  ModerationReview,
  OwnReview,
  PublicReview,
  RatingSummary,
  ReviewInvitation,
} from "../../../shared/schemas/reviews";
import type { Actor } from "../../access/actor";
import { isVerifiedDentist } from "../../access/rules";
import type { Db } from "../../db/index";
import { fetchPage } from "../../db/paging";
import type { Database, ReviewsTable } from "../../db/types";

/*
 * The reviews' reads and writes (issue 36, ADR 046). Every function is bound to its actor: the
 * patient reads and changes her own reviews and sees her own past appointments; the dentist sees the
 * published reviews about him; the team sees everything through the admin-only functions; patients
 * see published reviews of verified dentists. `system*` names the jobs' explicit bypass.
 */

type Trx = Transaction<Database>;

/** What the author writes (validated by reviewInputSchema). */
export interface ReviewWrite {
  rating: number;
  explanations: number | null;
  listening: number | null;
  punctuality: number | null;
  text: string;
  author_title: "patiente" | "patient";
}
type ReviewRow = Selectable<ReviewsTable> & {
  patient_first_name: string;
  patient_last_name: string;
  dentist_name: string;
};

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

/** A review with its author's and dentist's names. */
function withNames(db: Kysely<Database>) {
  return db
    .selectFrom("reviews as v")
    .innerJoin("profiles as pp", "pp.id", "v.patient_id")
    .innerJoin("profiles as dp", "dp.id", "v.dentist_id")
    .selectAll("v")
    .select([
      "pp.first_name as patient_first_name",
      "pp.last_name as patient_last_name",
      "dp.full_name as dentist_name",
    ]);
}

export function toPublicReview(row: ReviewRow): PublicReview {
  return {
    id: row.id,
    rating: row.rating,
    explanations: row.explanations,
    listening: row.listening,
    punctuality: row.punctuality,
    text: row.text,
    author: reviewAuthorLabel(row.patient_first_name, row.patient_last_name, row.author_title),
    appointment_month: appointmentMonthLabel(row.appointment_starts_at),
    published_at: iso(row.published_at) ?? "",
    answer: row.answer,
    answered_at: iso(row.answered_at),
  };
}

function toOwnReview(row: ReviewRow, now: Date): OwnReview {
  return {
    ...toPublicReview(row),
    published_at: iso(row.published_at),
    status: row.status,
    refusal_reason: row.status === "refused" ? row.refusal_reason : null,
    author_title: row.author_title,
    appointment_id: row.appointment_id,
    dentist: { id: row.dentist_id, full_name: row.dentist_name || "Dentiste" },
    created_at: iso(row.created_at) as string,
    may_edit: mayEditReview(row.created_at, now),
  };
}

const knownFlags = (flags: string[]): ReviewFlag[] =>
  flags.filter((flag): flag is ReviewFlag => (REVIEW_FLAGS as readonly string[]).includes(flag));

/** Average (one decimal) and count of published reviews, per dentist. */
export async function ratingSummaries(db: Db, dentistIds: string[]): Promise<Map<string, RatingSummary>> {
  const summaries = new Map<string, RatingSummary>();
  if (dentistIds.length === 0) return summaries;
  const rows = await db
    .selectFrom("reviews")
    .select([
      "dentist_id",
      sql<number>`count(*)::int`.as("count"),
      sql<number>`round(avg(rating)::numeric, 1)::float8`.as("average"),
    ])
    .where("status", "=", "published")
    .where("dentist_id", "in", [...new Set(dentistIds)])
    .groupBy("dentist_id")
    .execute();
  for (const row of rows)
    summaries.set(row.dentist_id, { average: Number(row.average), count: Number(row.count) });
  return summaries;
}

export const NO_RATING: RatingSummary = { average: null, count: 0 };

/** The unique index of one review per appointment (migration 035: `appointment_id uuid unique`). */
export const ONE_REVIEW_PER_APPOINTMENT = "reviews_appointment_id_key";

/**
 * Whether `error` is the database refusing a second review of one appointment: two first reviews
 * written at the same moment both find none (each under its own snapshot), the second insert meets
 * the unique index. Only that index: any other unique violation stays an error.
 */
export function isSecondReviewOfAppointment(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === "23505" && constraint === ONE_REVIEW_PER_APPOINTMENT;
}

/** Reviews as the actor may read or change them. */
export function reviewsRepo(db: Db, actor: Actor) {
  const me = actor.userId;
  const isPatient = actor.profile.role === "patient";
  const isDentist = isVerifiedDentist(actor.profile);

  return {
    /**
     * The patient's own appointment, locked, with whether it has a review: undefined when it is not
     * hers (another patient's, a dentist's, or none). The service decides whether it may be reviewed.
     */
    async ownAppointment(trx: Trx, appointmentId: string) {
      if (!isPatient) return undefined;
      return trx
        .selectFrom("appointments as a")
        .select([
          "a.id",
          "a.status",
          "a.starts_at",
          "a.dentist_id",
          "a.request_id",
          sql<boolean>`exists (select 1 from reviews v where v.appointment_id = a.id)`.as("reviewed"),
        ])
        .where("a.id", "=", appointmentId)
        .where("a.patient_id", "=", me)
        .forUpdate("a")
        .executeTakeFirst();
    },

    /**
     * Confirmed appointments of the patient that are over (start plus length, the rule of
     * appointmentIsOver), not yet reviewed: the dashboard's card, newest first.
     */
    async invitations(now: Date): Promise<ReviewInvitation[]> {
      if (!isPatient) return [];
      const rows = await db
        .selectFrom("appointments as a")
        .innerJoin("profiles as dp", "dp.id", "a.dentist_id")
        .select(["a.id", "a.request_id", "a.starts_at", "a.dentist_id", "dp.full_name"])
        .where("a.patient_id", "=", me)
        .where("a.status", "=", "confirmed")
        .where("a.starts_at", "<=", latestStartOfPastAppointment(now))
        .where("dp.erased_at", "is", null)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("reviews as v").select("v.id").whereRef("v.appointment_id", "=", "a.id"))),
        )
        .orderBy("a.starts_at", "desc")
        .limit(10)
        .execute();
      return rows.map((row) => ({
        appointment_id: row.id,
        request_id: row.request_id,
        starts_at: iso(row.starts_at) as string,
        dentist: { id: row.dentist_id, full_name: row.full_name || "Dentiste" },
      }));
    },

    /** The patient's own reviews, newest first. */
    async mine(now: Date): Promise<OwnReview[]> {
      if (!isPatient) return [];
      const rows = await withNames(db)
        .where("v.patient_id", "=", me)
        .orderBy("v.created_at", "desc")
        .limit(100)
        .execute();
      return rows.map((row) => toOwnReview(row, now));
    },

    /** One of the patient's own reviews (locked in `trx` when given); undefined when not hers. */
    async own(id: string, now: Date, trx?: Trx) {
      if (!isPatient) return undefined;
      const query = withNames(trx ?? db)
        .where("v.id", "=", id)
        .where("v.patient_id", "=", me);
      const row = await (trx ? query.forUpdate("v") : query).executeTakeFirst();
      return row && { row, dto: toOwnReview(row, now) };
    },

    async create(
      trx: Trx,
      values: {
        appointmentId: string;
        dentistId: string;
        startsAt: Date;
        input: ReviewWrite;
        flags: ReviewFlag[];
        now: Date;
      },
    ) {
      const { input } = values;
      const created = await trx
        .insertInto("reviews")
        .values({
          appointment_id: values.appointmentId,
          patient_id: me,
          dentist_id: values.dentistId,
          appointment_starts_at: values.startsAt,
          rating: input.rating,
          explanations: input.explanations,
          listening: input.listening,
          punctuality: input.punctuality,
          text: input.text,
          author_title: input.author_title,
          flags: values.flags,
          created_at: values.now,
          updated_at: values.now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return created.id;
    },

    /**
     * The author's new version: back to moderation, unpublished until the team reads it again. The
     * dentist's answer and his open reports were about the old text: they go with it (the dentist may
     * answer and report the new one). The reports the team closed stay, with their reasons: the
     * history of its decisions on the old text (their review_version names it).
     */
    async rewrite(trx: Trx, id: string, input: ReviewWrite, flags: ReviewFlag[], now: Date) {
      const rewritten = await trx
        .updateTable("reviews")
        .set({
          ...input,
          flags,
          status: "pending",
          published_at: null,
          refusal_reason: null,
          decided_at: null,
          decided_by: null,
          answer: null,
          answered_at: null,
          // The version the team's decision is checked against (its millisecond, as the list gives
          // it): always a new one, even for a rewrite within the same millisecond or a clock behind.
          updated_at: sql<Date>`greatest(${now}::timestamptz, date_trunc('milliseconds', updated_at) + interval '1 millisecond')`,
        })
        .where("id", "=", id)
        .where("patient_id", "=", me)
        .executeTakeFirst();
      if (Number(rewritten.numUpdatedRows) > 0)
        await trx
          .deleteFrom("review_reports")
          .where("review_id", "=", id)
          .where("closed_at", "is", null)
          .execute();
    },

    async remove(trx: Trx, id: string) {
      const gone = await trx
        .deleteFrom("reviews")
        .where("id", "=", id)
        .where("patient_id", "=", me)
        .executeTakeFirst();
      return Number(gone.numDeletedRows) > 0;
    },

    /**
     * The published reviews about the dentist, newest first, with whether he reported each text as it
     * is (a report still open, or one the team closed on this version), and whether the team kept it
     * online after his report.
     */
    async received(page: number) {
      if (!isDentist) return { items: [], hasMore: false };
      const { rows, hasMore } = await fetchPage(
        withNames(db)
          .select([
            sql<boolean>`exists (select 1 from review_reports rr where rr.review_id = v.id and rr.dentist_id = ${me} and (rr.closed_at is null or rr.review_version = v.updated_at))`.as(
              "reported",
            ),
            sql<boolean>`exists (select 1 from review_reports rr where rr.review_id = v.id and rr.dentist_id = ${me} and rr.decision = 'kept' and rr.review_version = v.updated_at)`.as(
              "report_kept",
            ),
          ])
          .where("v.dentist_id", "=", me)
          .where("v.status", "=", "published")
          .orderBy("v.published_at", "desc")
          .orderBy("v.id"),
        { page, pageSize: REVIEW_LIMITS.pageSize },
      );
      return {
        items: rows.map((row) => ({
          ...toPublicReview(row),
          reported: row.reported,
          report_kept: row.report_kept,
        })),
        hasMore,
      };
    },

    /**
     * The average and count of the dentist's published reviews, as his list shows them: none for a
     * dentist not verified (pending or withdrawn), who reads no review (D6), so the count never
     * promises a list he cannot see.
     */
    async receivedSummary(): Promise<RatingSummary> {
      if (!isDentist) return NO_RATING;
      return (await ratingSummaries(db, [me])).get(me) ?? NO_RATING;
    },

    /** A published review about the dentist, locked; undefined for any other. */
    async receivedOne(trx: Trx, id: string) {
      if (!isDentist) return undefined;
      return withNames(trx)
        .where("v.id", "=", id)
        .where("v.dentist_id", "=", me)
        .where("v.status", "=", "published")
        .forUpdate("v")
        .executeTakeFirst();
    },

    /** The one answer: written only while there is none (false when one was already there). */
    async answer(trx: Trx, id: string, text: string, now: Date) {
      const done = await trx
        .updateTable("reviews")
        .set({ answer: text, answered_at: now })
        .where("id", "=", id)
        .where("dentist_id", "=", me)
        .where("answer", "is", null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },

    /**
     * A report to the team, about the review's text as it is (its version). "open": this dentist's
     * report on it is still open; "kept": the team examined his report on this very text and kept it
     * online (a rewrite by its author makes a new text, which he may report).
     */
    async report(trx: Trx, id: string, reason: string, now: Date): Promise<"sent" | "open" | "kept"> {
      const kept = await trx
        .selectFrom("review_reports as rr")
        .innerJoin("reviews as v", "v.id", "rr.review_id")
        .select("rr.id")
        .where("rr.review_id", "=", id)
        .where("rr.dentist_id", "=", me)
        .where("rr.decision", "=", "kept")
        .whereRef("rr.review_version", "=", "v.updated_at")
        .limit(1)
        .executeTakeFirst();
      if (kept) return "kept";
      const done = await trx
        .insertInto("review_reports")
        .values({
          review_id: id,
          dentist_id: me,
          reason,
          created_at: now,
          // The version exactly as stored (microseconds included), not as a Date read back.
          review_version: sql<Date>`(select updated_at from reviews where id = ${id})`,
        })
        .onConflict((oc) =>
          oc.columns(["review_id", "dentist_id"]).where("closed_at", "is", null).doNothing(),
        )
        .returning("id")
        .executeTakeFirst();
      return done === undefined ? "open" : "sent";
    },
  };
}

/** Published reviews of a verified dentist, as patients see them: newest first. */
export async function publishedReviewsOf(db: Db, dentistId: string, page: number) {
  const dentist = await db
    .selectFrom("profiles")
    .select(["id", "full_name"])
    .where("id", "=", dentistId)
    .where("role", "=", "dentist")
    .where("is_verified", "=", true)
    .where("erased_at", "is", null)
    .executeTakeFirst();
  if (!dentist) return undefined;
  const [{ rows, hasMore }, summaries] = await Promise.all([
    fetchPage(
      withNames(db)
        .where("v.dentist_id", "=", dentistId)
        .where("v.status", "=", "published")
        .orderBy("v.published_at", "desc")
        .orderBy("v.id"),
      { page, pageSize: REVIEW_LIMITS.pageSize },
    ),
    ratingSummaries(db, [dentistId]),
  ]);
  return {
    dentist: { id: dentist.id, full_name: dentist.full_name || "Dentiste" },
    summary: summaries.get(dentistId) ?? NO_RATING,
    items: rows.map(toPublicReview),
    hasMore,
  };
}

/** The team's reads and decisions (admin routes only: the area guard has checked is_admin). */
export const moderationRepo = {
  async list(
    db: Db,
    q: { status: "pending" | "reported" | "published" | "refused"; dentist?: string; page: number },
  ) {
    let query = withNames(db);
    if (q.status === "reported")
      query = query
        .where("v.status", "=", "published")
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom("review_reports as rr")
              .select("rr.id")
              .whereRef("rr.review_id", "=", "v.id")
              .where("rr.closed_at", "is", null),
          ),
        );
    else query = query.where("v.status", "=", q.status);
    if (q.dentist) query = query.where("v.dentist_id", "=", q.dentist);
    const ordered =
      q.status === "pending"
        ? query.orderBy("v.updated_at").orderBy("v.id")
        : query.orderBy("v.updated_at", "desc").orderBy("v.id");
    const { rows, hasMore } = await fetchPage(ordered, { page: q.page, pageSize: 20 });
    return { items: await withReports(db, rows), hasMore };
  },

  async one(db: Db, id: string) {
    const row = await withNames(db).where("v.id", "=", id).executeTakeFirst();
    return row && (await withReports(db, [row]))[0];
  },

  lock(trx: Trx, id: string) {
    return trx
      .selectFrom("reviews")
      .select(["id", "status", "patient_id", "dentist_id", "created_at", "updated_at"])
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
  },

  async decide(
    trx: Trx,
    id: string,
    d: { publish: boolean; reason: string | null; adminId: string; now: Date },
  ) {
    await trx
      .updateTable("reviews")
      .set({
        status: d.publish ? "published" : "refused",
        published_at: d.publish ? d.now : null,
        refusal_reason: d.publish ? null : d.reason,
        decided_at: d.now,
        decided_by: d.adminId,
      })
      .where("id", "=", id)
      .execute();
  },

  /** Whether the review has at least one open report (the « Signalés » list). */
  async hasOpenReports(trx: Trx, id: string) {
    const row = await trx
      .selectFrom("review_reports")
      .select("id")
      .where("review_id", "=", id)
      .where("closed_at", "is", null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /**
   * The team's decision closes the review's open reports (kept online, or withdrawn): they stay, with
   * their reasons, in the review's history. Their ids, for the audit trail.
   */
  async closeReports(
    trx: Trx,
    id: string,
    d: { decision: ReviewReportDecision; adminId: string; now: Date },
  ): Promise<string[]> {
    const closed = await trx
      .updateTable("review_reports")
      .set({ closed_at: d.now, closed_by: d.adminId, decision: d.decision })
      .where("review_id", "=", id)
      .where("closed_at", "is", null)
      .returning("id")
      .execute();
    return closed.map((row) => row.id);
  },

  /**
   * The e-mail addresses and first names of a review's author and dentist, and the dentist's role and
   * verification (isVerifiedDentist: only a verified dentist is told of a publication).
   */
  parties(db: Db, id: string) {
    return db
      .selectFrom("reviews as v")
      .innerJoin("profiles as pp", "pp.id", "v.patient_id")
      .innerJoin("profiles as dp", "dp.id", "v.dentist_id")
      .select([
        "pp.email as patient_email",
        "pp.first_name as patient_first_name",
        "pp.full_name as patient_full_name",
        "dp.email as dentist_email",
        "dp.first_name as dentist_first_name",
        "dp.full_name as dentist_name",
        "dp.role as dentist_role",
        "dp.is_admin as dentist_is_admin",
        "dp.is_verified as dentist_is_verified",
        "dp.email_reviews as dentist_email_reviews",
      ])
      .where("v.id", "=", id)
      .executeTakeFirst();
  },
};

async function withReports(db: Db, rows: ReviewRow[]): Promise<ModerationReview[]> {
  const ids = rows.map((row) => row.id);
  const reports =
    ids.length === 0
      ? []
      : await db
          .selectFrom("review_reports as rr")
          .innerJoin("profiles as dp", "dp.id", "rr.dentist_id")
          .select([
            "rr.id",
            "rr.review_id",
            "rr.reason",
            "rr.created_at",
            "rr.closed_at",
            "rr.decision",
            "rr.review_version",
            "dp.full_name",
          ])
          .where("rr.review_id", "in", ids)
          .orderBy("rr.created_at")
          .orderBy("rr.id")
          .execute();
  return rows.map((row) => ({
    ...toPublicReview(row),
    published_at: iso(row.published_at),
    status: row.status,
    flags: knownFlags(row.flags),
    refusal_reason: row.refusal_reason,
    dentist: { id: row.dentist_id, full_name: row.dentist_name || "Dentiste" },
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
    reports: reports
      .filter((r) => r.review_id === row.id)
      .map((r) => ({
        id: r.id,
        reason: r.reason,
        created_at: iso(r.created_at) as string,
        dentist_name: r.full_name || "Dentiste",
        closed_at: iso(r.closed_at),
        decision: r.decision,
        earlier_text: new Date(r.review_version).getTime() < new Date(row.updated_at).getTime(),
      })),
  }));
}

/**
 * The daily invitations (system: the job has no actor): confirmed appointments that took place
 * before `dayStart` (the day after, in Paris) and within the last `days` days, not reviewed, not
 * invited yet. Each is claimed by its insert into review_invitations, so an instance running the
 * same job at the same moment claims none of the same ones.
 */
export async function systemClaimInvitations(db: Db, dayStart: Date, since: Date, now: Date) {
  const due = await db
    .selectFrom("appointments as a")
    .select("a.id")
    .where("a.status", "=", "confirmed")
    .where("a.starts_at", "<", dayStart)
    .where("a.starts_at", ">=", since)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("review_invitations as ri")
            .select("ri.appointment_id")
            .whereRef("ri.appointment_id", "=", "a.id"),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("reviews as v").select("v.id").whereRef("v.appointment_id", "=", "a.id"))),
    )
    .limit(200)
    .execute();
  if (due.length === 0) return [];
  const claimed = await db
    .insertInto("review_invitations")
    .values(due.map((row) => ({ appointment_id: row.id, sent_at: now })))
    .onConflict((oc) => oc.column("appointment_id").doNothing())
    .returning("appointment_id")
    .execute();
  if (claimed.length === 0) return [];
  return db
    .selectFrom("appointments as a")
    .innerJoin("profiles as pp", "pp.id", "a.patient_id")
    .innerJoin("profiles as dp", "dp.id", "a.dentist_id")
    .select([
      "a.id",
      "pp.email as patient_email",
      "pp.first_name as patient_first_name",
      "pp.full_name as patient_full_name",
      "pp.erased_at as patient_erased_at",
      "pp.email_reviews as patient_email_reviews",
      "pp.suspended_at as patient_suspended_at",
      "dp.full_name as dentist_name",
    ])
    .where(
      "a.id",
      "in",
      claimed.map((row) => row.appointment_id),
    )
    .execute();
}

/** An invitation whose e-mail failed: released for the next run. */
export async function systemReleaseInvitation(db: Db, appointmentId: string) {
  await db.deleteFrom("review_invitations").where("appointment_id", "=", appointmentId).execute();
}

/**
 * The actor's reviews for the data export ("Télécharger mes données"): those she wrote (a patient),
 * those published about him with his answers and his reports (a dentist). Of the other party, only
 * the name the review shows. A dentist not verified (pending, or verification withdrawn) reads no
 * review (D6), and his archive neither: of the reviews about him, only his own answers, without the
 * review they answer (no author, mark, text or appointment month); his reports stay (his reasons).
 * Everything is back once he is verified again.
 */
export async function reviewsForExport(db: Db, actor: Actor) {
  const me = actor.userId;
  const unverifiedDentist = actor.profile.role === "dentist" && !isVerifiedDentist(actor.profile);
  const columns = [
    "v.id",
    "v.appointment_id",
    "v.appointment_starts_at",
    "v.rating",
    "v.explanations",
    "v.listening",
    "v.punctuality",
    "v.text",
    "v.author_title",
    "v.status",
    "v.refusal_reason",
    "v.published_at",
    "v.answer",
    "v.answered_at",
    "v.created_at",
    "v.updated_at",
  ] as const;
  const [written, about, answersOnly, reports] = await Promise.all([
    db
      .selectFrom("reviews as v")
      .innerJoin("profiles as dp", "dp.id", "v.dentist_id")
      .select(columns)
      .select("dp.full_name as dentist_name")
      .where("v.patient_id", "=", me)
      .orderBy("v.created_at")
      .execute(),
    unverifiedDentist
      ? []
      : db
          .selectFrom("reviews as v")
          .innerJoin("profiles as pp", "pp.id", "v.patient_id")
          .select(columns)
          .select(["pp.first_name as patient_first_name", "pp.last_name as patient_last_name"])
          .where("v.dentist_id", "=", me)
          .where("v.status", "=", "published")
          .orderBy("v.created_at")
          .execute(),
    unverifiedDentist
      ? db
          .selectFrom("reviews as v")
          .select(["v.id", "v.answer", "v.answered_at"])
          .where("v.dentist_id", "=", me)
          .where("v.status", "=", "published")
          .where("v.answer", "is not", null)
          .orderBy("v.created_at")
          .execute()
      : [],
    db
      .selectFrom("review_reports")
      .select(["id", "review_id", "reason", "created_at", "closed_at", "decision"])
      .where("dentist_id", "=", me)
      .orderBy("created_at")
      .execute(),
  ]);
  return { written, about, answersOnly, reports };
}
