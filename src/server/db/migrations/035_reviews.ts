import { type Kysely, sql } from "kysely";
import { belongsTo, idKey, timestamps } from "./columns";

/**
 * Verified patient reviews (issue 36, ADR 046). A review belongs to one appointment that has taken
 * place (one review per appointment), its patient and its dentist; the team moderates it
 * (pending → published or refused), the dentist may answer it once and report it. The appointment's
 * time is copied (`appointment_starts_at`): the review shows its month and the retention job counts
 * its years from it. `review_invitations` holds the e-mails inviting a patient to review, one per
 * appointment, claimed by its insert (no instance sends one twice).
 */
/** No cached response (ADR 030) reads them: no change notifications (migration 028's lists). */
export const REVIEW_NOTIFYING_TABLES = [] as const;
export const REVIEW_SILENT_TABLES = ["reviews", "review_reports", "review_invitations"] as const;

const mark = (column: string) => sql.raw(`${column} between 1 and 5`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("reviews")
    .$call(idKey)
    .addColumn("appointment_id", "uuid", (c) => c.unique().references("appointments.id").onDelete("set null"))
    .$call(belongsTo("patient_id", "profiles"))
    .$call(belongsTo("dentist_id", "profiles"))
    .addColumn("appointment_starts_at", "timestamptz", (c) => c.notNull())
    .addColumn("rating", "smallint", (c) => c.notNull().check(mark("rating")))
    .addColumn("explanations", "smallint", (c) => c.check(mark("explanations")))
    .addColumn("listening", "smallint", (c) => c.check(mark("listening")))
    .addColumn("punctuality", "smallint", (c) => c.check(mark("punctuality")))
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("author_title", "text", (c) => c.notNull().check(sql`author_title in ('patiente', 'patient')`))
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("pending").check(sql`status in ('pending', 'published', 'refused')`),
    )
    .addColumn("flags", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("refusal_reason", "text")
    .addColumn("decided_at", "timestamptz")
    .addColumn("decided_by", "uuid", (c) => c.references("profiles.id").onDelete("set null"))
    .addColumn("published_at", "timestamptz")
    .addColumn("answer", "text")
    .addColumn("answered_at", "timestamptz")
    .$call(timestamps)
    .addCheckConstraint("reviews_published_at", sql`(status = 'published') = (published_at is not null)`)
    .addCheckConstraint("reviews_answer_at", sql`(answer is null) = (answered_at is null)`)
    .execute();
  await sql`create index reviews_dentist_published_idx on reviews (dentist_id, published_at desc) where status = 'published'`.execute(
    db,
  );
  await sql`create index reviews_status_idx on reviews (status, created_at)`.execute(db);
  await sql`create index reviews_patient_idx on reviews (patient_id, created_at desc)`.execute(db);

  await db.schema
    .createTable("review_reports")
    .$call(idKey)
    .$call(belongsTo("review_id", "reviews"))
    .$call(belongsTo("dentist_id", "profiles"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("review_reports_once", ["review_id", "dentist_id"])
    .execute();

  await db.schema
    .createTable("review_invitations")
    .addColumn("appointment_id", "uuid", (c) =>
      c.primaryKey().references("appointments.id").onDelete("cascade"),
    )
    .addColumn("sent_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("review_invitations").ifExists().execute();
  await db.schema.dropTable("review_reports").ifExists().execute();
  await db.schema.dropTable("reviews").ifExists().execute();
}
