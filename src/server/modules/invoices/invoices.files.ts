import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { INVOICE_KIND_LABELS } from "../../../shared/domain/invoices";
import { parisToday } from "../../../shared/format/paris";
import type { InvoiceDto } from "../../../shared/schemas/invoices";
import type { Db } from "../../db/index";
import type { Storage } from "../../storage/storage";
import { facturxPdf } from "./invoices.facturx";
import { drawInvoicePdf, frenchDay } from "./invoices.pdf";
import {
  type InvoiceRow,
  type ListedInvoice,
  systemInsertInvoiceFile,
  systemInvoiceById,
  systemInvoiceFile,
} from "./invoices.repo";

/**
 * An invoice's Factur-X PDF, made from its row (which never changes) the first time it is asked
 * for, stored through the encrypted Storage under a random key (never named after the dentist: the
 * file outlives the account) and served as stored ever after. The paid-invoice webhook asks for it
 * right after its commit; a download asks again if that failed.
 */
export async function storedInvoicePdf(
  deps: { db: Db; storage: Storage },
  row: InvoiceRow,
): Promise<{ key: string; size: number }> {
  const stored = await systemInvoiceFile(deps.db, row.id);
  if (stored) return { key: stored.storage_key, size: stored.size };
  const referred = row.refers_to ? await systemInvoiceById(deps.db, row.refers_to) : undefined;
  const pdf = await facturxPdf(row, await drawInvoicePdf(row, referred), referred);
  const key = `invoices/${randomUUID()}.pdf`;
  await deps.storage.write(key, Readable.from([Buffer.from(pdf)]));
  let recorded: boolean;
  try {
    recorded = await systemInsertInvoiceFile(deps.db, { invoiceId: row.id, key, size: pdf.byteLength });
  } catch (error) {
    await deps.storage.remove(key).catch(() => {});
    throw error;
  }
  if (recorded) return { key, size: pdf.byteLength };
  // Another request stored it first: serve that one, drop ours.
  await deps.storage.remove(key).catch(() => {});
  const theirs = await systemInvoiceFile(deps.db, row.id);
  if (!theirs) throw new Error("invoice file vanished");
  return { key: theirs.storage_key, size: theirs.size };
}

/** The name the PDF is downloaded as: facture-F-000012.pdf, avoir-AV-000003.pdf. */
export const invoiceFileName = (row: Pick<InvoiceRow, "kind" | "number">) =>
  `${row.kind === "invoice" ? "facture" : "avoir"}-${row.number}.pdf`;

export function toInvoiceDto(row: ListedInvoice): InvoiceDto {
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    issued_at: new Date(row.issued_at).toISOString(),
    period_start: row.period_start,
    period_end: row.period_end,
    label: row.label,
    amount_ht_cents: row.amount_ht_cents,
    vat_rate_bp: row.vat_rate_bp,
    vat_cents: row.vat_cents,
    amount_ttc_cents: row.amount_ttc_cents,
    refers_to_number: row.refers_to_number,
    reason: row.reason,
  };
}

/** A CSV field: quoted when needed; text a spreadsheet would run as a formula starts with an apostrophe. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Cents as a French spreadsheet reads them: "-106,80". */
const csvAmount = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");

export const REGISTER_HEADER = [
  "Numéro",
  "Date",
  "Type",
  "Acheteur",
  "SIREN",
  "Montant HT",
  "TVA",
  "Montant TTC",
  "Facture d'origine",
];

/**
 * The invoice register for the accountant: one line per invoice or credit note, semicolon-separated
 * with decimal commas (French spreadsheets), UTF-8 with a BOM; a credit note's amounts are negative so
 * that the columns add up to what was really invoiced.
 */
export function registerCsv(rows: ListedInvoice[]): string {
  const lines = [REGISTER_HEADER.map(csvField).join(";")];
  for (const row of rows) {
    const sign = row.kind === "credit_note" ? -1 : 1;
    lines.push(
      [
        csvField(row.number),
        frenchDay(parisToday(new Date(row.issued_at))),
        csvField(INVOICE_KIND_LABELS[row.kind]),
        csvField(row.buyer.name),
        csvField(row.buyer.siren ?? ""),
        csvAmount(sign * row.amount_ht_cents),
        csvAmount(sign * row.vat_cents),
        csvAmount(sign * row.amount_ttc_cents),
        csvField(row.refers_to_number ?? ""),
      ].join(";"),
    );
  }
  return `\ufeff${lines.join("\r\n")}\r\n`;
}
