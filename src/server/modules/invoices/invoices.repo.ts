import { type Kysely, type Selectable, sql } from "kysely";
import type { BuyerIdentity, InvoiceKind, SellerIdentity } from "../../../shared/domain/invoices";
import type { Database, InvoicesTable } from "../../db/types";

/**
 * The invoices' writes outside any person's session (the payment webhook issues them): `system*`
 * names say so. The reads bound to an actor are in invoices.access.ts.
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

/** The amount before tax already credited on an invoice by its credit notes. */
export async function systemCreditedCents(trx: Trx, invoiceId: string): Promise<number> {
  const row = await trx
    .selectFrom("invoices")
    .select(sql<number>`coalesce(sum(amount_ht_cents), 0)::int`.as("cents"))
    .where("refers_to", "=", invoiceId)
    .executeTakeFirstOrThrow();
  return row.cents;
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
