import { sql } from "kysely";
import type { Db } from "../../db/index";

/**
 * System read for the public figures (no actor: nobody's data leaves, only a count): patients who
 * have sent at least one request.
 */
export async function systemCountPatientsWithRequest(db: Db): Promise<number> {
  const row = await db
    .selectFrom("requests")
    .select(sql<number>`count(distinct patient_id)::int`.as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
