import { type Kysely, sql } from "kysely";
import { belongsTo, idKey, timestamps } from "./columns";

/**
 * Dentists' offers on requests (ADR 008): an amount, a comment, optional line items, a
 * validity date and up to three proposed appointment slots. 'expired' is not stored: an offer
 * still 'sent' whose validity date has passed is expired (see shared/policies/offers.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("offers")
    .$call(idKey)
    .$call(belongsTo("request_id", "requests"))
    .$call(belongsTo("dentist_id", "profiles"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    // A calendar day in Europe/Paris: the offer holds until the end of that day.
    .addColumn("valid_until", "date")
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("sent").check(sql`status in ('sent', 'accepted', 'closed', 'withdrawn')`),
    )
    .addColumn("decided_at", "timestamptz")
    .$call(timestamps)
    .execute();
  // One live offer per dentist and request (a double click makes one), one accepted per request.
  await sql`create unique index offers_live_per_dentist_idx on offers (request_id, dentist_id) where status in ('sent', 'accepted')`.execute(
    db,
  );
  await sql`create unique index offers_accepted_per_request_idx on offers (request_id) where status = 'accepted'`.execute(
    db,
  );
  await sql`create index offers_request_created_idx on offers (request_id, created_at)`.execute(db);
  await sql`create index offers_dentist_created_idx on offers (dentist_id, created_at desc)`.execute(db);

  await db.schema
    .createTable("offer_lines")
    .$call(idKey)
    .$call(belongsTo("offer_id", "offers"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("act", "text", (c) => c.notNull())
    // FDI notation, permanent teeth: quadrant 1–4, tooth 1–8.
    .addColumn("tooth", "integer", (c) =>
      c.check(sql`tooth is null or (tooth / 10 between 1 and 4 and tooth % 10 between 1 and 8)`),
    )
    .addColumn("fee_cents", "integer", (c) => c.notNull().check(sql`fee_cents > 0`))
    .addUniqueConstraint("offer_lines_position_unique", ["offer_id", "position"])
    .execute();

  await db.schema
    .createTable("offer_slots")
    .$call(idKey)
    .$call(belongsTo("offer_id", "offers"))
    .addColumn("starts_at", "timestamptz", (c) => c.notNull())
    .addUniqueConstraint("offer_slots_unique", ["offer_id", "starts_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["offer_slots", "offer_lines", "offers"])
    await db.schema.dropTable(table).ifExists().execute();
}
