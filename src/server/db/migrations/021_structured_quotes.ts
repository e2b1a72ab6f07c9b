import { type Kysely, sql } from "kysely";
import { belongsTo, idKey } from "./columns";

/**
 * Structured quotes (issue 15): offer lines gain the act's code, basket, BR and ceiling (existing lines
 * become free lines, 'libre' with BR 0); the patient's original devis gets the same lines; a patient
 * may record their mutuelle ('Ma mutuelle') for the estimates of their reste à charge.
 */
const BASKET_CHECK = sql`basket in ('100_sante', 'maitrise', 'libre')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("offer_lines")
    .addColumn("code", "text")
    .addColumn("basket", "text", (c) => c.notNull().defaultTo("libre").check(BASKET_CHECK))
    .addColumn("br_cents", "integer", (c) => c.notNull().defaultTo(0).check(sql`br_cents >= 0`))
    .addColumn("ceiling_cents", "integer")
    .execute();

  await db.schema
    .createTable("request_quote_lines")
    .$call(idKey)
    .$call(belongsTo("request_id", "requests"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("code", "text")
    .addColumn("act", "text", (c) => c.notNull())
    .addColumn("tooth", "integer", (c) =>
      c.check(sql`tooth is null or (tooth / 10 between 1 and 4 and tooth % 10 between 1 and 8)`),
    )
    .addColumn("fee_cents", "integer", (c) => c.notNull().check(sql`fee_cents > 0`))
    .addColumn("basket", "text", (c) => c.notNull().check(BASKET_CHECK))
    .addColumn("br_cents", "integer", (c) => c.notNull().check(sql`br_cents >= 0`))
    .addColumn("ceiling_cents", "integer")
    // Also the index of the lines of a request, in their order.
    .addUniqueConstraint("request_quote_lines_position_unique", ["request_id", "position"])
    .execute();

  await db.schema
    .createTable("patient_covers")
    .addColumn("patient_id", "uuid", (c) => c.primaryKey().references("profiles.id").onDelete("cascade"))
    .addColumn("percent_of_br", "integer", (c) => c.notNull().check(sql`percent_of_br between 100 and 500`))
    .addColumn("ro_included", "boolean", (c) => c.notNull())
    .addColumn("annual_ceiling_cents", "integer", (c) => c.check(sql`annual_ceiling_cents > 0`))
    .addColumn("implant_allowance_cents", "integer", (c) => c.check(sql`implant_allowance_cents > 0`))
    .addColumn("responsible", "boolean", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("patient_covers").ifExists().execute();
  await db.schema.dropTable("request_quote_lines").ifExists().execute();
  for (const column of ["ceiling_cents", "br_cents", "basket", "code"])
    await db.schema.alterTable("offer_lines").dropColumn(column).execute();
}
