import { type Kysely, sql } from "kysely";

/**
 * Retention enforced (issue 14). `job_runs` lets the daily job run once whatever the number of
 * instances: the first to insert (job, day) runs it, the others find the row. `profiles` learns
 * when its owner last signed in (set at each login and sign-up; existing rows start from their
 * last update) and when the inactivity warning was sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("job_runs")
    .addColumn("job", "text", (c) => c.notNull())
    .addColumn("run_on", "date", (c) => c.notNull())
    .addColumn("started_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .addColumn("details", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addPrimaryKeyConstraint("job_runs_pk", ["job", "run_on"])
    .execute();
  await db.schema.alterTable("profiles").addColumn("last_seen_at", "timestamptz").execute();
  await db.schema.alterTable("profiles").addColumn("inactivity_warned_at", "timestamptz").execute();
  await sql`update profiles set last_seen_at = updated_at`.execute(db);
  await sql`alter table profiles alter column last_seen_at set default now()`.execute(db);
  await sql`alter table profiles alter column last_seen_at set not null`.execute(db);
  await sql`create index profiles_last_seen_idx on profiles (last_seen_at)`.execute(db);
  // The other filters of the job (the logs' created_at indexes exist since 010).
  await sql`create index contact_submissions_due_idx on contact_submissions ((coalesce(handled_at, created_at)))`.execute(
    db,
  );
  await sql`create index requests_cancelled_idx on requests (cancelled_at) where status = 'cancelled'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ["requests_cancelled_idx", "contact_submissions_due_idx", "profiles_last_seen_idx"])
    await sql`drop index if exists ${sql.raw(index)}`.execute(db);
  await db.schema.alterTable("profiles").dropColumn("inactivity_warned_at").execute();
  await db.schema.alterTable("profiles").dropColumn("last_seen_at").execute();
  await db.schema.dropTable("job_runs").ifExists().execute();
}
