import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import * as m050 from "../../db/migrations/050_recipient_away_mail";
import { appPerFile, newRequestId } from "../../testing/harness";
import { api, dentist, givePractice, patient, signInAdmin, verifyBody, type Who } from "../../testing/people";
import { sendRecipientAwayEmails } from "./new-request.service";

/*
 * A patient whose chosen dentist stops receiving requests is e-mailed (ADR 080): once per absence,
 * only while the request is open and still addressed to him, never what it is about.
 */

const ctx = appPerFile();
const { post } = api(ctx);
const MINUTE = 60_000;

/** The mail job at `minutes` from now. */
const runAt = (minutes = 0) =>
  sendRecipientAwayEmails({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.config,
    now: new Date(Date.now() + minutes * MINUTE),
    log: { error() {} },
  });

const mailsTo = (who: Who) =>
  ctx
    .outbox()
    .filter((m) => m.includes(`To: ${who.email}`) && m.includes("ne reçoit plus de nouvelles demandes"));

async function namedRequest(by: Who, to: Who, fields: Record<string, string> = {}) {
  return newRequestId(ctx.app, by.cookie, undefined, { recipient: to.id, ...fields });
}

/** A dentist verified by the team (his trial starts), and his verification's and access's switches. */
async function verifiedDentist(firstName: string) {
  const who = await dentist(ctx.app, { first_name: firstName });
  await givePractice(ctx.app, who.id);
  const admin = await signInAdmin(ctx.app);
  const verification = async (decision: "verify" | "unverify") =>
    post(
      `/api/admin/dentists/${who.id}/verification`,
      decision === "verify"
        ? await verifyBody(ctx.app, who.id)
        : { decision, reason: "Numéro RPPS inactif au répertoire" },
      admin,
    );
  const limit = (from: Date | null) =>
    ctx.app.db
      .updateTable("subscriptions")
      .set({ limited_from: from })
      .where("dentist_id", "=", who.id)
      .execute();
  return { who, verification, limit };
}

describe("a patient whose chosen dentist stops receiving requests (ADR 080)", () => {
  it("is told once, with the way to send it to all, never what the request is about; told again after a return and a new absence", async () => {
    const paula = await patient(ctx.app, { first_name: "Paula" });
    const anne = await dentist(ctx.app, { first_name: "Anne" });
    const { who: marc, verification, limit } = await verifiedDentist("Marc");
    const marcName = (
      await ctx.app.db
        .selectFrom("profiles")
        .select("full_name")
        .where("id", "=", marc.id)
        .executeTakeFirstOrThrow()
    ).full_name;
    const id = await namedRequest(paula, marc, { description: "Couronne sur la 36, douleur au froid" });
    // Sent to another dentist who receives requests: nothing to tell.
    await namedRequest(paula, anne);
    expect(await runAt()).toBe(0);

    expect((await verification("unverify")).json()).toMatchObject({ is_verified: false });
    expect(await runAt()).toBe(1);
    const [mail] = mailsTo(paula);
    expect(mail).toContain(`Le Dr ${marcName}, à qui vous avez adressé votre demande de devis`);
    expect(mail).toContain("Bonjour Paula,");
    expect(mail).toContain("envoyer votre demande à tous les dentistes vérifiés");
    expect(mail).toContain(`${ctx.config.publicUrl}/patient/request/${id}`);
    for (const secret of ["Couronne", "couronne", "la 36", "douleur", marc.email])
      expect(mail).not.toContain(secret);
    // Told: not again while he stays away.
    expect(await runAt(5)).toBe(0);
    expect(mailsTo(paula)).toHaveLength(1);

    // Verified again: nothing to tell, and the mark goes; his trial then lapses: told again.
    expect((await verification("verify")).json()).toMatchObject({ is_verified: true });
    expect(await runAt(10)).toBe(0);
    const mark = async () =>
      (
        await ctx.app.db
          .selectFrom("requests")
          .select("recipient_away_mailed_at")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).recipient_away_mailed_at;
    expect(await mark()).toBeNull();
    await limit(new Date(Date.now() - MINUTE));
    expect(await runAt(20)).toBe(1);
    expect(mailsTo(paula)).toHaveLength(2);
    expect(await mark()).not.toBeNull();
    await limit(null);
  });

  it("tells nobody about a request cancelled, or sent to all since, and one e-mail for two requests to one dentist", async () => {
    const lina = await patient(ctx.app, { first_name: "Lina" });
    const nina = await patient(ctx.app, { first_name: "Nina" });
    const { who: carl, verification } = await verifiedDentist("Carl");
    const cancelled = await namedRequest(lina, carl);
    expect((await post(`/api/patient/requests/${cancelled}/cancel`, {}, lina)).statusCode).toBe(200);
    const opened = await namedRequest(lina, carl);
    expect(
      (await post(`/api/patient/requests/${opened}/open-to-all`, { consent: true }, lina)).statusCode,
    ).toBe(200);
    await namedRequest(nina, carl);
    await namedRequest(nina, carl);
    expect((await verification("unverify")).statusCode).toBe(200);
    expect(await runAt()).toBe(1);
    expect(mailsTo(lina)).toHaveLength(0);
    expect(mailsTo(nina)).toHaveLength(1);
    expect(mailsTo(nina)[0]).toContain("à qui vous avez adressé 2 demandes de devis");
    expect(mailsTo(nina)[0]).toContain(`${ctx.config.publicUrl}/patient/requests\n`);
  });

  it("e-mails once when two instances run the job at the same moment", async () => {
    const olga = await patient(ctx.app, { first_name: "Olga" });
    const { who: yves, verification } = await verifiedDentist("Yves");
    await namedRequest(olga, yves);
    expect((await verification("unverify")).statusCode).toBe(200);
    const counts = await Promise.all([runAt(), runAt()]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(mailsTo(olga)).toHaveLength(1);
  });
});

describe("migration 050", () => {
  it("counts the named requests sent before it as told, so that nobody is e-mailed about an earlier absence", async () => {
    const rita = await patient(ctx.app, { first_name: "Rita" });
    const { who: zoe, verification } = await verifiedDentist("Zoé");
    const id = await namedRequest(rita, zoe);
    expect((await verification("unverify")).statusCode).toBe(200);
    const untyped = ctx.app.db as unknown as Kysely<unknown>;
    await m050.down(untyped);
    await m050.up(untyped);
    const row = await ctx.app.db
      .selectFrom("requests")
      .select(["created_at", "recipient_away_mailed_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.recipient_away_mailed_at).toEqual(row.created_at);
    expect(await runAt()).toBe(0);
    expect(mailsTo(rita)).toHaveLength(0);
  });
});
