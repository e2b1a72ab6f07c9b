import { describe, expect, it } from "vitest";
import { startTrial } from "../../../shared/domain/subscription";
import { columnsOfState } from "../../access/subscription";
import { runMailJobs } from "../../jobs";
import { appPerFile, newRequestId } from "../../testing/harness";
import { api, dentist, patient, type Who } from "../../testing/people";
import { MORNING_MAIL_JOB, sendNewRequestsMorningEmails } from "./new-request.service";

/*
 * The dentists' morning e-mail of new requests (ADR 086): once a day from 8:00 Paris time, to each
 * dentist who receives requests and has not stopped it, how many requests sent to all dentists since
 * the previous morning he has not opened; nothing about what they are.
 */

// A movable clock: Monday 16 November 2026 (Paris is UTC+1), 11:00 in Paris to begin with.
let now = new Date("2026-11-16T10:00:00Z");
const at = (iso: string) => {
  now = new Date(iso);
};
const ctx = appPerFile({ clock: () => now });
const { get, post, call } = api(ctx);

const run = () =>
  sendNewRequestsMorningEmails({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.config,
    now,
    log: { error() {} },
  });

/** The morning e-mails to this person. */
const mailsTo = (who: Who) =>
  ctx.outbox().filter((m) => m.includes(`To: ${who.email}`) && m.includes("tous les dentistes vérifiés"));

describe("the dentists' morning e-mail of new requests (ADR 086)", () => {
  it("tells each dentist once a day from 8:00 how many requests sent to all he has not opened, never what they are", async () => {
    const paula = await patient(ctx.app, { first_name: "Paula" });
    const quentin = await patient(ctx.app, { first_name: "Quentin" });
    const anne = await dentist(ctx.app, { first_name: "Anne" });
    const bruno = await dentist(ctx.app, { first_name: "Bruno" });
    const carl = await dentist(ctx.app, { first_name: "Carl" });
    const dora = await dentist(ctx.app, { first_name: "Dora" }, false);
    const eve = await dentist(ctx.app, { first_name: "Eve" });

    // Sunday: more than 24 hours before the first morning run, not counted by it.
    at("2026-11-15T11:00:00Z");
    await newRequestId(ctx.app, quentin.cookie);
    // Monday, 11:00 in Paris.
    at("2026-11-16T10:00:00Z");
    const opened = await newRequestId(ctx.app, paula.cookie, undefined, {
      description: "Couronne sur la 36, douleur au froid",
    });
    await newRequestId(ctx.app, quentin.cookie);
    // Addressed to Anne by name: told by its own e-mail (ADR 074), never counted here.
    await newRequestId(ctx.app, paula.cookie, undefined, { recipient: anne.id });
    const cancelled = await newRequestId(ctx.app, quentin.cookie);
    expect((await post(`/api/patient/requests/${cancelled}/cancel`, {}, quentin)).statusCode).toBe(200);
    // Bruno opened one; Carl stopped the e-mail; Dora is not verified; Eve's trial ended unpaid.
    expect((await get(`/api/dentist/requests/${opened}`, bruno)).statusCode).toBe(200);
    const stop = await call("PATCH", "/api/me/email-preferences", carl, { new_requests: false });
    expect(stop.statusCode, stop.body).toBe(200);
    await ctx.app.db
      .insertInto("subscriptions")
      .values({ dentist_id: eve.id, ...columnsOfState(startTrial(new Date("2026-09-01T08:00:00Z")), now) })
      .execute();

    // Tuesday 7:59 in Paris: not yet, and the day is not claimed.
    at("2026-11-17T06:59:00Z");
    expect(await run()).toBe(0);
    expect(
      await ctx.app.db.selectFrom("job_runs").select("job").where("job", "=", MORNING_MAIL_JOB).execute(),
    ).toEqual([]);
    // 8:00 in Paris.
    at("2026-11-17T07:00:00Z");
    expect(await run()).toBe(2);
    expect(mailsTo(anne)).toHaveLength(1);
    const [mail] = mailsTo(anne);
    expect(mail).toContain("Sourio_—_2_nouvelles_demandes_de");
    expect(mail).toContain("Bonjour Anne,");
    expect(mail).toContain(
      "Depuis hier, des patients ont envoyé 2 demandes de devis à tous les dentistes vérifiés",
    );
    expect(mail).toContain(`${ctx.config.publicUrl}/dentist/quote-requests?status=pending`);
    expect(mail).toContain(`${ctx.config.publicUrl}/dentist/profile#notifications`);
    for (const secret of ["Paula", "Quentin", "Couronne", "couronne", "la 36", "douleur", paula.email])
      expect(mail).not.toContain(secret);
    expect(mailsTo(bruno)).toHaveLength(1);
    expect(mailsTo(bruno)[0]).toContain(
      "un patient a envoyé une demande de devis à tous les dentistes vérifiés",
    );
    for (const untold of [carl, dora, eve, paula, quentin]) expect(mailsTo(untold)).toHaveLength(0);

    // Later the same day: nothing more.
    at("2026-11-17T15:00:00Z");
    await newRequestId(ctx.app, paula.cookie);
    expect(await run()).toBe(0);

    // Wednesday morning, two instances at once: one e-mail each, for the request sent since the
    // previous morning only.
    at("2026-11-18T07:01:00Z");
    expect((await Promise.all([run(), run()])).sort()).toEqual([0, 2]);
    expect(mailsTo(anne)).toHaveLength(2);
    expect(mailsTo(anne)[1]).toContain("un patient a envoyé une demande de devis");
    expect(mailsTo(bruno)).toHaveLength(2);

    // Wednesday noon, one more; Anne opens it before Thursday morning, Bruno does not.
    at("2026-11-18T11:00:00Z");
    const wednesday = await newRequestId(ctx.app, quentin.cookie);
    expect((await get(`/api/dentist/requests/${wednesday}`, anne)).statusCode).toBe(200);
    at("2026-11-19T07:00:00Z");
    // The server's mail job (jobs.ts) runs it.
    expect(await runMailJobs(ctx.app)).toBe(true);
    expect(mailsTo(anne)).toHaveLength(2);
    expect(mailsTo(bruno)).toHaveLength(3);
    expect(mailsTo(bruno)[2]).toContain("un patient a envoyé une demande de devis");

    // The service stopped from Friday to Sunday: Sunday's e-mail counts the last 24 hours only, as
    // it says « depuis hier » (Friday's request is in Bruno's list, not in the e-mail).
    at("2026-11-20T09:00:00Z");
    await newRequestId(ctx.app, quentin.cookie);
    at("2026-11-21T12:00:00Z");
    await newRequestId(ctx.app, quentin.cookie);
    at("2026-11-22T08:00:00Z");
    expect(await run()).toBe(2);
    expect(mailsTo(anne)[2]).toContain("Depuis hier, un patient a envoyé une demande de devis");
  });

  it("does not count a request the dentist set aside without opening it (ADR 091)", async () => {
    const rose = await patient(ctx.app, { first_name: "Rose" });
    const fanny = await dentist(ctx.app, { first_name: "Fanny" });
    at("2026-11-24T10:00:00Z");
    const aside = await newRequestId(ctx.app, rose.cookie);
    await newRequestId(ctx.app, rose.cookie);
    expect((await post(`/api/dentist/requests/${aside}/set-aside`, {}, fanny)).statusCode).toBe(200);
    at("2026-11-25T07:00:00Z");
    await run();
    expect(mailsTo(fanny)).toHaveLength(1);
    expect(mailsTo(fanny)[0]).toContain(
      "un patient a envoyé une demande de devis à tous les dentistes vérifiés",
    );
  });

  it("says how many come from patients within 25 km of his practice, as the list's filter counts them; nothing without a practice point", async () => {
    const [near, farther, lyon, nowhere] = await Promise.all(
      ["Inès", "Jules", "Karim", "Léna"].map((first_name) => patient(ctx.app, { first_name })),
    );
    // Boulogne-Billancourt and Versailles are within 25 km of Paris 8e (the list's own test, ADR 094),
    // Lyon is not; Léna gave no postal code.
    const codes: [Who | undefined, string][] = [
      [near, "92100"],
      [farther, "78000"],
      [lyon, "69001"],
    ];
    for (const [who, postal_code] of codes)
      await ctx.app.db
        .updateTable("profiles")
        .set({ postal_code })
        .where("id", "=", who?.id ?? "")
        .execute();
    const paris = await dentist(ctx.app, { first_name: "Gaspard" });
    const lyonnais = await dentist(ctx.app, { first_name: "Hugo" });
    const unplaced = await dentist(ctx.app, { first_name: "Iris" });
    const practices: [Who, string | null][] = [
      [paris, "75008"],
      [lyonnais, "69002"],
      [unplaced, null],
    ];
    for (const [who, practice_postcode] of practices)
      await ctx.app.db.updateTable("profiles").set({ practice_postcode }).where("id", "=", who.id).execute();

    at("2026-12-01T10:00:00Z");
    for (const who of [near, farther, lyon, nowhere]) await newRequestId(ctx.app, who?.cookie ?? "");
    at("2026-12-02T07:00:00Z");
    await run();
    const [toParis] = mailsTo(paris);
    expect(toParis).toContain("des patients ont envoyé 4 demandes de devis");
    expect(toParis).toContain("2 d'entre elles viennent de patients à 25 km ou moins de votre cabinet.");
    const [toLyon] = mailsTo(lyonnais);
    expect(toLyon).toContain("L'une d'elles vient d'un patient à 25 km ou moins de votre cabinet.");
    // No practice postcode: no distance, nothing said of it.
    const [toIris] = mailsTo(unplaced);
    expect(toIris).toContain("des patients ont envoyé 4 demandes de devis");
    expect(toIris).not.toContain("km");
    // Never the communes, nor the postal codes.
    for (const mail of [toParis, toLyon, toIris]) {
      for (const word of ["Boulogne", "Versailles", "Lyon", "92100", "78000", "69001"])
        expect(mail).not.toContain(word);
    }
  });
});
