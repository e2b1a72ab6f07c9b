import type { Kysely } from "kysely";
import {
  amountsOf,
  amountsOfTotal,
  invoiceNumber,
  type SellerIdentity,
} from "../../../shared/domain/invoices";
import { parisToday } from "../../../shared/format/paris";
import { ERROR_CODES } from "../../../shared/schemas/common";
import type { Database } from "../../db/types";
import { AppError } from "../../errors";
import {
  type InvoiceRow,
  systemBuyerOf,
  systemCredited,
  systemInsertInvoice,
  systemInvoiceByPaymentRef,
  systemLockInvoice,
  systemLockSeries,
  systemTakeNumber,
} from "./invoices.repo";

export type { InvoiceRow };

/**
 * Issuing Sourio's invoices and credit notes (issue 35, ADR 045). Both run in the caller's
 * transaction (the paid-invoice webhook's, which also records the event): the number, the row and the
 * event are committed together or not at all. The transaction must be READ COMMITTED (PostgreSQL's
 * default): a concurrent issue of the same payment, once it has waited for the counter's lock, then
 * sees the invoice the first one committed.
 */

/** What issuing needs besides the payment: the seller's identity, from the settings (config.invoiceSeller). */
export interface IssueContext {
  seller: SellerIdentity;
}

export interface IssueInvoiceInput {
  dentistId: string;
  /** The payment's id at the provider (Stripe's invoice or payment intent id): one invoice per payment. */
  paymentRef: string;
  /** What is sold, printed as the line: "Abonnement Sourio Cabinet — mensuel". */
  planLabel: string;
  /** The service period: Paris calendar days ('YYYY-MM-DD') or instants (their Paris day is printed). */
  periodStart: Date | string;
  periodEnd: Date | string;
  /** The price before tax, in cents; the VAT (20 %) and the total are computed here. */
  amountHtCents?: number;
  /**
   * Or the total a payment charged, VAT included, in cents: the HT and the VAT are taken out of it
   * (`amountsOfTotal`), so the invoice says what was paid. One of the two.
   */
  paidTtcCents?: number;
  issuedAt: Date;
}

export interface IssueCreditNoteInput {
  invoiceId: string;
  /** Why (refund, correction): printed on the credit note. */
  reason: string;
  /** The amount before tax credited, at most what is left of the invoice's… */
  amountHtCents?: number;
  /**
   * …or the amount credited TTC (a refund at the provider): HT computed from it, as an invoice is from
   * the amount paid; the one that empties the invoice takes what is left of its HT.
   */
  amountTtcCents?: number;
  /** When it is issued (default: now). */
  issuedAt?: Date;
  /** The refund's id at the provider, when there is one: one credit note per refund. */
  refundRef?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayOf(value: Date | string, name: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error(`${name}: invalid date`);
    return parisToday(value);
  }
  if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    throw new Error(`${name}: 'YYYY-MM-DD' expected`);
  return value;
}

function checkLabel(value: string, name: string): string {
  const label = value.trim();
  if (label === "" || label.length > 200) throw new Error(`${name}: 1 to 200 characters`);
  return label;
}

/**
 * Issues the invoice of a payment, once: a second call with the same paymentRef returns the invoice
 * the first one issued (whatever else it is given). The number is the next of the 'invoice' series,
 * taken in this transaction; the buyer is copied from the dentist's billing profile and the seller
 * from the settings, so that the row alone is the invoice; it never changes afterwards.
 */
export async function issueInvoice(
  trx: Kysely<Database>,
  input: IssueInvoiceInput,
  context: IssueContext,
): Promise<InvoiceRow> {
  const paymentRef = checkLabel(input.paymentRef, "paymentRef");
  const existing = await systemInvoiceByPaymentRef(trx, paymentRef);
  if (existing) return existing;

  const label = checkLabel(input.planLabel, "planLabel");
  const periodStart = dayOf(input.periodStart, "periodStart");
  const periodEnd = dayOf(input.periodEnd, "periodEnd");
  if (periodEnd < periodStart) throw new Error("periodEnd before periodStart");
  if ((input.paidTtcCents === undefined) === (input.amountHtCents === undefined))
    throw new Error("issueInvoice: amountHtCents or paidTtcCents, one of the two");
  const amounts =
    input.paidTtcCents !== undefined
      ? amountsOfTotal(input.paidTtcCents)
      : amountsOf(input.amountHtCents as number);
  const buyer = await systemBuyerOf(trx, input.dentistId);
  if (!buyer) throw new Error("issueInvoice: no such dentist");

  // Under the series' lock, the same payment issued concurrently is now visible: answer it.
  await systemLockSeries(trx, "invoice");
  const raced = await systemInvoiceByPaymentRef(trx, paymentRef);
  if (raced) return raced;
  const sequence = await systemTakeNumber(trx, "invoice");
  return systemInsertInvoice(trx, {
    kind: "invoice",
    sequence,
    number: invoiceNumber("invoice", sequence),
    dentistId: input.dentistId,
    paymentRef,
    refersTo: null,
    reason: null,
    issuedAt: input.issuedAt,
    periodStart,
    periodEnd,
    label,
    amountHtCents: amounts.htCents,
    vatRateBp: amounts.vatRateBp,
    vatCents: amounts.vatCents,
    amountTtcCents: amounts.ttcCents,
    seller: context.seller,
    buyer,
  });
}

/**
 * Issues a credit note (avoir) on an invoice: its own number in the 'credit_note' series, the same
 * buyer, period and VAT rate as the invoice, for at most what has not yet been credited (409 beyond).
 * With a refundRef, a second call for the same refund returns the first credit note.
 */
export async function issueCreditNote(
  trx: Kysely<Database>,
  input: IssueCreditNoteInput,
  context: IssueContext,
): Promise<InvoiceRow> {
  const reason = checkLabel(input.reason, "reason");
  const refundRef = input.refundRef === undefined ? null : checkLabel(input.refundRef, "refundRef");
  if (refundRef) {
    const existing = await systemInvoiceByPaymentRef(trx, refundRef);
    if (existing) return existing;
  }
  const invoice = await systemLockInvoice(trx, input.invoiceId);
  if (!invoice) throw new Error("issueCreditNote: no such invoice");
  if (refundRef) {
    const raced = await systemInvoiceByPaymentRef(trx, refundRef);
    if (raced) return raced;
  }
  const credited = await systemCredited(trx, invoice.id);
  const exceeds = () =>
    new AppError(
      409,
      ERROR_CODES.conflict,
      `L'avoir dépasse le montant restant de la facture ${invoice.number}.`,
    );
  let amountHtCents = input.amountHtCents;
  if (input.amountTtcCents !== undefined) {
    amountHtCents =
      input.amountTtcCents === invoice.amount_ttc_cents - credited.ttc
        ? invoice.amount_ht_cents - credited.ht
        : amountsOfTotal(input.amountTtcCents, invoice.vat_rate_bp).htCents;
    // Its whole HT already credited (a cent of TTC left by the rounding of earlier credit notes).
    if (amountHtCents <= 0) throw exceeds();
  }
  if (amountHtCents === undefined || !Number.isSafeInteger(amountHtCents) || amountHtCents <= 0)
    throw new Error("issueCreditNote: positive amount in cents expected");
  if (credited.ht + amountHtCents > invoice.amount_ht_cents) throw exceeds();
  const amounts = amountsOf(amountHtCents, invoice.vat_rate_bp);
  const sequence = await systemTakeNumber(trx, "credit_note");
  return systemInsertInvoice(trx, {
    kind: "credit_note",
    sequence,
    number: invoiceNumber("credit_note", sequence),
    dentistId: invoice.dentist_id,
    paymentRef: refundRef,
    refersTo: invoice.id,
    reason,
    issuedAt: input.issuedAt ?? new Date(),
    periodStart: invoice.period_start,
    periodEnd: invoice.period_end,
    label: invoice.label,
    amountHtCents: amounts.htCents,
    vatRateBp: amounts.vatRateBp,
    vatCents: amounts.vatCents,
    amountTtcCents: amounts.ttcCents,
    seller: context.seller,
    buyer: invoice.buyer,
  });
}

/** What Sourio's credit note says of a provider's refund, by the provider's reason (Stripe's). */
const PROVIDER_REASONS: Record<string, string> = {
  duplicate: "Paiement en double",
  fraudulent: "Paiement frauduleux",
  order_change: "Changement d'abonnement",
  product_unsatisfactory: "Service non satisfaisant",
};

/** The reason printed on the credit note: the provider's, in French, and the text typed with it. */
export function providerCreditReason(reason: string | null, memo: string | null): string {
  const base = (reason && PROVIDER_REASONS[reason]) || "Remboursement ou crédit";
  return (memo ? `${base} (${memo})` : base).slice(0, 200);
}

export type ProviderCreditOutcome =
  | { status: "issued"; creditNote: InvoiceRow; invoice: InvoiceRow; exact: boolean }
  /** No invoice of Sourio's has the provider's invoice as payment: nothing issued. */
  | { status: "unknown_invoice" }
  /** More than is left of the invoice: nothing issued. */
  | { status: "exceeds"; invoice: InvoiceRow };

/**
 * The credit note of a refund made at the provider (a credit note there, ADR 079):
 * on Sourio's invoice of that payment, for the amount credited TTC (issueCreditNote's
 * `amountTtcCents`), once per provider credit note.
 */
export async function issueProviderCreditNote(
  trx: Kysely<Database>,
  input: {
    providerInvoiceId: string;
    providerCreditNoteId: string;
    creditedTtcCents: number;
    reason: string;
    issuedAt: Date;
  },
  context: IssueContext,
): Promise<ProviderCreditOutcome> {
  const invoice = await systemInvoiceByPaymentRef(trx, input.providerInvoiceId);
  if (invoice?.kind !== "invoice") return { status: "unknown_invoice" };
  try {
    const creditNote = await issueCreditNote(
      trx,
      {
        invoiceId: invoice.id,
        reason: input.reason,
        amountTtcCents: input.creditedTtcCents,
        refundRef: input.providerCreditNoteId,
        issuedAt: input.issuedAt,
      },
      context,
    );
    return {
      status: "issued",
      creditNote,
      invoice,
      exact: creditNote.amount_ttc_cents === input.creditedTtcCents,
    };
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 409) return { status: "exceeds", invoice };
    throw error;
  }
}
