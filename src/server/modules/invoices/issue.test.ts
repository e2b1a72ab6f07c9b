import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { amountsOfTotal } from "../../../shared/domain/invoices";
import { appPerFile } from "../../testing/harness";
import { peoplePerFile, type Who } from "../../testing/people";
import { type IssueInvoiceInput, issueCreditNote, issueInvoice } from "./invoices.service";

/*
 * Issuing invoices (issue 35, ADR 045), on a real database (PGlite here; the same file runs on
 * PostgreSQL with TEST_DATABASE_URL, where the 50 issues run on separate connections at once).
 */

const ctx = appPerFile();
const who = peoplePerFile(ctx, { dentists: { drA: "Anne", drB: "Bruno" } });
const drA = () => (who.drA as Who).id;
const drB = () => (who.drB as Who).id;
const seller = () => ({ seller: ctx.app.config.invoiceSeller });

const payment = (dentistId: string, paymentRef: string): IssueInvoiceInput => ({
  dentistId,
  paymentRef,
  planLabel: "Abonnement Sourio Cabinet — mensuel",
  periodStart: "2026-11-01",
  periodEnd: "2026-11-30",
  amountHtCents: 8900,
  issuedAt: new Date("2026-11-01T08:00:00Z"),
});

const issue = (input: IssueInvoiceInput) =>
  ctx.app.db.transaction().execute((trx) => issueInvoice(trx, input, seller()));

describe("issuing an invoice", () => {
  it("gives 50 concurrent issues the numbers 1…50, with no gap and none twice", async () => {
    const invoices = await Promise.all(
      Array.from({ length: 50 }, (_, i) => issue(payment(i % 2 ? drA() : drB(), `pay_conc_${i}`))),
    );
    const sequences = invoices.map((i) => i.sequence).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(invoices.map((i) => i.number)).size).toBe(50);
    expect(invoices.find((i) => i.sequence === 7)?.number).toBe("F-000007");
    const counter = await ctx.app.db
      .selectFrom("invoice_counters")
      .select("last_number")
      .where("series", "=", "invoice")
      .executeTakeFirstOrThrow();
    expect(counter.last_number).toBe(50);
  });

  it("gives a number back when the issuing transaction rolls back: the next issue takes it", async () => {
    const before = await issue(payment(drA(), "pay_before_rollback"));
    await expect(
      ctx.app.db.transaction().execute(async (trx) => {
        await issueInvoice(trx, payment(drA(), "pay_rolled_back"), seller());
        throw new Error("the webhook failed after issuing");
      }),
    ).rejects.toThrow("the webhook failed");
    const after = await issue(payment(drA(), "pay_after_rollback"));
    expect(after.sequence).toBe(before.sequence + 1);
    expect(
      await ctx.app.db
        .selectFrom("invoices")
        .select("id")
        .where("payment_ref", "=", "pay_rolled_back")
        .execute(),
    ).toEqual([]);
  });

  it("issues one invoice per payment: the same payment again, even concurrently, answers the first", async () => {
    const [a, b, c] = await Promise.all([
      issue(payment(drA(), "pay_twice")),
      issue(payment(drA(), "pay_twice")),
      issue({ ...payment(drA(), "pay_twice"), amountHtCents: 1 }),
    ]);
    expect(b.id).toBe(a.id);
    expect(c.id).toBe(a.id);
    // Later, whatever else it is given, the same payment answers the invoice already issued.
    const later = await issue({ ...payment(drB(), "pay_twice"), amountHtCents: 2 });
    expect(later).toEqual(a);
    const rows = await ctx.app.db
      .selectFrom("invoices")
      .select("id")
      .where("payment_ref", "=", "pay_twice")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("computes the VAT and the total (worked example: 89,00 € HT → 17,80 € TVA, 106,80 € TTC)", async () => {
    const invoice = await issue(payment(drB(), "pay_amounts"));
    expect(invoice).toMatchObject({
      kind: "invoice",
      amount_ht_cents: 8900,
      vat_rate_bp: 2000,
      vat_cents: 1780,
      amount_ttc_cents: 10_680,
      period_start: "2026-11-01",
      period_end: "2026-11-30",
      label: "Abonnement Sourio Cabinet — mensuel",
    });
    expect(invoice.seller).toEqual(ctx.app.config.invoiceSeller);
  });

  it("copies the buyer from the billing profile, else from the practice known at verification", async () => {
    const before = await issue(payment(drA(), "pay_buyer_before"));
    expect(before.buyer).toMatchObject({ siren: null });
    await ctx.app.db
      .insertInto("billing_profiles")
      .values({
        dentist_id: drA(),
        practice_name: "Cabinet dentaire Anne",
        address: "12 rue des Lilas",
        postal_code: "69003",
        city: "Lyon",
        siren: "552100554",
      })
      .execute();
    const after = await issue(payment(drA(), "pay_buyer_after"));
    expect(after.buyer).toEqual({
      name: "Cabinet dentaire Anne",
      address: "12 rue des Lilas",
      postalCode: "69003",
      city: "Lyon",
      siren: "552100554",
    });
    // What was issued before keeps the buyer it was issued with.
    const again = await issue(payment(drA(), "pay_buyer_before"));
    expect(again.buyer).toMatchObject({ siren: null });
  });

  it("takes the HT and the VAT out of a total paid (worked examples: 106,80 € → 89,00 + 17,80; 89,00 € → 74,17 + 14,83)", async () => {
    const { amountHtCents: _, ...paidBy } = payment(drB(), "pay_total");
    expect(await issue({ ...paidBy, paidTtcCents: 10_680 })).toMatchObject({
      amount_ht_cents: 8900,
      vat_cents: 1780,
      amount_ttc_cents: 10_680,
    });
    expect(await issue({ ...paidBy, paymentRef: "pay_total_untaxed", paidTtcCents: 8900 })).toMatchObject({
      amount_ht_cents: 7417,
      vat_cents: 1483,
      amount_ttc_cents: 8900,
    });
    // A total no HT reaches at 20 % (3 cents: 2 + 0, then 3 + 1): the HT below, a cent short, said so.
    expect(amountsOfTotal(3)).toEqual({
      htCents: 2,
      vatRateBp: 2000,
      vatCents: 0,
      ttcCents: 2,
      exact: false,
    });
    await expect(
      issue({ ...paidBy, paymentRef: "pay_both", paidTtcCents: 8900, amountHtCents: 8900 }),
    ).rejects.toThrow("one of the two");
  });

  it("refuses a person who is not a dentist, and nonsense amounts or periods, without taking a number", async () => {
    const counter = () =>
      ctx.app.db
        .selectFrom("invoice_counters")
        .select("last_number")
        .where("series", "=", "invoice")
        .executeTakeFirstOrThrow();
    const before = await counter();
    await expect(issue(payment("00000000-0000-4000-8000-000000000000", "pay_nobody"))).rejects.toThrow(
      "no such dentist",
    );
    await expect(issue({ ...payment(drA(), "pay_zero"), amountHtCents: 0 })).rejects.toThrow();
    await expect(issue({ ...payment(drA(), "pay_half"), amountHtCents: 10.5 })).rejects.toThrow();
    await expect(issue({ ...payment(drA(), "pay_period"), periodEnd: "2026-10-01" })).rejects.toThrow();
    expect(await counter()).toEqual(before);
  });
});

describe("an issued invoice never changes", () => {
  it("refuses any update or deletion in the database itself", async () => {
    const invoice = await issue(payment(drB(), "pay_immutable"));
    await expect(
      ctx.app.db.updateTable("invoices").set({ label: "autre chose" }).where("id", "=", invoice.id).execute(),
    ).rejects.toThrow("never changes");
    await expect(
      sql`update invoices set amount_ht_cents = 1, amount_ttc_cents = 1 + vat_cents where id = ${invoice.id}`.execute(
        ctx.app.db,
      ),
    ).rejects.toThrow("never changes");
    // Moving it to another (living) dentist is a change too.
    await expect(
      ctx.app.db.updateTable("invoices").set({ dentist_id: drA() }).where("id", "=", invoice.id).execute(),
    ).rejects.toThrow("never changes");
    await expect(ctx.app.db.deleteFrom("invoices").where("id", "=", invoice.id).execute()).rejects.toThrow(
      "never deleted",
    );
    const row = await ctx.app.db
      .selectFrom("invoices")
      .selectAll()
      .where("id", "=", invoice.id)
      .executeTakeFirst();
    expect(row).toEqual(invoice);
  });
});

describe("a credit note (avoir)", () => {
  it("has its own number, refers to the invoice, and never credits more than the invoice", async () => {
    const invoice = await issue(payment(drB(), "pay_to_credit"));
    const credit = (amountHtCents: number, refundRef?: string) =>
      ctx.app.db.transaction().execute((trx) =>
        issueCreditNote(
          trx,
          {
            invoiceId: invoice.id,
            reason: "Remboursement partiel",
            amountHtCents,
            issuedAt: new Date("2026-11-10T10:00:00Z"),
            ...(refundRef ? { refundRef } : {}),
          },
          seller(),
        ),
      );
    const first = await credit(5000, "re_1");
    expect(first).toMatchObject({
      kind: "credit_note",
      refers_to: invoice.id,
      reason: "Remboursement partiel",
      amount_ht_cents: 5000,
      vat_cents: 1000,
      amount_ttc_cents: 6000,
      period_start: invoice.period_start,
      buyer: invoice.buyer,
      dentist_id: invoice.dentist_id,
    });
    expect(first.number).toMatch(/^AV-\d{6}$/);
    // The same refund again: the same credit note.
    expect((await credit(5000, "re_1")).id).toBe(first.id);
    // 39 € left to credit: 40 € is refused (409, in French), 39 € is not.
    await expect(credit(4000)).rejects.toMatchObject({ statusCode: 409 });
    const second = await credit(3900);
    expect(second.sequence).toBe(first.sequence + 1);
    await expect(credit(1)).rejects.toMatchObject({
      statusCode: 409,
      message: `L'avoir dépasse le montant restant de la facture ${invoice.number}.`,
    });
  });

  it("is issued only on an invoice, never on another credit note", async () => {
    const invoice = await issue(payment(drB(), "pay_credit_chain"));
    const note = await ctx.app.db
      .transaction()
      .execute((trx) =>
        issueCreditNote(trx, { invoiceId: invoice.id, reason: "Erreur", amountHtCents: 8900 }, seller()),
      );
    await expect(
      ctx.app.db
        .transaction()
        .execute((trx) =>
          issueCreditNote(trx, { invoiceId: note.id, reason: "x", amountHtCents: 1 }, seller()),
        ),
    ).rejects.toThrow("no such invoice");
  });
});
