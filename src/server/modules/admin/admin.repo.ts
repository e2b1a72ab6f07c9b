import { sql } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { formatDetailDate } from "../../../shared/format/dates";
import { drName, ofName, theName } from "../../../shared/format/names";
import { verificationStateOf } from "../../../shared/policies/verification";
import type { AuditEntry } from "../../../shared/schemas/admin";
import type { Actor } from "../../access/actor";
import { AUDIT_LABELS } from "../../access/audit";
import { runCompiled } from "../../db/compiled";
import type { Db } from "../../db/index";
import { isoOf } from "../../db/iso";
import { fetchItems, nameContains, nameOrEmailContains } from "../../db/paging";

/**
 * The admin area's reads (the is_admin flag, ADR 003). Bound to the actor: anyone without the flag gets
 * an error here too, whatever route calls it (the routes' guard is the first layer).
 */
export function adminRepo(db: Db, actor: Actor) {
  if (!actor.profile.is_admin) throw new Error("adminRepo: not an admin");

  return {
    async stats() {
      const [roles, queue, support, contact] = await Promise.all([
        db
          .selectFrom("profiles")
          .select([
            sql<number>`count(*) filter (where role = 'patient' and not is_admin)::int`.as("patients"),
            sql<number>`count(*) filter (where role = 'dentist')::int`.as("dentists"),
          ])
          // Pseudonyms of erased accounts are nobody's account (as in the users' lists).
          .where("erased_at", "is", null)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("profiles")
          .select(sql<number>`count(*)::int`.as("n"))
          .where("verification_requested_at", "is not", null)
          .where("is_verified", "=", false)
          .where("erased_at", "is", null)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("support_messages")
          .select(sql<number>`count(*)::int`.as("n"))
          .where("read_at", "is", null)
          .where("from_team", "=", false)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("contact_submissions")
          .select(sql<number>`count(*)::int`.as("n"))
          .where("handled_at", "is", null)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        patients: roles.patients,
        dentists: roles.dentists,
        verification_requests: queue.n,
        unread_support: support.n,
        unhandled_contact: contact.n,
      };
    },

    /** Patients or dentists, newest first, searched by name or e-mail, 10 a page (has_more). */
    async users(options: {
      role: "patient" | "dentist";
      search: string;
      /** Only the suspended accounts (ADR 092; a partial index, migration 057). */
      suspended?: boolean;
      page: number;
      pageSize: number;
    }) {
      const query = () => {
        let query = db
          .selectFrom("profiles")
          .select([
            "id",
            "full_name",
            "email",
            "role",
            "is_verified",
            "verification_requested_at",
            "verification_refusal_reason",
            "verification_decided_at",
            "rpps",
            "practice_address",
            "practice_postcode",
            "created_at",
            "suspended_at",
            "suspension_reason",
            "suspension_ends_at",
          ])
          // Two-step sign-in (ADR 098): one lookup by key per row of the page.
          .select((eb) =>
            eb
              .selectFrom("users")
              .select("users.two_factor_enabled")
              .whereRef("users.id", "=", "profiles.id")
              .as("two_factor_enabled"),
          )
          .where("role", "=", options.role)
          // Pseudonyms of erased accounts are nobody's account.
          .where("erased_at", "is", null);
        if (options.role === "patient") query = query.where("is_admin", "=", false);
        if (options.suspended) query = query.where("suspended_at", "is not", null);
        if (options.search) query = query.where(nameOrEmailContains("full_name", "email", options.search));
        // The page as one JSON array (one field: on PGlite each field of each row is copied and
        // decoded in JavaScript, which cost more than PostgreSQL's building the JSON, ADR 057); its
        // dates come as ISO text, made the same ISO text below.
        return db.selectNoFrom(
          jsonArrayFrom(
            query
              .orderBy("created_at", "desc")
              .orderBy("id", "desc")
              .limit(options.pageSize + 1)
              .offset((options.page - 1) * options.pageSize),
          ).as("rows"),
        );
      };
      // Without a search, the first pages are built and compiled once (db/compiled.ts, issue 38).
      const [page] =
        options.search || options.page > 3
          ? await query().execute()
          : await runCompiled(
              db,
              `admin-users:${options.role}:${options.suspended === true}:${options.page}:${options.pageSize}`,
              {},
              query,
              // Planned again on every call otherwise (PostgreSQL at 100 000 requests: 1 001 custom
              // plans, 0 generic; ADR 060): its generic plan reads the same index in list order.
              { genericPlan: true },
            );
      const rows = page?.rows ?? [];
      return {
        items: rows.slice(0, options.pageSize).map((row) => ({
          id: row.id,
          full_name: row.full_name,
          email: row.email,
          // The query filters on this role.
          role: options.role,
          is_verified: row.is_verified,
          verification_state: verificationStateOf(row),
          rpps: row.rpps,
          practice_address: row.practice_address,
          practice_postcode: row.practice_postcode,
          created_at: isoOf(row.created_at),
          suspended_at: row.suspended_at === null ? null : isoOf(row.suspended_at),
          suspension_reason: row.suspension_reason,
          suspension_ends_at: row.suspension_ends_at === null ? null : isoOf(row.suspension_ends_at),
          two_factor_enabled: row.two_factor_enabled === true,
        })),
        hasMore: rows.length > options.pageSize,
      };
    },

    /**
     * Dentists waiting for a decision, oldest request first; with each, the other accounts that gave
     * the same RPPS number (one practitioner's for life: ADR 075), verified first.
     */
    async verificationQueue(options: { page: number; pageSize: number }) {
      return fetchItems(
        db
          .selectFrom("profiles as p")
          .select([
            "p.id",
            "p.full_name",
            "p.email",
            "p.city",
            "p.rpps",
            "p.practice_address",
            "p.practice_postcode",
            "p.verification_requested_at",
            "p.verification_refusal_reason",
          ])
          .select((eb) =>
            jsonArrayFrom(
              eb
                .selectFrom("profiles as o")
                .select(["o.id", "o.full_name", "o.email", "o.is_verified"])
                .whereRef("o.rpps", "=", "p.rpps")
                .whereRef("o.id", "!=", "p.id")
                .where("o.role", "=", "dentist")
                .orderBy("o.is_verified", "desc")
                .orderBy("o.created_at"),
            ).as("same_rpps"),
          )
          .where("p.verification_requested_at", "is not", null)
          .where("p.is_verified", "=", false)
          .orderBy("p.verification_requested_at")
          .orderBy("p.id"),
        options,
        (row) => ({
          id: row.id,
          full_name: row.full_name,
          email: row.email,
          city: row.city,
          rpps: row.rpps,
          practice_address: row.practice_address,
          practice_postcode: row.practice_postcode,
          requested_at: new Date(row.verification_requested_at as Date).toISOString(),
          previous_refusal: row.verification_refusal_reason,
          same_rpps: row.same_rpps,
        }),
      );
    },

    async contact(options: { page: number; pageSize: number }) {
      return fetchItems(
        db
          .selectFrom("contact_submissions")
          .select([
            "id",
            "name",
            "email",
            "treatment_type",
            "message",
            "file_name",
            "file_size",
            "created_at",
            "handled_at",
          ])
          .orderBy("created_at", "desc")
          .orderBy("id", "desc"),
        options,
        (row) => ({
          ...row,
          created_at: new Date(row.created_at).toISOString(),
          handled_at: row.handled_at ? new Date(row.handled_at).toISOString() : null,
        }),
      );
    },

    async contactFile(id: string) {
      return db
        .selectFrom("contact_submissions")
        .select(["id", "file_key", "file_name", "file_type"])
        .where("id", "=", id)
        .where("file_key", "is not", null)
        .executeTakeFirst();
    },

    async markContactHandled(id: string, now: Date) {
      return db
        .updateTable("contact_submissions")
        .set({
          handled_at: sql`coalesce(handled_at, ${now})`,
          handled_by: sql`coalesce(handled_by, ${actor.userId})`,
        })
        .where("id", "=", id)
        .returning(["id", "handled_at"])
        .executeTakeFirst();
    },

    /** « Remettre à traiter »: a message marked handled by mistake goes back to the ones to handle. */
    async markContactUnhandled(id: string) {
      return db
        .updateTable("contact_submissions")
        .set({ handled_at: null, handled_by: null })
        .where("id", "=", id)
        .returning("id")
        .executeTakeFirst();
    },

    /**
     * Sensitive events, newest first: verification requests and decisions, admin grants, chat
     * attachments and support images opened by someone else (audit_log), and patients' documents
     * viewed or downloaded by anyone but their owner (document_access). Filter by type and person.
     */
    async audit(options: { type?: string | undefined; person: string; page: number; pageSize: number }) {
      const audit = db
        .selectFrom("audit_log as l")
        .leftJoin("profiles as a", "a.id", "l.actor_id")
        .leftJoin("profiles as s", (join) =>
          join.onRef(sql`s.id::text`, "=", sql`l.subject_id::text`).on("l.subject_type", "=", "profile"),
        )
        // A moderated review names its dentist and author (nothing once the review is deleted).
        .leftJoin("reviews as rv", (join) =>
          join.onRef("rv.id", "=", "l.subject_id").on("l.subject_type", "=", "review"),
        )
        .leftJoin("profiles as rvd", "rvd.id", "rv.dentist_id")
        .leftJoin("profiles as rvp", "rvp.id", "rv.patient_id")
        // A support image opened names its thread's person; a chat attachment, its sender and its file.
        .leftJoin("profiles as sp", (join) =>
          join
            .onRef(sql`sp.id::text`, "=", sql`l.details->>'patient_id'`)
            .on("l.subject_type", "=", "support_message"),
        )
        .leftJoin("message_attachments as ma", (join) =>
          join.onRef("ma.id", "=", "l.subject_id").on("l.subject_type", "=", "message_attachment"),
        )
        .leftJoin("messages as mm", "mm.id", "ma.message_id")
        .leftJoin("profiles as ms", "ms.id", "mm.sender_id")
        .select([
          sql<string>`l.id::text`.as("id"),
          sql<string>`case when l.action like 'verification.%' then 'verification' when l.action like 'attachment.%' or l.action like 'support_image.%' then 'attachment' when l.action like 'admin.%' then 'admin' when l.action like 'review.%' then 'review' else 'account' end`.as(
            "type",
          ),
          "l.action",
          sql<string>`coalesce(a.full_name, a.email, 'Système')`.as("actor_name"),
          sql<
            string | null
          >`coalesce(s.full_name, s.email, sp.full_name, sp.email, coalesce(ms.full_name, ms.email) || ' — ' || ma.file_name)`.as(
            "subject",
          ),
          sql<string | null>`rvd.full_name`.as("review_dentist"),
          sql<string | null>`nullif(rvp.full_name, '')`.as("review_author"),
          sql<string | null>`l.details->>'reason'`.as("reason"),
          // A suspension's day (ADR 092's addendum): set with it, or the day that lifted it.
          sql<string | null>`l.details->>'ends_at'`.as("ends_at"),
          sql<boolean>`coalesce(l.details->>'automatic' = 'true', false)`.as("automatic"),
          "l.created_at",
          sql<string>`coalesce(a.email, '')`.as("actor_email"),
        ]);
      const access = db
        .selectFrom("document_access as d")
        .innerJoin("documents as doc", "doc.id", "d.document_id")
        .leftJoin("profiles as a", "a.id", "d.actor_id")
        .leftJoin("profiles as o", "o.id", "doc.owner_id")
        .select([
          sql<string>`d.id::text`.as("id"),
          sql<string>`'document'`.as("type"),
          sql<string>`'document.' || d.action`.as("action"),
          "d.actor_name",
          sql<string | null>`coalesce(o.full_name, o.email) || ' — ' || doc.file_name`.as("subject"),
          sql<string | null>`null`.as("review_dentist"),
          sql<string | null>`null`.as("review_author"),
          sql<string | null>`null`.as("reason"),
          sql<string | null>`null`.as("ends_at"),
          sql<boolean>`false`.as("automatic"),
          "d.created_at",
          sql<string>`coalesce(a.email, '')`.as("actor_email"),
        ]);
      let query = db.selectFrom(audit.unionAll(access).as("e")).selectAll();
      if (options.type) query = query.where("e.type", "=", options.type);
      // The person who acted, or the one concerned (« who read Marie Dupont's documents? »).
      if (options.person) {
        const person = options.person;
        query = query.where((eb) =>
          eb.or([
            nameOrEmailContains("e.actor_name", "e.actor_email", person),
            nameContains("e.subject", person),
            nameContains("e.review_dentist", person),
            nameContains("e.review_author", person),
          ]),
        );
      }
      return fetchItems(
        query.orderBy("e.created_at", "desc").orderBy("e.id", "desc"),
        options,
        (row): AuditEntry => ({
          id: row.id,
          type: row.type as AuditEntry["type"],
          action: row.action,
          label: auditLabel(row),
          actor_name: row.actor_name,
          subject: row.subject ?? reviewSubject(row.review_dentist, row.review_author),
          reason: row.reason,
          created_at: new Date(row.created_at).toISOString(),
        }),
      );
    },
  };
}

/**
 * An audit event's words: its action's label, with a dated suspension's day (« …, levée prévue le 20
 * novembre 2026 ») or « à la date prévue » for one lifted on its day, by no one (ADR 092's addendum),
 * and a suspension's end changed, its new day or none (the addendum of 06/12).
 */
function auditLabel(row: { action: string; ends_at: string | null; automatic: boolean }): string {
  const label = (AUDIT_LABELS as Record<string, string>)[row.action] ?? row.action;
  if (row.action === "account.suspended" && row.ends_at)
    return `${label}, levée prévue le ${formatDetailDate(row.ends_at)}`;
  if (row.action === "account.reinstated" && row.automatic) return `${label} à la date prévue`;
  if (row.action === "account.suspension_end_changed")
    return row.ends_at
      ? `${label}, levée prévue le ${formatDetailDate(row.ends_at)}`
      : `${label} : plus de date de fin`;
  return label;
}

export type AdminRepo = ReturnType<typeof adminRepo>;

/** « Avis sur le Dr Sophie Leroy, d'Anne Lambert »: a moderated review's dentist and author, or null. */
function reviewSubject(dentist: string | null, author: string | null): string | null {
  return dentist === null ? null : `Avis sur ${theName(drName(dentist))}, ${ofName(author ?? "un patient")}`;
}
