import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_MESSAGE_BODY, ERASED_NAME, ERASURE_MESSAGES } from "../../../shared/schemas/account";
import { createWorld, type PersonName, type World } from "../../testing/world";
import { runRetention } from "../retention/retention.service";
import { ERASURE_ACTION } from "./erasure.service";

/**
 * Issue 14, erasure (RGPD art. 17): after 'Supprimer mon compte', nothing in the database or the
 * storage names the person (their id, e-mail or files), except log rows re-attached to a
 * pseudonym; what others keep (the chosen dentist's accepted offer, the other side of a
 * conversation) stays, without the person.
 */

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world?.ctx.close());

const db = () => world.ctx.app.db;
const post = (who: PersonName | "anonymous", url: string, payload?: unknown) =>
  world.call(who, { method: "POST", url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** Every table row (as text) that contains one of the needles: "table: needle". */
async function scanDatabase(needles: string[]): Promise<string[]> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`.execute(
    db(),
  );
  const hits: string[] = [];
  for (const { name } of tables.rows)
    for (const needle of needles) {
      const found = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.id(name)} x where x::text ilike ${`%${needle}%`}`.execute(db());
      if (Number(found.rows[0]?.n) > 0) hits.push(`${name}: ${needle}`);
    }
  return hits;
}

/** The storage keys of everything the person uploaded. */
async function filesOf(id: string): Promise<string[]> {
  const [documents, attachments, support, profile] = await Promise.all([
    db().selectFrom("documents").select("storage_key as key").where("owner_id", "=", id).execute(),
    db()
      .selectFrom("message_attachments as a")
      .innerJoin("messages as m", "m.id", "a.message_id")
      .select("a.storage_key as key")
      .where("m.sender_id", "=", id)
      .execute(),
    db().selectFrom("support_messages").select("image_key as key").where("patient_id", "=", id).execute(),
    db().selectFrom("profiles").select("avatar_url as key").where("id", "=", id).execute(),
  ]);
  return [...documents, ...attachments, ...support, ...profile]
    .map((row) => row.key?.replace(/^\/api\//, ""))
    .filter((key): key is string => Boolean(key));
}

async function loginFails(who: PersonName) {
  const { email, password } = world.people[who];
  const login = await post("anonymous", "/api/account/login", { email, password, remember_me: false });
  expect(login.statusCode).toBe(401);
  expect(login.json().error.code).toBe("INVALID_CREDENTIALS");
}

describe("erasing an account", () => {
  it("asks for the password, refuses while a confirmed appointment is to come, and never for an admin", async () => {
    expect((await post("anonymous", "/api/account/delete", { password: "x" })).statusCode).toBe(401);

    const wrong = await post("patientA", "/api/account/delete", { password: "pas-le-bon" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ password: ERASURE_MESSAGES.passwordWrong });

    for (const who of ["patientA", "chosen"] as const) {
      const refused = await post(who, "/api/account/delete", { password: world.people[who].password });
      expect(refused.statusCode, who).toBe(409);
      expect(refused.json().error.message).toBe(ERASURE_MESSAGES.upcomingAppointments(who === "chosen"));
    }
    const admin = await post("admin", "/api/account/delete", { password: world.people.admin.password });
    expect(admin.statusCode).toBe(403);
    const adminByAdmin = await post("admin", `/api/admin/users/${world.people.admin.id}/erase`);
    expect(adminByAdmin.statusCode).toBe(403);
    const byPatient = await post("patientB", `/api/admin/users/${world.people.patientA.id}/erase`);
    expect(byPatient.statusCode).toBe(403);

    // Nothing was erased.
    expect(await scanDatabase([world.people.patientA.email])).not.toEqual([]);
  });

  it("lets an admin erase a dentist on request: the patient keeps the conversation, without him", async () => {
    const dentist = world.people.notChosen;
    const files = await filesOf(dentist.id);
    const stats = async () => (await world.call("admin", { url: "/api/admin/stats" })).json();
    const before = await stats();
    const erased = await post("admin", `/api/admin/users/${dentist.id}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().message).toBe(ERASURE_MESSAGES.erasedByAdmin);
    // The team's counts leave the pseudonym out, as its lists do.
    expect(await stats()).toMatchObject({ dentists: before.dentists - 1, patients: before.patients });

    expect(await scanDatabase([dentist.id, dentist.email])).toEqual([]);
    const stored = world.ctx.storedKeys();
    expect(stored.filter((key) => files.includes(key) || key.includes(dentist.id))).toEqual([]);
    await loginFails("notChosen");

    // Patient A still has the conversation of the open request, with 'Compte supprimé'.
    const conversation = world.conversations.otherOpenA;
    const messages = await world.call("patientA", { url: `/api/conversations/${conversation}/messages` });
    expect(messages.statusCode).toBe(200);
    const items = messages.json().items as {
      sender_id: string | null;
      body: string;
      attachments: unknown[];
    }[];
    const fromPatient = items.filter((m) => m.sender_id === world.people.patientA.id);
    const fromErased = items.filter((m) => m.sender_id !== world.people.patientA.id);
    expect(fromPatient.length).toBeGreaterThan(0);
    expect(fromErased.length).toBeGreaterThan(0);
    for (const m of fromErased) {
      expect(m.body).toBe(ERASED_MESSAGE_BODY);
      expect(m.attachments).toEqual([]);
    }
    const list = await world.call("patientA", { url: "/api/conversations" });
    const summary = (list.json().items as { id: string; other: { full_name: string } }[]).find(
      (c) => c.id === conversation,
    );
    expect(summary?.other.full_name).toBe(ERASED_NAME);

    const audit = await db()
      .selectFrom("audit_log")
      .select(["actor_id", "details"])
      .where("action", "=", ERASURE_ACTION)
      .execute();
    expect(audit).toEqual([{ actor_id: world.people.admin.id, details: { by: "admin", role: "dentist" } }]);
  });

  it("erases a patient: requests, documents, files, messages and support go; the accepted offer stays for the dentist", async () => {
    const patient = world.people.patientA;
    const b = world.people.patientB;
    const cancelled = await world.call("patientA", {
      method: "POST",
      url: `/api/appointments/${world.appointmentA}/cancel`,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // The team read A's help thread and image: logged in the audit trail and A's access history.
    const thread = await world.call("admin", { url: `/api/admin/support/threads/${patient.id}/messages` });
    expect(thread.statusCode).toBe(200);
    const image = await world.call("admin", { url: `/api/support/messages/${world.support.imageA}/image` });
    expect(image.statusCode).toBe(200);
    expect(await scanDatabase([patient.id])).toEqual(expect.arrayContaining([`audit_log: ${patient.id}`]));
    // Her mutuelle and her devis line by line (issue 15) go too.
    const cover = await world.call("patientA", {
      method: "PUT",
      url: "/api/patient/cover",
      payload: { percent_of_br: 250, ro_included: true },
    });
    expect(cover.statusCode, cover.body).toBe(200);
    const devis = await world.call("patientA", {
      method: "PUT",
      url: `/api/patient/requests/${world.requests.openA}/quote`,
      payload: {
        lines: [{ code: "HBLD634", act: "Couronne céramo-métallique", tooth: 11, fee_cents: 54_000 }],
      },
    });
    expect(devis.statusCode, devis.body).toBe(200);
    // Her devis on the accepted request too, which its dentist keeps: its lines do not stay with it.
    await db()
      .insertInto("request_quote_lines")
      .values({
        request_id: world.requests.finishedA,
        position: 0,
        code: "HBLD634",
        act: "Couronne céramo-métallique",
        tooth: 11,
        fee_cents: 54_000,
        basket: "maitrise",
        br_cents: 12_000,
      })
      .execute();
    await db()
      .updateTable("requests")
      .set({ quote_date: "2026-11-02" })
      .where("id", "=", world.requests.finishedA)
      .execute();
    const files = await filesOf(patient.id);
    expect(files.length).toBeGreaterThanOrEqual(5);
    // B's files, and the chosen dentist's avatar (her attachments on A's requests go with them).
    const othersFiles = [
      ...(await filesOf(b.id)),
      ...(await filesOf(world.people.chosen.id)).filter((key) => key.startsWith("avatars/")),
    ];
    expect(othersFiles.length).toBeGreaterThanOrEqual(3);

    const erased = await post("patientA", "/api/account/delete", { password: patient.password });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().message).toBe(ERASURE_MESSAGES.erased);
    // The browser forgets the session, and that it was the account's trusted device: the removal
    // names the path the cookie was set with, else the browser keeps it.
    const cookies = erased.cookies as { name: string; value: string; path?: string; maxAge?: number }[];
    expect(cookies.some((c) => c.name.endsWith("session_token") && c.value === "")).toBe(true);
    expect(cookies.find((c) => c.name === "sourio.trusted_device")).toMatchObject({
      value: "",
      path: "/api/account",
      maxAge: 0,
    });

    expect(
      await scanDatabase([patient.id, patient.email, ...(patient.phone ? [patient.phone] : [])]),
    ).toEqual([]);
    expect(await db().selectFrom("patient_covers").select("patient_id").execute()).toEqual([]);
    expect(
      await db()
        .selectFrom("request_quote_lines")
        .select("id")
        .where("request_id", "in", [world.requests.openA, world.requests.finishedA])
        .execute(),
    ).toEqual([]);
    const stored = world.ctx.storedKeys();
    expect(stored.filter((key) => files.includes(key) || key.includes(patient.id))).toEqual([]);
    await loginFails("patientA");
    const me = await world.call("patientA", { url: "/api/me" });
    expect(me.statusCode).toBe(401);

    // The chosen dentist keeps the accepted request (amount, no description, no documents).
    const kept = await world.call("chosen", { url: `/api/dentist/requests/${world.requests.finishedA}` });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ patient_name: ERASED_NAME, description: "" });
    expect(kept.json().documents).toEqual([]);
    expect(JSON.stringify(kept.json())).not.toContain("HBLD634");
    expect(
      (
        await db()
          .selectFrom("requests")
          .select("quote_date")
          .where("id", "=", world.requests.finishedA)
          .executeTakeFirstOrThrow()
      ).quote_date,
    ).toBeNull();
    // A's open request is gone for every dentist.
    const open = await world.call("chosen", { url: `/api/dentist/requests/${world.requests.openA}` });
    expect(open.statusCode).toBe(404);

    // Patient B and the others are intact: B's request and files, the chosen dentist's files.
    const bRequest = await world.call("patientB", { url: `/api/patient/requests/${world.requests.openB}` });
    expect(bRequest.statusCode).toBe(200);
    for (const key of othersFiles) expect(stored, key).toContain(key);
  });

  it("erases, in the retention run, an account warned and still inactive at the end of the period", async () => {
    const now = new Date("2030-01-01T03:00:00Z");
    const due = await world.fresh.patient();
    const recent = await world.fresh.patient();
    // Both last seen in June 2026, then warned of the erasure.
    const warned = (id: string, at: string) =>
      db()
        .updateTable("profiles")
        .set({ last_seen_at: new Date("2026-06-01T00:00:00Z"), inactivity_warned_at: new Date(at) })
        .where("id", "=", id)
        .execute();
    await warned(due.id, "2029-11-01T00:00:00Z");
    // Warned only ten days ago: the notice period is not over.
    await warned(recent.id, "2029-12-22T00:00:00Z");
    const app = world.ctx.app;
    const deps = { db: app.db, storage: app.storage, mailer: app.mailer, config: app.config, log: app.log };
    const [first, second] = await Promise.all([runRetention(deps, now), runRetention(deps, now)]);
    expect([first.ran, second.ran].sort()).toEqual([false, true]);
    expect((first.ran ? first : second).erasedAccounts).toBe(1);
    expect(await scanDatabase([due.id, due.email])).toEqual([]);
    expect(await scanDatabase([recent.id])).not.toEqual([]);
  });
});
