import { COVER_FIELDS, QUOTE_LINE_FIELDS } from "../../../shared/schemas/quotes";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";

/*
 * The reads behind "Télécharger mes données" (RGPD art. 15 and 20). Every query is bound to the
 * actor's id: rows the person owns, or rows of an exchange the person is a party to. Of the other
 * party, only the name is read; of files, only the storage keys of what the person uploaded.
 */

export function exportRepo(db: Db, actor: Actor) {
  const me = actor.userId;

  return {
    profile() {
      return db
        .selectFrom("profiles as p")
        .innerJoin("users as u", "u.id", "p.id")
        .select([
          "p.id",
          "p.email",
          "u.email_verified",
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
          "p.created_at",
          "p.updated_at",
        ])
        .where("p.id", "=", me)
        .executeTakeFirst();
    },

    /** The patient's own requests (with the dentist it was sent to by name, if any). */
    requests() {
      return db
        .selectFrom("requests as r")
        .leftJoin("profiles as d", "d.id", "r.recipient_dentist_id")
        .select([
          "r.id",
          "r.treatment_type",
          "r.description",
          "r.budget",
          "r.quote_amount_cents",
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
        .where("r.patient_id", "=", me)
        .orderBy("r.created_at")
        .orderBy("r.id")
        .execute();
    },

    /** The lines of the devis the patient entered on their requests (issue 15). */
    quoteLines() {
      return db
        .selectFrom("request_quote_lines as q")
        .innerJoin("requests as r", "r.id", "q.request_id")
        .select(["q.request_id", "q.position", ...QUOTE_LINE_FIELDS.map((c) => `q.${c}` as const)])
        .where("r.patient_id", "=", me)
        .orderBy("q.request_id")
        .orderBy("q.position")
        .execute();
    },

    /** 'Ma mutuelle', when the patient gave it. */
    cover() {
      return db
        .selectFrom("patient_covers")
        .select([...COVER_FIELDS, "updated_at"])
        .where("patient_id", "=", me)
        .executeTakeFirst();
    },

    /** The documents the person uploaded (owner), on the person's own requests. */
    documents() {
      return db
        .selectFrom("documents as d")
        .innerJoin("requests as r", "r.id", "d.request_id")
        .select([
          "d.id",
          "d.request_id",
          "d.storage_key",
          "d.file_name",
          "d.size",
          "d.mime_type",
          "d.document_type",
          "d.position",
          "d.created_at",
        ])
        .where("d.owner_id", "=", me)
        .where("r.patient_id", "=", me)
        .orderBy("d.created_at")
        .orderBy("d.request_id")
        .orderBy("d.position")
        .execute();
    },

    /** Offers on the patient's own requests, with the dentist's name. */
    offersReceived() {
      return db
        .selectFrom("offers as o")
        .innerJoin("requests as r", "r.id", "o.request_id")
        .innerJoin("profiles as d", "d.id", "o.dentist_id")
        .select([
          "o.id",
          "o.request_id",
          "o.dentist_id",
          "d.full_name as dentist_name",
          "o.amount_cents",
          "o.comment",
          "o.valid_until",
          "o.status",
          "o.decided_at",
          "o.created_at",
          "o.updated_at",
        ])
        .where("r.patient_id", "=", me)
        .orderBy("o.created_at")
        .orderBy("o.id")
        .execute();
    },

    /** The dentist's own offers (the patient's name only, nothing of the request's content). */
    offersSent() {
      return db
        .selectFrom("offers as o")
        .innerJoin("requests as r", "r.id", "o.request_id")
        .innerJoin("profiles as p", "p.id", "r.patient_id")
        .select([
          "o.id",
          "o.request_id",
          "p.full_name as patient_name",
          "r.treatment_type",
          "o.amount_cents",
          "o.comment",
          "o.valid_until",
          "o.status",
          "o.decided_at",
          "o.created_at",
          "o.updated_at",
        ])
        .where("o.dentist_id", "=", me)
        .orderBy("o.created_at")
        .orderBy("o.id")
        .execute();
    },

    /** Lines and proposed slots of offers already filtered by the two queries above. */
    async offerDetails(offerIds: string[]) {
      if (offerIds.length === 0) return { lines: [], slots: [] };
      const [lines, slots] = await Promise.all([
        db
          .selectFrom("offer_lines")
          .select(["offer_id", "position", ...QUOTE_LINE_FIELDS])
          .where("offer_id", "in", offerIds)
          .orderBy("offer_id")
          .orderBy("position")
          .execute(),
        db
          .selectFrom("offer_slots")
          .select(["offer_id", "starts_at"])
          .where("offer_id", "in", offerIds)
          .orderBy("offer_id")
          .orderBy("starts_at")
          .execute(),
      ]);
      return { lines, slots };
    },

    /** The dentist's follow-up of requests (status on the dentist's side, dates). */
    requestsFollowed() {
      return db
        .selectFrom("request_dentists")
        .select([
          "request_id",
          "status",
          "opened_at",
          "assigned_at",
          "replied_at",
          "created_at",
          "updated_at",
        ])
        .where("dentist_id", "=", me)
        .orderBy("created_at")
        .orderBy("request_id")
        .execute();
    },

    /** The conversations the person is a party to, with the other party's name. */
    conversations() {
      return db
        .selectFrom("conversations as c")
        .innerJoin("profiles as pp", "pp.id", "c.patient_id")
        .innerJoin("profiles as dp", "dp.id", "c.dentist_id")
        .select([
          "c.id",
          "c.request_id",
          "c.patient_id",
          "c.dentist_id",
          "pp.full_name as patient_name",
          "dp.full_name as dentist_name",
          "c.created_at",
          "c.last_message_at",
        ])
        .where((eb) => eb.or([eb("c.patient_id", "=", me), eb("c.dentist_id", "=", me)]))
        .orderBy("c.created_at")
        .orderBy("c.id")
        .execute();
    },

    /** The messages of those conversations (both sides' text). */
    messages() {
      return db
        .selectFrom("messages as m")
        .innerJoin("conversations as c", "c.id", "m.conversation_id")
        .select(["m.id", "m.conversation_id", "m.sender_id", "m.body", "m.read_at", "m.created_at"])
        .where((eb) => eb.or([eb("c.patient_id", "=", me), eb("c.dentist_id", "=", me)]))
        .orderBy("m.created_at")
        .orderBy("m.id")
        .execute();
    },

    /** Attachments of those conversations; the keys of the person's own only. */
    async attachments() {
      const rows = await db
        .selectFrom("message_attachments as a")
        .innerJoin("messages as m", "m.id", "a.message_id")
        .innerJoin("conversations as c", "c.id", "m.conversation_id")
        .select([
          "a.id",
          "a.message_id",
          "m.sender_id",
          "a.storage_key",
          "a.file_name",
          "a.mime_type",
          "a.size",
          "a.position",
          "m.created_at",
        ])
        .where((eb) => eb.or([eb("c.patient_id", "=", me), eb("c.dentist_id", "=", me)]))
        .orderBy("m.created_at")
        .orderBy("a.message_id")
        .orderBy("a.position")
        .execute();
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
      const rows = await db
        .selectFrom("appointments as a")
        .innerJoin("profiles as pp", "pp.id", "a.patient_id")
        .innerJoin("profiles as dp", "dp.id", "a.dentist_id")
        .select([
          "a.id",
          "a.request_id",
          "a.offer_id",
          "a.patient_id",
          "a.dentist_id",
          "pp.full_name as patient_name",
          "dp.full_name as dentist_name",
          "dp.practice_address",
          "dp.practice_postcode",
          "dp.city as dentist_city",
          "a.status",
          "a.awaiting",
          "a.starts_at",
          "a.cancelled_by",
          "a.created_at",
          "a.updated_at",
        ])
        .where((eb) => eb.or([eb("a.patient_id", "=", me), eb("a.dentist_id", "=", me)]))
        .orderBy("a.created_at")
        .orderBy("a.id")
        .execute();
      const ids = rows.map((row) => row.id);
      const options =
        ids.length === 0
          ? []
          : await db
              .selectFrom("appointment_options")
              .select(["appointment_id", "starts_at"])
              .where("appointment_id", "in", ids)
              .orderBy("starts_at")
              .execute();
      return { rows, options };
    },

    /** The patient's thread with the team (the team's replies are part of it; their images not). */
    supportMessages() {
      return db
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
        .where("patient_id", "=", me)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    /** Reads of the person's requests, documents and attachments by someone else. */
    readsOfMyData() {
      return (
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
          // Reads of my requests, and the team's reads of my support thread.
          .where((eb) => eb.or([eb("r.patient_id", "=", me), eb("a.support_patient_id", "=", me)]))
          .orderBy("a.created_at")
          .orderBy("a.id")
          .execute()
      );
    },

    /** The person's own reads of patients' data (dentists, the team): what, when; no names. */
    myReads() {
      return db
        .selectFrom("document_access")
        .select(["id", "request_id", "document_id", "action", "created_at"])
        .where("actor_id", "=", me)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    /** Account events about the person's own profile (password change, verification, export…). */
    accountEvents() {
      return db
        .selectFrom("audit_log")
        .select(["id", "action", "details", "created_at"])
        .where("subject_type", "=", "profile")
        .where("subject_id", "=", me)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    /** The person's sessions, never their token. */
    sessions() {
      return db
        .selectFrom("sessions")
        .select(["id", "ip_address", "user_agent", "created_at", "updated_at", "expires_at"])
        .where("user_id", "=", me)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
  };
}

export type ExportRepo = ReturnType<typeof exportRepo>;
