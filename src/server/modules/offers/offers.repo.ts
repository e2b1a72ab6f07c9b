import { type ExpressionBuilder, sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { OfferState } from "../../../shared/domain/offers";
import { mayWithdrawOffer } from "../../../shared/policies/appointments";
import { offerStateOf, parisToday } from "../../../shared/policies/offers";
import {
  DENTIST_OFFERS_PAGE_SIZE,
  LAST_FEES_OFFERS,
  type LastFee,
  type OfferDto,
} from "../../../shared/schemas/offers";
import { QUOTE_LINE_FIELDS, type QuoteLineDto, tableBound } from "../../../shared/schemas/quotes";
import type { Actor } from "../../access/actor";
import { requestVisibleToDentist } from "../../access/requests";
import { isVerifiedDentist, OPEN_REQUEST_STATUSES } from "../../access/rules";
import type { Db } from "../../db/index";
import { linesOf, offerLinesAndSlots } from "../../db/offer-details";
import { fetchPage } from "../../db/paging";
import { GENERIC_PLAN } from "../../db/prepared";
import type { Database } from "../../db/types";
import { withDistance } from "../../geo/distance";

/** The columns of an offer, with its validity as a Paris calendar day. */
const offerColumns = [
  "o.id",
  "o.request_id",
  "o.dentist_id",
  "o.amount_cents",
  "o.comment",
  sql<string | null>`to_char(o.valid_until, 'YYYY-MM-DD')`.as("valid_until"),
  "o.status",
  "o.created_at",
] as const;

type OfferRow = {
  id: string;
  request_id: string;
  amount_cents: number;
  comment: string;
  valid_until: string | null;
  status: "sent" | "accepted" | "closed" | "withdrawn";
  created_at: Date | string;
};

/**
 * Those of the slots of these offers (already filtered by the caller) at which their dentist has since
 * confirmed an appointment on another offer (issue 32): the slot chooser does not offer them.
 */
function takenSlots(db: Db, offerIds: string[]) {
  return db
    .selectFrom("offer_slots as os")
    .innerJoin("offers as o", "o.id", "os.offer_id")
    .innerJoin("appointments as a", (join) =>
      join
        .onRef("a.dentist_id", "=", "o.dentist_id")
        .onRef("a.starts_at", "=", "os.starts_at")
        .onRef("a.offer_id", "<>", "o.id")
        .on("a.status", "=", "confirmed"),
    )
    .select(["os.offer_id", "os.starts_at"])
    .where("os.offer_id", "in", offerIds)
    .execute();
}

/** Line items and slots of these offers, in two queries, then the DTOs in the given order. */
async function withDetails<R extends OfferRow>(
  db: Db,
  rows: R[],
  now: Date,
): Promise<(R & { dto: OfferDto })[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [{ lines, slots }, taken] = await Promise.all([offerLinesAndSlots(db, ids), takenSlots(db, ids)]);
  return rows.map((row) => ({
    ...row,
    dto: offerDto(
      row,
      linesOf(lines, row.id),
      slots.filter((s) => s.offer_id === row.id),
      taken.filter((s) => s.offer_id === row.id),
      now,
    ),
  }));
}

/** An offer as the API shows it, from its row, its lines (in order), its slots and its taken slots. */
function offerDto(
  row: OfferRow,
  lines: QuoteLineDto[],
  slots: { starts_at: Date | string }[],
  taken: { starts_at: Date | string }[],
  now: Date,
): OfferDto {
  const iso = (slot: { starts_at: Date | string }) => new Date(slot.starts_at).toISOString();
  return {
    id: row.id,
    request_id: row.request_id,
    amount_cents: row.amount_cents,
    comment: row.comment,
    valid_until: row.valid_until,
    state: offerStateOf(row, now),
    // Rows stored before issue 32 may hold a BR the dentist typed on a free line: read as 0.
    lines: lines.map(tableBound),
    slots: slots.map(iso),
    taken_slots: taken.map(iso),
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** A dentist's own offers: every query is filtered by the actor's id. */
export function dentistOffersRepo(db: Db, actor: Actor) {
  const verified = isVerifiedDentist(actor.profile);
  return {
    /** What the proposal page needs besides the request: undefined when not visible (→ 404). */
    async context(requestId: string) {
      if (!verified) return undefined;
      return db
        .selectFrom("requests as r")
        .innerJoin("profiles as p", "p.id", "r.patient_id")
        .leftJoin("request_dentists as rd", (join) =>
          join.onRef("rd.request_id", "=", "r.id").on("rd.dentist_id", "=", actor.userId),
        )
        .select(["r.status", "p.birth_date", sql<string>`coalesce(rd.status, 'pending')`.as("my_status")])
        .where("r.id", "=", requestId)
        .where((eb) => requestVisibleToDentist(eb, actor.userId, actor.limited))
        .executeTakeFirst();
    },

    /**
     * His last fee for each act of the nomenclature (ADR 097): the fee of the first line naming it in
     * the latest of his LAST_FEES_OFFERS latest offers that names it, withdrawn or not. Only his own
     * offers (none once unverified).
     */
    async lastFees(): Promise<LastFee[]> {
      if (!verified) return [];
      const latest = db
        .selectFrom("offers")
        .select(["id", "created_at"])
        .where("dentist_id", "=", actor.userId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(LAST_FEES_OFFERS)
        .as("o");
      const rows = await db
        .selectFrom(latest)
        .innerJoin("offer_lines as l", "l.offer_id", "o.id")
        .distinctOn("l.code")
        .select(["l.code", "l.fee_cents", "o.created_at"])
        .where("l.code", "is not", null)
        .orderBy("l.code")
        .orderBy("o.created_at", "desc")
        .orderBy("o.id", "desc")
        .orderBy("l.position")
        .execute();
      return rows.map((row) => ({
        code: row.code as string,
        fee_cents: row.fee_cents,
        offered_at: new Date(row.created_at).toISOString(),
      }));
    },

    /** 'Mes propositions': this dentist's offers, newest first, by state and page (none once unverified). */
    async list(state: OfferState | undefined, page: number, now: Date) {
      if (!verified) return { items: [], hasMore: false };
      const { rows, hasMore } = await fetchPage(
        db
          .selectFrom("offers as o")
          .innerJoin("requests as r", "r.id", "o.request_id")
          .innerJoin("profiles as p", "p.id", "r.patient_id")
          .select((eb) => [
            ...offerColumns,
            "o.decided_at",
            "r.treatment_type",
            "r.status as request_status",
            "p.full_name as patient_name",
            // Its lines, slots and taken slots as JSON arrays of the page's rows (one round trip,
            // issue 38; they were three more queries): each a lookup by the offer's key.
            jsonArrayFrom(
              eb
                .selectFrom("offer_lines as l")
                .select(QUOTE_LINE_FIELDS.map((field) => `l.${field}` as const))
                .whereRef("l.offer_id", "=", "o.id")
                .orderBy("l.position"),
            ).as("lines"),
            jsonArrayFrom(
              eb
                .selectFrom("offer_slots as s")
                .select("s.starts_at")
                .whereRef("s.offer_id", "=", "o.id")
                .orderBy("s.starts_at"),
            ).as("slots"),
            jsonArrayFrom(
              eb
                .selectFrom("offer_slots as ts")
                .innerJoin("appointments as a", (join) =>
                  join
                    .onRef("a.dentist_id", "=", "o.dentist_id")
                    .onRef("a.starts_at", "=", "ts.starts_at")
                    .onRef("a.offer_id", "<>", "o.id")
                    .on("a.status", "=", "confirmed"),
                )
                .select("ts.starts_at")
                .whereRef("ts.offer_id", "=", "o.id")
                .orderBy("ts.starts_at"),
            ).as("taken"),
          ])
          .where("o.dentist_id", "=", actor.userId)
          .where(whereState(state, parisToday(now)))
          .orderBy("o.created_at", "desc")
          .orderBy("o.id", "desc")
          // Its generic plan (db/prepared.ts): a page of one status in order from
          // offers_dentist_status_created_idx (migration 043), never planned again per call.
          .modifyEnd(sql.raw(GENERIC_PLAN)),
        { page, pageSize: DENTIST_OFFERS_PAGE_SIZE },
      );
      return {
        items: rows.map((row) => ({
          ...offerDto(row, row.lines, row.slots, row.taken, now),
          treatment_type: row.treatment_type,
          patient_name: row.patient_name || "Patient",
          request_status: row.request_status,
          decided_at: row.decided_at ? new Date(row.decided_at).toISOString() : null,
          may_withdraw: mayWithdrawOffer(offerStateOf(row, now)),
        })),
        hasMore,
      };
    },

    /** This dentist's latest offer on a request (a withdrawn one stays visible until a new one). */
    async onRequest(requestId: string, now: Date): Promise<OfferDto | null> {
      const rows = await db
        .selectFrom("offers as o")
        .select(offerColumns)
        .where("o.request_id", "=", requestId)
        .where("o.dentist_id", "=", actor.userId)
        .orderBy("o.created_at", "desc")
        .limit(1)
        .execute();
      const [offer] = await withDetails(db, rows, now);
      return offer?.dto ?? null;
    },
  };
}

/** 'Mes propositions': the filter on the state people see ('expired' is derived from the validity day). */
function whereState(state: OfferState | undefined, today: string) {
  return (eb: ExpressionBuilder<Database & { o: Database["offers"] }, "o">) => {
    switch (state) {
      case undefined:
        return eb.lit(true);
      case "sent":
        return eb.and([
          eb("o.status", "=", "sent"),
          eb.or([eb("o.valid_until", "is", null), eb("o.valid_until", ">=", today)]),
        ]);
      case "expired":
        return eb.and([eb("o.status", "=", "sent"), eb("o.valid_until", "<", today)]);
      default:
        return eb("o.status", "=", state);
    }
  };
}

/** The offers on one of the patient's own requests (ADR 008): never another patient's. */
export function patientOffersRepo(db: Db, actor: Actor) {
  return {
    async onRequest(requestId: string, now: Date) {
      const rows = await db
        .selectFrom("offers as o")
        .innerJoin("requests as r", "r.id", "o.request_id")
        .innerJoin("profiles as d", "d.id", "o.dentist_id")
        .leftJoin("conversations as c", (join) =>
          join.onRef("c.request_id", "=", "o.request_id").onRef("c.dentist_id", "=", "o.dentist_id"),
        )
        .select([
          ...offerColumns,
          "d.full_name as dentist_name",
          "d.city as dentist_city",
          "d.practice_postcode as dentist_postcode",
          "d.avatar_url as dentist_avatar_url",
          "d.specialties as dentist_specialties",
          "d.is_verified as dentist_verified",
          "d.erased_at as dentist_erased_at",
          "c.id as conversation_id",
          // The dentist's published reviews (issue 36): what patients see next to every offer.
          sql<
            number | null
          >`(select round(avg(v.rating)::numeric, 1)::float8 from reviews v where v.dentist_id = o.dentist_id and v.status = 'published')`.as(
            "rating_average",
          ),
          sql<number>`(select count(*)::int from reviews v where v.dentist_id = o.dentist_id and v.status = 'published')`.as(
            "rating_count",
          ),
        ])
        .where("o.request_id", "=", requestId)
        .where("r.patient_id", "=", actor.userId)
        // A withdrawn offer is the dentist's business; the patient sees what stands.
        .where("o.status", "!=", "withdrawn")
        .orderBy("o.created_at")
        .execute();
      const detailed = await withDetails(db, rows, now);
      return detailed.map((row) => ({
        ...row.dto,
        dentist: {
          id: row.dentist_id,
          full_name: row.dentist_name || "Dentiste",
          avatar_url: row.dentist_avatar_url,
          specialties: row.dentist_specialties ?? [],
          is_verified: row.dentist_verified,
          erased: row.dentist_erased_at !== null,
          // The commune and the distance from the patient's postal code (ADR 019), never the code.
          ...withDistance(
            { city: row.dentist_city, practice_postcode: row.dentist_postcode },
            actor.profile.postal_code,
          ),
          // Only a verified dentist's reviews are shown to patients (reviews.repo's publishedReviewsOf):
          // none for one pending or withdrawn, whose reviews page answers 404.
          rating: row.dentist_verified
            ? {
                average: row.rating_average === null ? null : Number(row.rating_average),
                count: Number(row.rating_count),
              }
            : null,
        },
        conversation_id: row.conversation_id,
      }));
    },
  };
}

/**
 * The mail job's part of ADR 087: claims the offers whose last valid day is between `today` and
 * `lastDay` (Paris days), still open to the patient's choice (sent, on an open request), sent before
 * `sentBefore`, not yet reminded; returns each with its patient and dentist. One statement, so that
 * two instances never remind twice.
 */
export async function systemClaimOfferExpiryReminders(
  db: Db,
  p: { now: Date; today: string; lastDay: string; sentBefore: Date },
) {
  return db
    .updateTable("offers as o")
    .from(["requests as r", "profiles as patient", "profiles as dentist"])
    .set({ expiry_reminded_at: p.now })
    .whereRef("r.id", "=", "o.request_id")
    .whereRef("patient.id", "=", "r.patient_id")
    .whereRef("dentist.id", "=", "o.dentist_id")
    .where("o.status", "=", "sent")
    .where("o.expiry_reminded_at", "is", null)
    .where("o.valid_until", "is not", null)
    .where("o.valid_until", ">=", p.today)
    .where("o.valid_until", "<=", p.lastDay)
    .where("o.created_at", "<=", p.sentBefore)
    .where(
      "r.status",
      "in",
      OPEN_REQUEST_STATUSES.map((status) => sql.lit(status)),
    )
    .returning([
      "o.id",
      "o.request_id",
      sql<string>`to_char(o.valid_until, 'YYYY-MM-DD')`.as("valid_until"),
      "patient.id as patient_id",
      "patient.email as patient_email",
      sql<string>`coalesce(nullif(patient.first_name, ''), patient.full_name)`.as("patient_first_name"),
      "patient.email_reminders",
      sql<string>`coalesce(nullif(dentist.full_name, ''), 'Dentiste')`.as("dentist_name"),
    ])
    .execute();
}
