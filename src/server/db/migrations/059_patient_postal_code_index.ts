import { type Kysely, sql } from "kysely";

/**
 * The dentist's list filtered by the patient's distance (ADR 094) keeps the requests of patients
 * whose postal code is one of the codes within the radius. Where few patients live within it, the
 * planner starts from them: this index finds them without reading every profile. Only the rows that
 * have a postal code (patients who gave one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index profiles_postal_code_idx on profiles (postal_code)
    where postal_code is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index profiles_postal_code_idx`.execute(db);
}
