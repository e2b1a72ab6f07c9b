import { type Kysely, sql } from "kysely";
import { createdAt, idKey } from "./columns";

/**
 * Sourio's own invoices (issue 35, ADR 045).
 *
 * - `billing_profiles`: the dentist's billing identity (practice name, address, SIREN), asked on the
 *   billing profile form; erased with the account.
 * - `invoice_counters`: one row per numbering series ('invoice', 'credit_note'). A number is taken by
 *   `update … set last_number = last_number + 1 returning last_number` in the transaction that issues
 *   the invoice: the row lock makes concurrent issues wait for each other, and a rolled-back issue
 *   gives its number back with its transaction, so the numbers have no gap (a sequence would have).
 * - `invoices`: invoices and credit notes (avoirs, `refers_to` the invoice). Every figure and both
 *   identities (seller from the settings, buyer from the billing profile) are copied into the row when
 *   it is issued: the row alone is the invoice. A trigger refuses any change and any deletion; the one
 *   change allowed is the erasure's re-attaching the row to the erased dentist's pseudonym profile
 *   (ADR 014), since invoices are kept 10 years (Code de commerce L123-22) whatever happens to the account.
 * - `invoice_files`: the Factur-X PDF of an invoice, stored once (encrypted storage) and never replaced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("billing_profiles")
    .addColumn("dentist_id", "uuid", (c) => c.primaryKey().references("profiles.id").onDelete("cascade"))
    .addColumn("practice_name", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("postal_code", "text", (c) => c.notNull().check(sql`postal_code ~ '^[0-9]{5}$'`))
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("siren", "text", (c) => c.notNull().check(sql`siren ~ '^[0-9]{9}$'`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("invoice_counters")
    .addColumn("series", "text", (c) => c.primaryKey().check(sql`series in ('invoice', 'credit_note')`))
    .addColumn("last_number", "integer", (c) => c.notNull().defaultTo(0).check(sql`last_number >= 0`))
    .execute();
  await sql`insert into invoice_counters (series, last_number) values ('invoice', 0), ('credit_note', 0)`.execute(
    db,
  );

  await db.schema
    .createTable("invoices")
    .$call(idKey)
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('invoice', 'credit_note')`))
    .addColumn("sequence", "integer", (c) => c.notNull().check(sql`sequence > 0`))
    .addColumn("number", "text", (c) => c.notNull().unique())
    // No cascade: erasing a dentist re-attaches the invoices to the pseudonym first (erasure.service.ts).
    .addColumn("dentist_id", "uuid", (c) => c.notNull().references("profiles.id"))
    .addColumn("payment_ref", "text", (c) => c.unique())
    .addColumn("refers_to", "uuid", (c) => c.references("invoices.id"))
    .addColumn("reason", "text")
    .addColumn("issued_at", "timestamptz", (c) => c.notNull())
    .addColumn("period_start", "date", (c) => c.notNull())
    .addColumn("period_end", "date", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("amount_ht_cents", "integer", (c) => c.notNull().check(sql`amount_ht_cents > 0`))
    .addColumn("vat_rate_bp", "integer", (c) => c.notNull().check(sql`vat_rate_bp >= 0`))
    .addColumn("vat_cents", "integer", (c) => c.notNull().check(sql`vat_cents >= 0`))
    .addColumn("amount_ttc_cents", "integer", (c) => c.notNull())
    .addColumn("seller", "jsonb", (c) => c.notNull())
    .addColumn("buyer", "jsonb", (c) => c.notNull())
    .$call(createdAt)
    .addUniqueConstraint("invoices_kind_sequence_key", ["kind", "sequence"])
    .addCheckConstraint("invoices_ttc_check", sql`amount_ttc_cents = amount_ht_cents + vat_cents`)
    .addCheckConstraint("invoices_period_check", sql`period_end >= period_start`)
    .addCheckConstraint(
      "invoices_refers_check",
      sql`(kind = 'invoice' and refers_to is null and payment_ref is not null)
        or (kind = 'credit_note' and refers_to is not null and reason is not null)`,
    )
    .execute();
  await sql`create index invoices_dentist_idx on invoices (dentist_id, issued_at desc, id)`.execute(db);
  await sql`create index invoices_refers_to_idx on invoices (refers_to) where refers_to is not null`.execute(
    db,
  );
  await sql`create index invoices_issued_idx on invoices (issued_at, id)`.execute(db);

  await sql`
    create function invoices_immutable() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        raise exception 'invoices are never deleted (kept 10 years)' using errcode = 'restrict_violation';
      end if;
      if (to_jsonb(new) - 'dentist_id') is distinct from (to_jsonb(old) - 'dentist_id')
         or (new.dentist_id is distinct from old.dentist_id
             and not exists (select 1 from profiles p where p.id = new.dentist_id and p.erased_at is not null)) then
        raise exception 'an issued invoice never changes' using errcode = 'restrict_violation';
      end if;
      return new;
    end
    $$
  `.execute(db);
  await sql`create trigger invoices_immutable before update or delete on invoices
    for each row execute function invoices_immutable()`.execute(db);

  await db.schema
    .createTable("invoice_files")
    .addColumn("invoice_id", "uuid", (c) => c.primaryKey().references("invoices.id"))
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("size", "integer", (c) => c.notNull())
    .$call(createdAt)
    .execute();
  await sql`
    create function invoice_files_immutable() returns trigger language plpgsql as $$
    begin
      raise exception 'an invoice''s stored file is never replaced nor deleted' using errcode = 'restrict_violation';
    end
    $$
  `.execute(db);
  await sql`create trigger invoice_files_immutable before update or delete on invoice_files
    for each row execute function invoice_files_immutable()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("invoice_files").ifExists().execute();
  await sql`drop function if exists invoice_files_immutable()`.execute(db);
  await db.schema.dropTable("invoices").ifExists().execute();
  await sql`drop function if exists invoices_immutable()`.execute(db);
  await db.schema.dropTable("invoice_counters").ifExists().execute();
  await db.schema.dropTable("billing_profiles").ifExists().execute();
}
