import {
  FormatFactoryService,
  type Invoice,
  type InvoiceServiceOptions,
  invoiceSchema,
  type Logger,
} from "@e-invoice-eu/core";
import { Ajv2019, type ValidateFunction } from "ajv/dist/2019.js";
import { LATE_PENALTY_TEXT, PAYMENT_TERMS_TEXT, RECOVERY_FEE_CENTS } from "../../../shared/domain/invoices";
import { parisToday } from "../../../shared/format/paris";
import type { InvoiceRow } from "./invoices.repo";

/**
 * The Factur-X invoice (EN 16931 profile): the CII XML is made by @e-invoice-eu/core from its JSON
 * model (UBL names, converted to CII by the library) and embedded, with the PDF/A-3 metadata, into the
 * PDF drawn by invoices.pdf.ts. Nothing here writes XML by hand.
 */

export const FACTURX_FORMAT = "Factur-X-EN16931";

/** Cents as the XML writes amounts: "89.00". */
export const xmlAmount = (cents: number) => (cents / 100).toFixed(2);

/** French legal registration identifiers (SIREN): ISO 6523 ICD 0002. */
const SIREN_SCHEME = "0002";
/**
 * Electronic addresses by SIREN: EAS 0002 (SIRENE). The French platforms' own scheme (0225) is not in
 * the library's EAS code list yet (ADR 045).
 */
const SIREN_ADDRESS_SCHEME = "0002";

const money = (cents: number) => ({ amount: xmlAmount(cents), currency: "EUR" });

/** The invoice in @e-invoice-eu/core's model. `referred` is the invoice a credit note corrects. */
export function facturxData(row: InvoiceRow, referred?: Pick<InvoiceRow, "number" | "issued_at">): Invoice {
  const { seller, buyer } = row;
  const ht = money(row.amount_ht_cents);
  const vat = money(row.vat_cents);
  const ttc = money(row.amount_ttc_cents);
  const rate = (row.vat_rate_bp / 100).toString();
  const issueDate = parisToday(row.issued_at);
  const creditNote = row.kind === "credit_note";
  const taxCategory = { "cbc:ID": "S", "cbc:Percent": rate, "cac:TaxScheme": { "cbc:ID": "VAT" } } as const;
  const recoveryFee = `Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : ${xmlAmount(RECOVERY_FEE_CENTS).replace(".", ",")} € (art. L441-10 et D441-5 du Code de commerce).`;

  const data = {
    "ubl:Invoice": {
      "cbc:ID": row.number,
      "cbc:IssueDate": issueDate,
      "cbc:DueDate": issueDate,
      "cbc:InvoiceTypeCode": creditNote ? "381" : "380",
      // One note (BT-22): the library writes a list of notes into one IncludedNote, which the XSD refuses.
      "cbc:Note": [
        [
          creditNote
            ? `Avoir sur la facture ${referred?.number ?? ""} : ${row.reason ?? ""}`
            : "Prestation de services",
          LATE_PENALTY_TEXT,
          recoveryFee,
          PAYMENT_TERMS_TEXT,
        ].join(" — "),
      ],
      "cbc:DocumentCurrencyCode": "EUR",
      "cbc:BuyerReference": row.number,
      "cac:InvoicePeriod": { "cbc:StartDate": row.period_start, "cbc:EndDate": row.period_end },
      ...(creditNote && referred
        ? {
            "cac:BillingReference": [
              {
                "cac:InvoiceDocumentReference": {
                  "cbc:ID": referred.number,
                  "cbc:IssueDate": parisToday(referred.issued_at),
                },
              },
            ],
          }
        : {}),
      // The XSD wants the header's delivery element, which the library writes only with content: the
      // date the service starts being provided (BT-72), the first day of the period.
      "cac:Delivery": { "cbc:ActualDeliveryDate": row.period_start },
      "cac:AccountingSupplierParty": {
        "cac:Party": {
          "cbc:EndpointID": seller.siren,
          "cbc:EndpointID@schemeID": SIREN_ADDRESS_SCHEME,
          "cac:PartyName": { "cbc:Name": seller.name },
          "cac:PostalAddress": {
            "cbc:StreetName": seller.address,
            "cbc:CityName": seller.city,
            "cbc:PostalZone": seller.postalCode,
            "cac:Country": { "cbc:IdentificationCode": "FR" },
          },
          "cac:PartyTaxScheme": [{ "cbc:CompanyID": seller.vatNumber, "cac:TaxScheme": { "cbc:ID": "VAT" } }],
          "cac:PartyLegalEntity": {
            "cbc:RegistrationName": seller.name,
            "cbc:CompanyID": seller.siren,
            "cbc:CompanyID@schemeID": SIREN_SCHEME,
            "cbc:CompanyLegalForm": `${seller.legalForm} au capital de ${seller.capital} — ${seller.rcs}`,
          },
        },
      },
      "cac:AccountingCustomerParty": {
        "cac:Party": {
          ...(buyer.siren
            ? { "cbc:EndpointID": buyer.siren, "cbc:EndpointID@schemeID": SIREN_ADDRESS_SCHEME }
            : {}),
          "cac:PartyName": { "cbc:Name": buyer.name },
          "cac:PostalAddress": {
            ...(buyer.address ? { "cbc:StreetName": buyer.address } : {}),
            ...(buyer.city ? { "cbc:CityName": buyer.city } : {}),
            ...(buyer.postalCode ? { "cbc:PostalZone": buyer.postalCode } : {}),
            "cac:Country": { "cbc:IdentificationCode": "FR" },
          },
          "cac:PartyLegalEntity": {
            "cbc:RegistrationName": buyer.name,
            ...(buyer.siren ? { "cbc:CompanyID": buyer.siren, "cbc:CompanyID@schemeID": SIREN_SCHEME } : {}),
          },
        },
      },
      "cac:PaymentTerms": { "cbc:Note": PAYMENT_TERMS_TEXT },
      "cac:TaxTotal": [
        {
          "cbc:TaxAmount": vat.amount,
          "cbc:TaxAmount@currencyID": "EUR",
          "cac:TaxSubtotal": [
            {
              "cbc:TaxableAmount": ht.amount,
              "cbc:TaxableAmount@currencyID": "EUR",
              "cbc:TaxAmount": vat.amount,
              "cbc:TaxAmount@currencyID": "EUR",
              "cac:TaxCategory": taxCategory,
            },
          ],
        },
      ],
      "cac:LegalMonetaryTotal": {
        "cbc:LineExtensionAmount": ht.amount,
        "cbc:LineExtensionAmount@currencyID": "EUR",
        "cbc:TaxExclusiveAmount": ht.amount,
        "cbc:TaxExclusiveAmount@currencyID": "EUR",
        "cbc:TaxInclusiveAmount": ttc.amount,
        "cbc:TaxInclusiveAmount@currencyID": "EUR",
        "cbc:PayableAmount": ttc.amount,
        "cbc:PayableAmount@currencyID": "EUR",
      },
      "cac:InvoiceLine": [
        {
          "cbc:ID": "1",
          "cbc:InvoicedQuantity": "1",
          "cbc:InvoicedQuantity@unitCode": "C62",
          "cbc:LineExtensionAmount": ht.amount,
          "cbc:LineExtensionAmount@currencyID": "EUR",
          "cac:InvoicePeriod": { "cbc:StartDate": row.period_start, "cbc:EndDate": row.period_end },
          "cac:Item": {
            "cbc:Description": "Prestation de services",
            "cbc:Name": row.label,
            "cac:ClassifiedTaxCategory": taxCategory,
          },
          "cac:Price": { "cbc:PriceAmount": ht.amount, "cbc:PriceAmount@currencyID": "EUR" },
        },
      ],
    },
  };
  return data as unknown as Invoice;
}

/** The library's messages go nowhere: what its checks refuse is thrown (generate, below). */
const quiet: Logger = { log() {}, warn() {}, error() {} };

const formats = new FormatFactoryService();

/**
 * The library's check of its model, by format, compiled once per process. `InvoiceService.generate`
 * compiles its whole JSON schema again at every call (0.2 to 0.4 s of CPU on the event loop, every
 * request waiting): here its same steps, with the same Ajv options, around one compiled check
 * (ADR 068). facturx.test.ts compares the two.
 */
const checks = new Map<string, ValidateFunction<Invoice>>();
function checkFor(format: string): ValidateFunction<Invoice> {
  let check = checks.get(format);
  if (!check) {
    const schema = structuredClone(invoiceSchema);
    formats.createFormatService(format, quiet).patchSchema(schema);
    check = new Ajv2019({ strict: true, allErrors: true, useDefaults: true }).compile<Invoice>(schema);
    checks.set(format, check);
  }
  return check;
}

/**
 * What `InvoiceService.generate` does (version 2.3: the model copied, checked against its JSON schema,
 * which fills its defaults, the format's own defaults, then the format's writer), with the check
 * compiled once. A model the schema refuses throws an Error naming each refused path and rule (never
 * the values: they hold the buyer's identity).
 */
export async function generate(data: Invoice, options: InvoiceServiceOptions) {
  const format = formats.normalizeFormat(options.format);
  const formatter = formats.createFormatService(format, quiet);
  const invoice = structuredClone(data);
  const check = checkFor(format);
  if (!check(invoice)) {
    const issues = check.errors ?? [];
    throw new Error(
      `Factur-X: the invoice model is refused: ${issues.map((i) => `${i.instancePath} ${i.message}`).join("; ")}`,
    );
  }
  formatter.fillInvoiceDefaults(invoice);
  return formatter.generate(invoice, { ...options, format });
}

/**
 * The Factur-X PDF/A-3: `pdf` (the drawn invoice) with the CII XML embedded as factur-x.xml. The
 * library validates its model against its JSON schema first and throws when it does not hold.
 */
export async function facturxPdf(
  row: InvoiceRow,
  pdf: Uint8Array,
  referred?: Pick<InvoiceRow, "number" | "issued_at">,
): Promise<Uint8Array> {
  const out = await generate(facturxData(row, referred), {
    format: FACTURX_FORMAT,
    lang: "fr-fr",
    pdf: { buffer: pdf, filename: `${row.number}.pdf`, mimetype: "application/pdf" },
    noWarnings: true,
  });
  if (typeof out === "string") throw new Error("Factur-X: a PDF was expected");
  return out;
}
