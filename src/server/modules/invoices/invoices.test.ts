import { describe, expect, it } from "vitest";
import { INVOICE_MESSAGES } from "../../../shared/schemas/invoices";
import { archiveOf } from "../../testing/archive";
import { appPerFile } from "../../testing/harness";
import { api, peoplePerFile, signInAdmin, type Who } from "../../testing/people";
import { type IssueInvoiceInput, issueCreditNote, issueInvoice } from "./invoices.service";

/*
 * The invoices' routes (issue 35): the dentist's billing profile and own invoices, the team's view and
 * the accountant's register; erasure keeps the invoices, the data export carries them.
 */

const ctx = appPerFile();
const { get, call } = api(ctx);
const who = peoplePerFile(ctx, { patients: ["Paula"], dentists: { drA: "Anne", drB: "Bruno" } });
const drA = () => who.drA as Who;
const drB = () => who.drB as Who;
let admin: Who | undefined;
const asAdmin = async () => {
  admin ??= await signInAdmin(ctx.app);
  return admin;
};

const PROFILE = {
  practice_name: "Cabinet dentaire des Lilas",
  address: "12 rue des Lilas",
  postal_code: "69003",
  city: "Lyon",
  siren: "552 100 554",
};

const payment = (dentistId: string, paymentRef: string, issuedAt: string): IssueInvoiceInput => ({
  dentistId,
  paymentRef,
  planLabel: "Abonnement Sourio Cabinet — mensuel",
  periodStart: issuedAt.slice(0, 10),
  periodEnd: issuedAt.slice(0, 10),
  amountHtCents: 8900,
  issuedAt: new Date(issuedAt),
});
const issue = (input: IssueInvoiceInput) =>
  ctx.app.db
    .transaction()
    .execute((trx) => issueInvoice(trx, input, { seller: ctx.app.config.invoiceSeller }));

describe("the billing profile", () => {
  it("is given by the dentist, SIREN checked (Luhn), French errors naming the field", async () => {
    expect((await get("/api/dentist/billing-profile", drA())).json()).toEqual({ profile: null });
    const bad = await call("PUT", "/api/dentist/billing-profile", drA(), { ...PROFILE, siren: "552100555" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ siren: INVOICE_MESSAGES.sirenInvalid });
    // Empty, too short or with letters: said as such, not as a wrong key.
    for (const [siren, message] of [
      ["", INVOICE_MESSAGES.sirenRequired],
      ["  ", INVOICE_MESSAGES.sirenRequired],
      ["12345", INVOICE_MESSAGES.sirenFormat],
      ["abcdefghi", INVOICE_MESSAGES.sirenFormat],
    ] as const) {
      const refused = await call("PUT", "/api/dentist/billing-profile", drA(), { ...PROFILE, siren });
      expect(refused.json().error.fields, siren).toEqual({ siren: message });
    }
    const missing = await call("PUT", "/api/dentist/billing-profile", drA(), {
      ...PROFILE,
      city: " ",
      postal_code: "6900",
    });
    expect(missing.json().error.fields).toEqual({
      city: INVOICE_MESSAGES.cityRequired,
      postal_code: INVOICE_MESSAGES.postalCodeInvalid,
    });
    const saved = await call("PUT", "/api/dentist/billing-profile", drA(), PROFILE);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ message: INVOICE_MESSAGES.saved });
    expect((await get("/api/dentist/billing-profile", drA())).json()).toEqual({
      profile: { ...PROFILE, siren: "552100554" },
    });
    // Each dentist's own: Bruno has none.
    expect((await get("/api/dentist/billing-profile", drB())).json()).toEqual({ profile: null });
    // Patients and anonymous callers are refused.
    expect((await get("/api/dentist/billing-profile", who.Paula)).statusCode).toBe(403);
    expect((await get("/api/dentist/billing-profile")).statusCode).toBe(401);
  });
});

describe("a dentist's invoices", () => {
  it("lists the dentist's own, newest first and paged, and never another dentist's", async () => {
    for (const [i, day] of ["2026-08-01", "2026-09-01", "2026-10-01"].entries())
      await issue(payment(drA().id, `in_list_${i}`, `${day}T08:00:00Z`));
    const other = await issue(payment(drB().id, "in_list_b", "2026-09-15T08:00:00Z"));

    const first = await get("/api/dentist/invoices?page=1&page_size=2", drA());
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.items.map((i: { issued_at: string }) => i.issued_at.slice(0, 10))).toEqual([
      "2026-10-01",
      "2026-09-01",
    ]);
    expect(body.has_more).toBe(true);
    expect(body.items[0]).toMatchObject({
      kind: "invoice",
      amount_ht_cents: 8900,
      vat_cents: 1780,
      amount_ttc_cents: 10_680,
      refers_to_number: null,
    });
    const second = (await get("/api/dentist/invoices?page=2&page_size=2", drA())).json();
    expect(second.items).toHaveLength(1);
    expect(second.has_more).toBe(false);
    expect(JSON.stringify([body, second])).not.toContain(other.id);
  });

  it("downloads the dentist's own invoice PDF, and answers 404 for another dentist's", async () => {
    const mine = await issue(payment(drA().id, "in_pdf_a", "2026-11-01T08:00:00Z"));
    const own = await get(`/api/dentist/invoices/${mine.id}/pdf`, drA());
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("application/pdf");
    expect(own.headers["content-disposition"]).toContain(`facture-${mine.number}.pdf`);
    expect(own.headers["cache-control"]).toBe("private, no-store");
    expect(own.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

    const stranger = await get(`/api/dentist/invoices/${mine.id}/pdf`, drB());
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.message).toBe(INVOICE_MESSAGES.invoiceNotFound);
    expect((await get(`/api/dentist/invoices/${mine.id}/pdf`, who.Paula)).statusCode).toBe(403);
    expect((await get("/api/dentist/invoices/pas-un-id/pdf", drA())).statusCode).toBe(404);
  });

  it("has no route that changes an invoice", async () => {
    const mine = await issue(payment(drA().id, "in_no_change", "2026-11-02T08:00:00Z"));
    for (const method of ["PUT", "PATCH", "DELETE", "POST"] as const)
      for (const url of [`/api/dentist/invoices/${mine.id}`, `/api/admin/invoices/${mine.id}`]) {
        const response = await call(method, url, await asAdmin(), {});
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    const routes = ctx.app.printRoutes({ commonPrefix: false });
    expect(routes).not.toMatch(/invoices.*\((PUT|PATCH|DELETE|POST)/);
  });
});

describe("the team's view and the accountant's register", () => {
  it("lists a dentist's invoices and downloads any of them; refuses everyone else", async () => {
    const invoice = await issue(payment(drB().id, "in_admin", "2026-11-03T08:00:00Z"));
    const list = await get(`/api/admin/dentists/${drB().id}/invoices`, await asAdmin());
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((i: { id: string }) => i.id)).toContain(invoice.id);
    expect((await get(`/api/admin/dentists/${who.Paula?.id}/invoices`, await asAdmin())).statusCode).toBe(
      404,
    );
    expect((await get(`/api/admin/dentists/${drB().id}/invoices`, drB())).statusCode).toBe(403);
    const pdf = await get(`/api/admin/invoices/${invoice.id}/pdf`, await asAdmin());
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await get(`/api/admin/invoices/${invoice.id}/pdf`, drB())).statusCode).toBe(403);
  });

  it("exports the register as CSV: number, date, buyer, SIREN, HT, TVA, TTC, kind, original invoice", async () => {
    const invoice = await issue(payment(drA().id, "in_register", "2026-12-05T09:00:00Z"));
    const note = await ctx.app.db.transaction().execute((trx) =>
      issueCreditNote(
        trx,
        {
          invoiceId: invoice.id,
          reason: "Remboursement",
          amountHtCents: 8900,
          issuedAt: new Date("2026-12-06T09:00:00Z"),
        },
        { seller: ctx.app.config.invoiceSeller },
      ),
    );
    const response = await get(
      "/api/admin/invoices/register.csv?from=2026-12-01&to=2026-12-31",
      await asAdmin(),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toContain(
      "registre-factures-du-2026-12-01-au-2026-12-31.csv",
    );
    const lines = response.body
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(lines).toEqual([
      "Numéro;Date;Type;Acheteur;SIREN;Montant HT;TVA;Montant TTC;Facture d'origine",
      `${invoice.number};05/12/2026;Facture;Cabinet dentaire des Lilas;552100554;89,00;17,80;106,80;`,
      `${note.number};06/12/2026;Avoir;Cabinet dentaire des Lilas;552100554;-89,00;-17,80;-106,80;${invoice.number}`,
    ]);
    // The days are Paris days, both included: 1 December 00:30 in Paris is 30 November 23:30 UTC.
    const edge = await issue(payment(drA().id, "in_register_edge", "2026-11-30T23:30:00Z"));
    const december = await get(
      "/api/admin/invoices/register.csv?from=2026-12-01&to=2026-12-01",
      await asAdmin(),
    );
    expect(december.body).toContain(edge.number);
    const november = await get(
      "/api/admin/invoices/register.csv?from=2026-11-30&to=2026-11-30",
      await asAdmin(),
    );
    expect(november.body).not.toContain(edge.number);
    const wrong = await get(
      "/api/admin/invoices/register.csv?from=2026-12-31&to=2026-12-01",
      await asAdmin(),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ to: "La date de début doit précéder la date de fin." });
    expect((await get("/api/admin/invoices/register.csv", drA())).statusCode).toBe(403);
  });
});

describe("the dentist's data", () => {
  it("carries the billing profile and every invoice (with its PDF) in the data export", async () => {
    const invoice = await issue(payment(drA().id, "in_export", "2026-11-04T08:00:00Z"));
    const { data, entries } = await archiveOf(await get("/api/account/export", drA()));
    const exported = data as unknown as {
      billing_profile: unknown;
      invoices: { id: string; number: string; amount_ttc_cents: number; file: string | null }[];
    };
    expect(exported.billing_profile).toEqual({ ...PROFILE, siren: "552100554" });
    const line = exported.invoices.find((i) => i.id === invoice.id);
    expect(line).toMatchObject({ number: invoice.number, amount_ttc_cents: 10_680 });
    expect(line?.file).toBe(`fichiers/factures/facture-${invoice.number}.pdf`);
    expect(
      entries
        .get(line?.file ?? "")
        ?.subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    // Another dentist's invoices are not in it.
    const others = await ctx.app.db
      .selectFrom("invoices")
      .select("id")
      .where("dentist_id", "=", drB().id)
      .execute();
    for (const other of others) expect(JSON.stringify(exported.invoices)).not.toContain(other.id);
  });

  it("keeps the invoices, as issued, when the dentist erases the account", async () => {
    const invoice = await issue(payment(drB().id, "in_erasure", "2026-11-05T08:00:00Z"));
    const erased = await call("POST", "/api/account/delete", drB(), { password: "Sourire-Sain-2026" });
    expect(erased.statusCode, erased.body).toBe(200);

    const kept = await ctx.app.db
      .selectFrom("invoices")
      .selectAll()
      .where("id", "=", invoice.id)
      .executeTakeFirstOrThrow();
    expect({ ...kept, dentist_id: invoice.dentist_id }).toEqual(invoice);
    expect(kept.dentist_id).not.toBe(drB().id);
    const pseudonym = await ctx.app.db
      .selectFrom("profiles")
      .select(["erased_at", "email"])
      .where("id", "=", kept.dentist_id)
      .executeTakeFirstOrThrow();
    expect(pseudonym.erased_at).not.toBeNull();
    expect(pseudonym.email).not.toBe(drB().email);
    // The billing profile went with the account; the team still downloads the invoice.
    expect(
      await ctx.app.db
        .selectFrom("billing_profiles")
        .selectAll()
        .where("dentist_id", "=", drB().id)
        .execute(),
    ).toEqual([]);
    const pdf = await get(`/api/admin/invoices/${invoice.id}/pdf`, await asAdmin());
    expect(pdf.statusCode).toBe(200);
    const register = await get(
      "/api/admin/invoices/register.csv?from=2026-11-05&to=2026-11-05",
      await asAdmin(),
    );
    expect(register.body).toContain(invoice.number);
  });
});
