import { type Kysely, type Selectable, sql } from "kysely";
import type { BuyerIdentity, InvoiceKind, SellerIdentity } from "../../../shared/domain/invoices";
import type { BillingProfile } from "../../../shared/schemas/invoices";
import type { Actor } from "../../access/actor";
import { fetchPage } from "../../db/paging";
import type { Database, InvoicesTable } from "../../db/types";

/**
 * The invoices' writes outside any person's session (the payment webhook issues them): `system*`
 * names say so. The reads of people are bound to the actor (ownInvoicesRepo, adminInvoicesRepo).
 */
type Trx = Kysely<Database>;

export type InvoiceRow = Selectable<InvoicesTable>;

/**
 * Takes the next number of a series, in the caller's transaction: the counter row is locked until
 * that transaction ends, so concurrent issues take 1, 2, 3… in turn, and a rolled-back issue hands
 * its number back with its transaction (no gap). Call systemLockSeries first when something must be
 * checked under the lock before the number is taken.
 */
export async function systemTakeNumber(trx: Trx, series: InvoiceKind): Promise<number> {
  const row = await trx
    .updateTable("invoice_counters")
    .set({ last_number: sql<number>`last_number + 1` })
    .where("series", "=", series)
    .returning("last_number")
    .executeTakeFirstOrThrow();
  return row.last_number;
}

/** Locks a series' counter row until the caller's transaction ends (without taking a number). */
export async function systemLockSeries(trx: Trx, series: InvoiceKind): Promise<void> {
  await trx
    .selectFrom("invoice_counters")
    .select("series")
    .where("series", "=", series)
    .forUpdate()
    .execute();
}

export function systemInvoiceByPaymentRef(trx: Trx, paymentRef: string): Promise<InvoiceRow | undefined> {
  return trx.selectFrom("invoices").selectAll().where("payment_ref", "=", paymentRef).executeTakeFirst();
}

/** An invoice (not a credit note), locked until the caller's transaction ends. */
export function systemLockInvoice(trx: Trx, id: string): Promise<InvoiceRow | undefined> {
  return trx
    .selectFrom("invoices")
    .selectAll()
    .where("id", "=", id)
    .where("kind", "=", "invoice")
    .forUpdate()
    .executeTakeFirst();
}

/** What an invoice's credit notes already credit, before tax and TTC, in cents. */
export async function systemCredited(trx: Trx, invoiceId: string): Promise<{ ht: number; ttc: number }> {
  return trx
    .selectFrom("invoices")
    .select([
      sql<number>`coalesce(sum(amount_ht_cents), 0)::int`.as("ht"),
      sql<number>`coalesce(sum(amount_ttc_cents), 0)::int`.as("ttc"),
    ])
    .where("refers_to", "=", invoiceId)
    .executeTakeFirstOrThrow();
}

/** The buyer's identity of a dentist: the billing profile, else the practice known from verification. */
export async function systemBuyerOf(trx: Trx, dentistId: string): Promise<BuyerIdentity | null> {
  const row = await trx
    .selectFrom("profiles as p")
    .leftJoin("billing_profiles as b", "b.dentist_id", "p.id")
    .select([
      "p.role",
      "p.full_name",
      "p.practice_address",
      "p.practice_postcode",
      "p.city",
      "b.practice_name",
      "b.address",
      "b.postal_code",
      "b.city as billing_city",
      "b.siren",
    ])
    .where("p.id", "=", dentistId)
    .executeTakeFirst();
  if (row?.role !== "dentist") return null;
  if (row.practice_name && row.address && row.postal_code && row.billing_city && row.siren)
    return {
      name: row.practice_name,
      address: row.address,
      postalCode: row.postal_code,
      city: row.billing_city,
      siren: row.siren,
    };
  return {
    name: row.full_name,
    address: row.practice_address ?? "",
    postalCode: row.practice_postcode ?? "",
    city: row.city ?? "",
    siren: null,
  };
}

export interface NewInvoice {
  kind: InvoiceKind;
  sequence: number;
  number: string;
  dentistId: string;
  paymentRef: string | null;
  refersTo: string | null;
  reason: string | null;
  issuedAt: Date;
  periodStart: string;
  periodEnd: string;
  label: string;
  amountHtCents: number;
  vatRateBp: number;
  vatCents: number;
  amountTtcCents: number;
  seller: SellerIdentity;
  buyer: BuyerIdentity;
}

export function systemInsertInvoice(trx: Trx, invoice: NewInvoice): Promise<InvoiceRow> {
  return trx
    .insertInto("invoices")
    .values({
      kind: invoice.kind,
      sequence: invoice.sequence,
      number: invoice.number,
      dentist_id: invoice.dentistId,
      payment_ref: invoice.paymentRef,
      refers_to: invoice.refersTo,
      reason: invoice.reason,
      issued_at: invoice.issuedAt,
      period_start: invoice.periodStart,
      period_end: invoice.periodEnd,
      label: invoice.label,
      amount_ht_cents: invoice.amountHtCents,
      vat_rate_bp: invoice.vatRateBp,
      vat_cents: invoice.vatCents,
      amount_ttc_cents: invoice.amountTtcCents,
      seller: JSON.stringify(invoice.seller),
      buyer: JSON.stringify(invoice.buyer),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function systemInvoiceById(db: Trx, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The stored Factur-X PDF of an invoice, if it was stored. */
export function systemInvoiceFile(db: Trx, invoiceId: string) {
  return db
    .selectFrom("invoice_files")
    .select(["storage_key", "size"])
    .where("invoice_id", "=", invoiceId)
    .executeTakeFirst();
}

/** Records the stored PDF of an invoice once; false when another instance stored one first. */
export async function systemInsertInvoiceFile(
  db: Trx,
  file: { invoiceId: string; key: string; size: number },
): Promise<boolean> {
  const row = await db
    .insertInto("invoice_files")
    .values({ invoice_id: file.invoiceId, storage_key: file.key, size: file.size })
    .onConflict((oc) => oc.column("invoice_id").doNothing())
    .returning("invoice_id")
    .executeTakeFirst();
  return Boolean(row);
}

/** An invoice with the number of the invoice a credit note refers to. */
const withReferred = (db: Trx) =>
  db
    .selectFrom("invoices as i")
    .leftJoin("invoices as r", "r.id", "i.refers_to")
    .selectAll("i")
    .select(["r.number as refers_to_number"]);

export type ListedInvoice = InvoiceRow & { refers_to_number: string | null };

/**
 * A dentist's own billing profile and invoices: every read filtered by the actor, so another
 * dentist's invoice is simply not found (404).
 */
export function ownInvoicesRepo(db: Trx, actor: Actor) {
  const me = actor.userId;
  return {
    billingProfile() {
      return db
        .selectFrom("billing_profiles")
        .select(["practice_name", "address", "postal_code", "city", "siren"])
        .where("dentist_id", "=", me)
        .executeTakeFirst();
    },
    async saveBillingProfile(values: BillingProfile, now: Date) {
      await db
        .insertInto("billing_profiles")
        .values({ dentist_id: me, ...values, updated_at: now })
        .onConflict((oc) => oc.column("dentist_id").doUpdateSet({ ...values, updated_at: now }))
        .execute();
    },
    invoices(options: { page: number; pageSize: number }) {
      return fetchPage(
        withReferred(db)
          .where("i.dentist_id", "=", me)
          .orderBy("i.issued_at", "desc")
          .orderBy("i.id", "desc"),
        options,
      ) as Promise<{ rows: ListedInvoice[]; hasMore: boolean }>;
    },
    invoice(id: string) {
      return db
        .selectFrom("invoices")
        .selectAll()
        .where("id", "=", id)
        .where("dentist_id", "=", me)
        .executeTakeFirst();
    },
    /** Every invoice and credit note of the dentist, oldest first (the data export). */
    allInvoices() {
      return withReferred(db)
        .where("i.dentist_id", "=", me)
        .orderBy("i.issued_at")
        .orderBy("i.id")
        .execute() as Promise<ListedInvoice[]>;
    },
  };
}

/** The team's reads of invoices (admin only, checked again here). */
export function adminInvoicesRepo(db: Trx, actor: Actor) {
  if (!actor.profile.is_admin) throw new Error("adminInvoicesRepo: not an admin");
  return {
    dentistExists(id: string) {
      return db
        .selectFrom("profiles")
        .select("id")
        .where("id", "=", id)
        .where("role", "=", "dentist")
        .executeTakeFirst();
    },
    invoicesOf(dentistId: string, options: { page: number; pageSize: number }) {
      return fetchPage(
        withReferred(db)
          .where("i.dentist_id", "=", dentistId)
          .orderBy("i.issued_at", "desc")
          .orderBy("i.id", "desc"),
        options,
      ) as Promise<{ rows: ListedInvoice[]; hasMore: boolean }>;
    },
    invoice(id: string) {
      return systemInvoiceById(db, id);
    },
    /** Every invoice and credit note issued from `from` to `to` (instants), in number order per series. */
    register(from: Date | null, to: Date | null) {
      let query = withReferred(db);
      if (from) query = query.where("i.issued_at", ">=", from);
      if (to) query = query.where("i.issued_at", "<", to);
      return query.orderBy("i.issued_at").orderBy("i.kind").orderBy("i.sequence").execute() as Promise<
        ListedInvoice[]
      >;
    },
  };
}
