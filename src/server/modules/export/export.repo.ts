import { sql } from "kysely";
import { COVER_FIELDS, QUOTE_LINE_FIELDS } from "../../../shared/schemas/quotes";
import type { Actor } from "../../access/actor";
import { readsConversations } from "../../access/objects";
import type { Db } from "../../db/index";
import { offerLinesAndSlots } from "../../db/offer-details";
import { executeAll, oldestFirst, partyNames, storedFileColumns } from "../../db/queries";
import { APPOINTMENT_COLUMNS, proposedTimes } from "../appointments/appointments.repo";

/*
 * The reads behind "Télécharger mes données" (RGPD art. 15 and 20). Every query is bound to the
 * actor's id: rows the person owns, or rows of an exchange the person is a party to. Of the other
 * party, only the name is read; of files, only the storage keys of what the person uploaded.
 * One file on purpose (longer than most): every read of the archive in one place, to review together.
 */

export function exportRepo(db: Db, actor: Actor) {
  const me = actor.userId;
  // A dentist not verified (pending, or verification withdrawn) sees no patient data (D6): his
  // archive holds no conversation or appointment until he is verified again, as his screens do.
  const seesExchanges = readsConversations(actor);
  /** The person is the patient or the dentist of this conversation ("c") or appointment ("a"). */
  const isParty = (alias: "a" | "c") =>
    seesExchanges
      ? sql<boolean>`(${sql.ref(`${alias}.patient_id`)} = ${me} or ${sql.ref(`${alias}.dentist_id`)} = ${me})`
      : sql<boolean>`false`;

  return {
    profile() {
      return db
        .selectFrom("profiles as p")
        .innerJoin("users as u", "u.id", "p.id")
        .select([
          "p.id",
          "p.email",
          "u.email_verified",
          "u.two_factor_enabled",
          "p.role",
          "p.first_name",
          "p.last_name",
          "p.full_name",
          "p.phone_number",
          "p.city",
          "p.postal_code",
          "p.birth_date",
          "p.bio",
          "p.specialties",
          "p.avatar_url",
          "p.is_admin",
          "p.is_verified",
          "p.rpps",
          "p.practice_address",
          "p.practice_postcode",
          "p.verification_requested_at",
          "p.verification_decided_at",
          "p.verification_refusal_reason",
          "p.last_seen_at",
          "p.inactivity_warned_at",
          "p.terms_accepted_at",
          "p.terms_version",
          "p.email_messages",
          "p.email_reminders",
          "p.email_reviews",
          "p.email_new_requests",
          "p.created_at",
          "p.updated_at",
        ])
        .where("p.id", "=", me)
        .executeTakeFirst();
    },

    /** 'Ma mutuelle', when the patient gave it. */
    cover() {
      return db
        .selectFrom("patient_covers")
        .select([...COVER_FIELDS, "updated_at"])
        .where("patient_id", "=", me)
        .executeTakeFirst();
    },

    /** The lists of the archive, each read at once and listed oldest first. */
    lists() {
      return executeAll({
        /** The patient's own requests (with the dentist it was sent to by name, if any). */
        requests: oldestFirst(
          db
            .selectFrom("requests as r")
            .leftJoin("profiles as d", "d.id", "r.recipient_dentist_id")
            .select([
              "r.id",
              "r.treatment_type",
              "r.description",
              "r.budget",
              "r.quote_amount_cents",
              "r.quote_date",
              "r.urgency",
              "r.status",
              "r.recipient_dentist_id",
              "d.full_name as recipient_dentist_name",
              "r.cancelled_at",
              "r.consent_version",
              "r.consent_text",
              "r.consent_at",
              "r.consent_withdrawn_at",
              "r.created_at",
              "r.updated_at",
            ])
            .where("r.patient_id", "=", me),
          "r.created_at",
          "r.id",
        ),

        /** The lines of the devis the patient entered on their requests (issue 15). */
        quoteLines: oldestFirst(
          db
            .selectFrom("request_quote_lines as q")
            .innerJoin("requests as r", "r.id", "q.request_id")
            .select(["q.request_id", "q.position", ...QUOTE_LINE_FIELDS.map((c) => `q.${c}` as const)])
            .where("r.patient_id", "=", me),
          "q.request_id",
          "q.position",
        ),

        /** The documents the person uploaded (owner), on the person's own requests. */
        documents: oldestFirst(
          db
            .selectFrom("documents as d")
            .innerJoin("requests as r", "r.id", "d.request_id")
            .select([
              "d.id",
              "d.request_id",
              ...storedFileColumns("d"),
              "d.document_type",
              "d.position",
              "d.created_at",
            ])
            .where("d.owner_id", "=", me)
            .where("r.patient_id", "=", me),
          "d.created_at",
          "d.request_id",
          "d.position",
        ),

        /** Offers on the patient's own requests, with the dentist's name. */
        offersReceived: oldestFirst(
          db
            .selectFrom("offers as o")
            .innerJoin("requests as r", "r.id", "o.request_id")
            .innerJoin("profiles as d", "d.id", "o.dentist_id")
            .select(["o.id", "o.request_id", "o.dentist_id", "d.full_name as dentist_name"])
            .select(OFFER_TERMS)
            .where("r.patient_id", "=", me),
          "o.created_at",
          "o.id",
        ),

        /**
         * The dentist's own offers (the patient's name only, nothing of the request's content; not
         * even the name while he is not verified, D6).
         */
        offersSent: oldestFirst(
          db
            .selectFrom("offers as o")
            .innerJoin("requests as r", "r.id", "o.request_id")
            .innerJoin("profiles as p", "p.id", "r.patient_id")
            .select(["o.id", "o.request_id", "r.treatment_type"])
            .select(
              seesExchanges
                ? sql<string>`p.full_name`.as("patient_name")
                : sql<string>`''`.as("patient_name"),
            )
            .select(OFFER_TERMS)
            .where("o.dentist_id", "=", me),
          "o.created_at",
          "o.id",
        ),

        /** The dentist's follow-up of requests (status on the dentist's side, dates). */
        requestsFollowed: oldestFirst(
          db
            .selectFrom("request_dentists")
            .select([
              "request_id",
              "status",
              "opened_at",
              "assigned_at",
              "replied_at",
              "set_aside_at",
              "created_at",
              "updated_at",
            ])
            .where("dentist_id", "=", me),
          "created_at",
          "request_id",
        ),

        /** The conversations the person is a party to, with the other party's name. */
        conversations: oldestFirst(
          db
            .selectFrom("conversations as c")
            .select([
              "c.id",
              "c.request_id",
              "c.patient_id",
              "c.dentist_id",
              ...partyNames("c"),
              "c.created_at",
              "c.last_message_at",
            ])
            .where(isParty("c")),
          "c.created_at",
          "c.id",
        ),

        /** The messages of those conversations (both sides' text). */
        messages: oldestFirst(
          db
            .selectFrom("messages as m")
            .innerJoin("conversations as c", "c.id", "m.conversation_id")
            .select(["m.id", "m.conversation_id", "m.sender_id", "m.body", "m.read_at", "m.created_at"])
            .where(isParty("c")),
          "m.created_at",
          "m.id",
        ),

        /** The patient's thread with the team (the team's replies are part of it; their images not). */
        support: oldestFirst(
          db
            .selectFrom("support_messages")
            .select([
              "id",
              "sender_id",
              "from_team",
              "body",
              "image_key",
              "image_name",
              "image_type",
              "image_size",
              "read_at",
              "created_at",
            ])
            .where("patient_id", "=", me),
          "created_at",
          "id",
        ),

        /** Reads of my requests and documents by someone else, and the team's reads of my support thread. */
        readsOfMyData: oldestFirst(
          db
            .selectFrom("document_access as a")
            .leftJoin("requests as r", "r.id", "a.request_id")
            .leftJoin("documents as d", "d.id", "a.document_id")
            .select([
              "a.id",
              "a.request_id",
              "a.document_id",
              "d.file_name as document_name",
              "a.object_name",
              "a.actor_name",
              "a.actor_kind",
              "a.action",
              "a.created_at",
            ])
            .where((eb) => eb.or([eb("r.patient_id", "=", me), eb("a.support_patient_id", "=", me)])),
          "a.created_at",
          "a.id",
        ),

        /** The person's own reads of patients' data (dentists, the team): what, when; no names. */
        myReads: oldestFirst(
          db
            .selectFrom("document_access")
            .select(["id", "request_id", "document_id", "action", "created_at"])
            .where("actor_id", "=", me),
          "created_at",
          "id",
        ),

        /** Account events about the person's own profile (password change, verification, export…). */
        events: oldestFirst(
          db
            .selectFrom("audit_log")
            .select(["id", "action", "details", "created_at"])
            .where("subject_type", "=", "profile")
            .where("subject_id", "=", me),
          "created_at",
          "id",
        ),

        /** The person's sessions, never their token. */
        sessions: oldestFirst(
          db
            .selectFrom("sessions")
            .select(["id", "ip_address", "user_agent", "created_at", "updated_at", "expires_at"])
            .where("user_id", "=", me),
          "created_at",
          "id",
        ),
      });
    },

    /** Lines and proposed slots of offers already filtered by the two lists of offers. */
    offerDetails(offerIds: string[]) {
      return offerLinesAndSlots(db, offerIds);
    },

    /** Attachments of those conversations; the keys of the person's own only. */
    async attachments() {
      const rows = await oldestFirst(
        db
          .selectFrom("message_attachments as a")
          .innerJoin("messages as m", "m.id", "a.message_id")
          .innerJoin("conversations as c", "c.id", "m.conversation_id")
          .select([
            "a.id",
            "a.message_id",
            "m.sender_id",
            ...storedFileColumns("a"),
            "a.position",
            "m.created_at",
          ])
          .where(isParty("c")),
        "m.created_at",
        "a.message_id",
        "a.position",
      ).execute();
      return {
        /** Sent by the person: exported with their file. */
        mine: rows.filter((row) => row.sender_id === me),
        /** Sent by the other party: counted on their message, nothing else. */
        othersPerMessage: rows
          .filter((row) => row.sender_id !== me)
          .reduce(
            (counts, row) => counts.set(row.message_id, (counts.get(row.message_id) ?? 0) + 1),
            new Map<string, number>(),
          ),
      };
    },

    /** Appointments the person is a party to, with the other party's name (and the practice). */
    async appointments() {
      const rows = await oldestFirst(
        db
          .selectFrom("appointments as a")
          .innerJoin("profiles as dp", "dp.id", "a.dentist_id")
          .select(APPOINTMENT_COLUMNS)
          .select([
            ...partyNames("a"),
            "dp.practice_address",
            "dp.practice_postcode",
            "dp.city as dentist_city",
          ])
          .where(isParty("a")),
        "a.created_at",
        "a.id",
      ).execute();
      const options = await proposedTimes(
        db,
        rows.map((row) => row.id),
      );
      return { rows, options };
    },
  };
}

/** What an offer says, the same whether the person received or sent it. */
const OFFER_TERMS = [
  "o.amount_cents",
  "o.comment",
  "o.valid_until",
  "o.status",
  "o.decided_at",
  "o.created_at",
  "o.updated_at",
] as const;

export type ExportRepo = ReturnType<typeof exportRepo>;
