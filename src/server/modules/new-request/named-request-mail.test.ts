import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import * as m047 from "../../db/migrations/047_named_request_mail";
import { appPerFile, newRequestId } from "../../testing/harness";
import { api, dentist, givePractice, patient, signInAdmin, verifyBody, type Who } from "../../testing/people";
import { NAMED_REQUEST_MAIL_DELAY_MS, sendNamedRequestEmails } from "./new-request.service";

/*
 * A request addressed to one dentist by name is e-mailed to him (ADR 074): after 15 minutes, once,
 * only while it is open and he has not opened it, only once he may read it (verified, taking new
 * requests), and never what it is about.
 */

const ctx = appPerFile();
const { get, post } = api(ctx);
const MINUTE = 60_000;

/** The mail job at `minutes` after `from`. */
const runAt = (from: Date, minutes: number) =>
  sendNamedRequestEmails({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.config,
    now: new Date(from.getTime() + minutes * MINUTE),
    log: { error() {} },
  });

/** The e-mails about requests addressed by name to this person. */
const mailsTo = (who: Who) =>
  ctx.outbox().filter((m) => m.includes(`To: ${who.email}`) && m.includes("choisi de vous adresser"));

async function namedRequest(by: Who, to: Who, fields: Record<string, string> = {}) {
  return newRequestId(ctx.app, by.cookie, undefined, { recipient: to.id, ...fields });
}

describe("requests addressed to a dentist by name (ADR 074)", () => {
  it("e-mails him once, after 15 minutes, how many and where to read them, never what they are about", async () => {
    const paula = await patient(ctx.app, { first_name: "Paula" });
    const quentin = await patient(ctx.app, { first_name: "Quentin" });
    const anne = await dentist(ctx.app, { first_name: "Anne" });
    const bruno = await dentist(ctx.app, { first_name: "Bruno" });
    const sent = new Date();
    const first = await namedRequest(paula, anne, { description: "Couronne sur la 36, douleur au froid" });
    // Sent to all: nobody is e-mailed about it.
    await newRequestId(ctx.app, quentin.cookie);

    expect(NAMED_REQUEST_MAIL_DELAY_MS).toBe(15 * MINUTE);
    expect(await runAt(sent, 14)).toBe(0);
    expect(mailsTo(anne)).toHaveLength(0);
    expect(await runAt(sent, 16)).toBe(1);
    const [mail] = mailsTo(anne);
    expect(mail).toContain("Un patient a choisi de vous adresser sa demande de devis");
    expect(mail).toContain("Bonjour Anne,");
    expect(mail).toContain(`${ctx.config.publicUrl}/dentist/quote-request/${first}`);
    // Its words (not a uuid's digits: "la 36"), its treatment, its patient.
    for (const secret of ["Paula", "Couronne", "couronne", "la 36", "douleur", paula.email])
      expect(mail).not.toContain(secret);
    for (const other of [bruno, paula, quentin]) expect(mailsTo(other)).toHaveLength(0);
    // Settled: never again.
    expect(await runAt(sent, 90)).toBe(0);
    expect(mailsTo(anne)).toHaveLength(1);

    // Two within one run: one e-mail, to his list.
    const later = new Date(sent.getTime() + 100 * MINUTE);
    await namedRequest(paula, bruno);
    await namedRequest(quentin, bruno);
    expect(await runAt(later, 16)).toBe(1);
    expect(mailsTo(bruno)).toHaveLength(1);
    expect(mailsTo(bruno)[0]).toContain("2 patients ont choisi de vous adresser leur demande de devis");
    expect(mailsTo(bruno)[0]).toContain(`${ctx.config.publicUrl}/dentist/quote-requests\n`);
  });

  it("tells nobody about a request he opened in time or the patient cancelled, and settles both", async () => {
    const lina = await patient(ctx.app, { first_name: "Lina" });
    const carl = await dentist(ctx.app, { first_name: "Carl" });
    const sent = new Date();
    const seen = await namedRequest(lina, carl);
    expect((await get(`/api/dentist/requests/${seen}`, carl)).statusCode).toBe(200);
    const cancelled = await namedRequest(lina, carl);
    expect((await post(`/api/patient/requests/${cancelled}/cancel`, {}, lina)).statusCode).toBe(200);
    expect(await runAt(sent, 16)).toBe(0);
    expect(mailsTo(carl)).toHaveLength(0);
    const rows = await ctx.app.db
      .selectFrom("requests")
      .select(["id", "recipient_mailed_at"])
      .where("id", "in", [seen, cancelled])
      .execute();
    for (const row of rows) expect(row.recipient_mailed_at, row.id).not.toBeNull();
  });

  it("waits while he may not read it — verification withdrawn (D6), access limited (issue 35) — and tells him once he may", async () => {
    const nina = await patient(ctx.app, { first_name: "Nina" });
    const marc = await dentist(ctx.app, { first_name: "Marc" });
    await givePractice(ctx.app, marc.id);
    const sent = new Date();
    const id = await namedRequest(nina, marc);
    const admin = await signInAdmin(ctx.app);
    const verification = async (decision: string) =>
      post(
        `/api/admin/dentists/${marc.id}/verification`,
        decision === "verify"
          ? await verifyBody(ctx.app, marc.id)
          : { decision, reason: "Numéro RPPS inactif au répertoire" },
        admin,
      );
    expect((await verification("unverify")).json()).toMatchObject({ is_verified: false });
    expect(await runAt(sent, 16)).toBe(0);
    expect((await verification("verify")).json()).toMatchObject({ is_verified: true });
    // Verified again, but his trial has ended without a subscription: still nothing.
    const limit = (from: Date | null) =>
      ctx.app.db
        .updateTable("subscriptions")
        .set({ limited_from: from })
        .where("dentist_id", "=", marc.id)
        .execute();
    await limit(new Date(sent.getTime() - MINUTE));
    expect(await runAt(sent, 30)).toBe(0);
    expect(mailsTo(marc)).toHaveLength(0);
    await limit(null);
    expect(await runAt(sent, 45)).toBe(1);
    expect(mailsTo(marc)[0]).toContain(`/dentist/quote-request/${id}`);
  });

  it("e-mails once when two instances run the job at the same moment", async () => {
    const olga = await patient(ctx.app, { first_name: "Olga" });
    const yves = await dentist(ctx.app, { first_name: "Yves" });
    const sent = new Date();
    await namedRequest(olga, yves);
    const counts = await Promise.all([runAt(sent, 16), runAt(sent, 16)]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(mailsTo(yves)).toHaveLength(1);
  });
});

describe("migration 047", () => {
  it("counts the named requests sent before it as settled, so that nobody is e-mailed about them", async () => {
    const rita = await patient(ctx.app, { first_name: "Rita" });
    const zoe = await dentist(ctx.app, { first_name: "Zoé" });
    const sent = new Date();
    const id = await namedRequest(rita, zoe);
    // The column dropped and added again, as on a database of the version before (migrations take
    // an untyped Kysely).
    const untyped = ctx.app.db as unknown as Kysely<unknown>;
    await m047.down(untyped);
    await m047.up(untyped);
    const row = await ctx.app.db
      .selectFrom("requests")
      .select(["created_at", "recipient_mailed_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.recipient_mailed_at).toEqual(row.created_at);
    expect(await runAt(sent, 16)).toBe(0);
    expect(mailsTo(zoe)).toHaveLength(0);
  });
});
