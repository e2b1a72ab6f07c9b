import { type Kysely, sql } from "kysely";
import { belongsTo, idKey, timestamps } from "./columns";

/**
 * Appointments on accepted offers (ADR 011), their proposed times and their reminder
 * e-mails. A pending appointment waits for one side (`awaiting`) to pick one of the times the
 * other proposed (`appointment_options`); confirmed, it has `starts_at`. Reminders are a
 * persisted schedule: one row per e-mail, claimed once by a conditional update (`sent_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("appointments")
    .$call(idKey)
    .$call(belongsTo("request_id", "requests"))
    .$call(belongsTo("offer_id", "offers"))
    .$call(belongsTo("patient_id", "profiles"))
    .$call(belongsTo("dentist_id", "profiles"))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`status in ('pending', 'confirmed', 'cancelled')`),
    )
    .addColumn("awaiting", "text", (c) => c.check(sql`awaiting in ('patient', 'dentist')`))
    .addColumn("starts_at", "timestamptz")
    .addColumn("cancelled_by", "text", (c) => c.check(sql`cancelled_by in ('patient', 'dentist')`))
    .$call(timestamps)
    .addCheckConstraint("appointments_pending_awaits", sql`(status = 'pending') = (awaiting is not null)`)
    .addCheckConstraint("appointments_confirmed_time", sql`status <> 'confirmed' or starts_at is not null`)
    .execute();
  // One live appointment per accepted offer; the lists of each side read only live ones.
  await sql`create unique index appointments_live_per_offer_idx on appointments (offer_id) where status in ('pending', 'confirmed')`.execute(
    db,
  );
  await sql`create index appointments_patient_live_idx on appointments (patient_id, starts_at) where status in ('pending', 'confirmed')`.execute(
    db,
  );
  await sql`create index appointments_dentist_live_idx on appointments (dentist_id, starts_at) where status in ('pending', 'confirmed')`.execute(
    db,
  );
  await sql`create index appointments_request_idx on appointments (request_id, created_at desc)`.execute(db);

  await db.schema
    .createTable("appointment_options")
    .$call(belongsTo("appointment_id", "appointments"))
    .addColumn("starts_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("appointment_options_pk", ["appointment_id", "starts_at"])
    .execute();

  await db.schema
    .createTable("appointment_reminders")
    .$call(belongsTo("appointment_id", "appointments"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('7d', '1d')`))
    .addColumn("due_at", "timestamptz", (c) => c.notNull())
    .addColumn("sent_at", "timestamptz")
    .addPrimaryKeyConstraint("appointment_reminders_pk", ["appointment_id", "kind"])
    .execute();
  await sql`create index appointment_reminders_due_idx on appointment_reminders (due_at) where sent_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["appointment_reminders", "appointment_options", "appointments"])
    await db.schema.dropTable(table).ifExists().execute();
}
