import { type Kysely, sql } from "kysely";

/**
 * The e-mails a person may stop (ADR 081), each on by default: `email_messages` (a message left
 * unread in a conversation with a patient or a dentist), `email_reminders` (a patient's appointment
 * reminders), `email_reviews` (a patient's invitation to review, a dentist's new published review).
 * The other e-mails (security, verification, requests, offers, appointments, subscription, the team's
 * answers) are the service itself and always go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table profiles
    add column email_messages boolean not null default true,
    add column email_reminders boolean not null default true,
    add column email_reviews boolean not null default true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table profiles
    drop column email_messages,
    drop column email_reminders,
    drop column email_reviews`.execute(db);
}
