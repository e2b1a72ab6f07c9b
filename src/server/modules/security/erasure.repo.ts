import { randomUUID } from "node:crypto";
import { ERASED_NAME } from "../../../shared/schemas/account";
import { readingTextKeys } from "../../db/file-keys";
import type { Db } from "../../db/index";

/*
 * The reads and writes of an account's erasure (erasure.service.ts runs them in its transaction,
 * ADR 014): the person, the pseudonym, and the records of a patient or a dentist that go or stay.
 */

export type Person = {
  id: string;
  email: string;
  role: "patient" | "dentist" | null;
  is_admin: boolean;
  first_name: string;
};

export async function personOf(db: Db, userId: string): Promise<Person | undefined> {
  return db
    .selectFrom("profiles")
    .select(["id", "email", "role", "is_admin", "first_name"])
    .where("id", "=", userId)
    .where("erased_at", "is", null)
    .executeTakeFirst();
}

/** The pseudonym: a profile with no e-mail of the person, no password, never listed, never signs in. */
export async function createPseudonym(trx: Db, person: Person, now: Date): Promise<string> {
  const id = randomUUID();
  const email = `${id}@compte-supprime.invalid`;
  await trx.insertInto("users").values({ id, name: ERASED_NAME, email, email_verified: false }).execute();
  await trx
    .insertInto("profiles")
    .values({
      id,
      email,
      role: person.role,
      first_name: "",
      last_name: ERASED_NAME,
      full_name: ERASED_NAME,
      bio: "",
      specialties: [],
      erased_at: now,
    })
    .execute();
  return id;
}

/**
 * A patient's requests go, with their documents, offers and conversations, except those whose offer
 * the patient accepted: they stay for the chosen dentist, without description, budget, documents nor
 * devis (its amount, date and lines): the accepted offer says what was agreed.
 */
export async function erasePatientRecords(
  trx: Db,
  patientId: string,
  pseudonym: string,
  keys: string[],
  now: Date,
) {
  const accepted = trx
    .selectFrom("offers")
    .select("offers.request_id")
    .where("offers.status", "=", "accepted");
  const kept = await trx
    .updateTable("requests")
    .set({ patient_id: pseudonym, description: "", budget: "", quote_amount_cents: null, quote_date: null })
    .where("patient_id", "=", patientId)
    .where("id", "in", accepted)
    .returning("id")
    .execute();
  if (kept.length > 0)
    await trx
      .deleteFrom("request_quote_lines")
      .where(
        "request_id",
        "in",
        kept.map((r) => r.id),
      )
      .execute();
  // The texts read from the devis (issue 17): their rows go with the documents.
  keys.push(
    ...(await readingTextKeys(
      trx,
      "document_id",
      trx.selectFrom("documents").select("id").where("owner_id", "=", patientId),
    )),
  );
  const documents = await trx
    .deleteFrom("documents")
    .where("owner_id", "=", patientId)
    .returning("storage_key")
    .execute();
  keys.push(...documents.map((d) => d.storage_key));
  // Attachments of every conversation of the requests that go (both sides': the requests go whole).
  const gone = trx.selectFrom("requests").select("id").where("patient_id", "=", patientId);
  const attachments = await trx
    .deleteFrom("message_attachments")
    .where(
      "message_id",
      "in",
      trx
        .selectFrom("messages")
        .innerJoin("conversations", "conversations.id", "messages.conversation_id")
        .select("messages.id")
        .where("conversations.request_id", "in", gone),
    )
    .returning("storage_key")
    .execute();
  keys.push(...attachments.map((a) => a.storage_key));
  await trx.deleteFrom("requests").where("patient_id", "=", patientId).execute();
  // An appointment still being arranged on a kept request is called off.
  if (kept.length > 0) await callOffPendingAppointments(trx, "patient", patientId, now);
}

/** The appointments of one side still being arranged are called off, by that side. */
async function callOffPendingAppointments(trx: Db, side: "patient" | "dentist", id: string, now: Date) {
  await trx
    .updateTable("appointments")
    .set({ status: "cancelled", cancelled_by: side, awaiting: null, updated_at: now })
    .where(side === "patient" ? "patient_id" : "dentist_id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

/**
 * A dentist's offers go, except accepted ones (the patient's record, under the pseudonym); a request
 * sent to this dentist alone and still open is cancelled (nobody else was asked); appointments still
 * being arranged are called off. Sourio's invoices stay 10 years as issued (Code de commerce L123-22),
 * the pseudonym as the dentist they belong to: the one change their trigger allows (migration 034).
 * The billing profile goes with the profile (cascade).
 */
export async function eraseDentistRecords(trx: Db, dentistId: string, pseudonym: string, now: Date) {
  await callOffPendingAppointments(trx, "dentist", dentistId, now);
  await trx
    .deleteFrom("offers")
    .where("dentist_id", "=", dentistId)
    .where("status", "!=", "accepted")
    .execute();
  await trx
    .updateTable("offers")
    .set({ dentist_id: pseudonym })
    .where("dentist_id", "=", dentistId)
    .execute();
  await trx
    .updateTable("requests")
    .set({ status: "cancelled", cancelled_at: now, updated_at: now })
    .where("recipient_dentist_id", "=", dentistId)
    .where("status", "in", ["new", "in_review"])
    .execute();
  await trx
    .updateTable("requests")
    .set({ recipient_dentist_id: pseudonym })
    .where("recipient_dentist_id", "=", dentistId)
    .execute();
  await trx
    .updateTable("invoices")
    .set({ dentist_id: pseudonym })
    .where("dentist_id", "=", dentistId)
    .execute();
}

/**
 * Reviews (issue 36, ADR 046): those the person wrote and those about them go, with their reports
 * (a review names its author and its dentist; kept under a pseudonym it would still read as theirs).
 */
export async function eraseReviewsOf(trx: Db, personId: string) {
  await trx
    .deleteFrom("reviews")
    .where((eb) => eb.or([eb("patient_id", "=", personId), eb("dentist_id", "=", personId)]))
    .execute();
  await trx.deleteFrom("review_reports").where("dentist_id", "=", personId).execute();
}
