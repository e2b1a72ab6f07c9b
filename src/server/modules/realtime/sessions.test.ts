import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SESSION_CHANGED } from "../../../shared/realtime";
import { createTestContext, newRequestId, signUpPatient, type TestContext } from "../../testing/harness";
import { dentist } from "../../testing/people";
import { listenLocally, openSocket } from "../../testing/sockets";

/*
 * A live channel is opened under a session and a person's rights at that moment: when they change,
 * the channel closes (ADR 026's `sessions` event), so a signed-out person, a de-verified dentist or a
 * demoted admin receives nothing more over a socket opened before. The same when the change is
 * written in SQL by no service of the app (the database's notifications, migration 030, ADR 039).
 */

let ctx: TestContext;
let base: string;
/** Run during the next upgrade, after its session was checked and before its socket is added. */
let duringUpgrade: (() => Promise<void>) | null = null;
beforeAll(async () => {
  ctx = await createTestContext({
    beforeReady: (app) => {
      app.addHook("preHandler", async (request) => {
        const run = request.url === "/api/realtime" ? duringUpgrade : null;
        duringUpgrade = null;
        await run?.();
      });
    },
  });
  base = await listenLocally(ctx.app);
});
afterAll(async () => ctx?.close());

const closed = (ws: import("ws").WebSocket) =>
  new Promise<number>((resolve) => {
    if (ws.readyState === ws.CLOSED) resolve(-1);
    ws.on("close", (code) => resolve(code));
  });

describe("live channels when a session ends", () => {
  it("closes the person's sockets at sign-out, and the reconnection is refused", async () => {
    const signedOut = await signUpPatient(ctx.app);
    const other = await signUpPatient(ctx.app);
    // Their sign-ups wrote their rows: those notifications are handled before the sockets open.
    await ctx.app.bus.sync();
    const mine = await openSocket(base, signedOut.cookie);
    const theirs = await openSocket(base, other.cookie);
    try {
      const code = closed(mine.ws);
      const logout = await ctx.app.inject({
        method: "POST",
        url: "/api/account/logout",
        headers: { cookie: signedOut.cookie },
      });
      expect(logout.statusCode).toBe(200);
      expect(await code).toBe(SESSION_CHANGED);
      await expect(openSocket(base, signedOut.cookie)).rejects.toThrow("HTTP 401");
      // Another person's channel stays open.
      expect(theirs.ws.readyState).toBe(theirs.ws.OPEN);
    } finally {
      mine.ws.close();
      theirs.ws.close();
    }
  });
});

describe("live channels after a change written in SQL (an operator, a script)", () => {
  it("a dentist de-verified in SQL: the socket closes, and the one reopened hears no more requests", async () => {
    const deVerified = await dentist(ctx.app);
    const verified = await dentist(ctx.app);
    // Their sign-up and verification wrote their rows: those notifications are handled before the
    // sockets open (else one arriving late would close a socket the test expects open).
    await ctx.app.bus.sync();
    const before = await openSocket(base, deVerified.cookie);
    const theirs = await openSocket(base, verified.cookie);
    let after: Awaited<ReturnType<typeof openSocket>> | undefined;
    try {
      const code = closed(before.ws);
      await sql`update profiles set is_verified = false where id = ${deVerified.id}`.execute(ctx.app.db);
      expect(await code).toBe(SESSION_CHANGED);
      expect(theirs.ws.readyState).toBe(theirs.ws.OPEN);
      // Still signed in: the channel opens again, as an unverified dentist's, and stays open.
      after = await openSocket(base, deVerified.cookie);
      const patient = await signUpPatient(ctx.app);
      const heard = new Promise<void>((resolve) => theirs.ws.on("message", () => resolve()));
      await newRequestId(ctx.app, patient.cookie);
      await heard;
      expect(theirs.events.map((e) => e.type)).toContain("requests");
      expect(after.events.map((e) => e.type)).not.toContain("requests");
      expect(after.ws.readyState).toBe(after.ws.OPEN);
    } finally {
      before.ws.close();
      theirs.ws.close();
      after?.ws.close();
    }
  });

  it("a person's sessions deleted in SQL: the socket closes, and the reconnection is refused", async () => {
    const signedOut = await signUpPatient(ctx.app);
    const id = signedOut.response.json().profile.id as string;
    const other = await signUpPatient(ctx.app);
    // Their sign-ups wrote sessions: those notifications are handled before the sockets open (one
    // arriving late closed the other patient's socket, which the test expects open: CI on PostgreSQL).
    await ctx.app.bus.sync();
    const mine = await openSocket(base, signedOut.cookie);
    const theirs = await openSocket(base, other.cookie);
    try {
      const code = closed(mine.ws);
      await sql`delete from sessions where user_id = ${id}`.execute(ctx.app.db);
      expect(await code).toBe(SESSION_CHANGED);
      await expect(openSocket(base, signedOut.cookie)).rejects.toThrow("HTTP 401");
      expect(theirs.ws.readyState).toBe(theirs.ws.OPEN);
    } finally {
      mine.ws.close();
      theirs.ws.close();
    }
  });

  it("every session ended at once in SQL (a truncate): every socket closes", async () => {
    const people = [await signUpPatient(ctx.app), await dentist(ctx.app)];
    await ctx.app.bus.sync();
    const sockets = await Promise.all(people.map((person) => openSocket(base, person.cookie)));
    try {
      const codes = Promise.all(sockets.map((socket) => closed(socket.ws)));
      await sql`truncate sessions`.execute(ctx.app.db);
      expect(await codes).toEqual([SESSION_CHANGED, SESSION_CHANGED]);
    } finally {
      for (const socket of sockets) socket.ws.close();
    }
  });
});

describe("a change made while a socket is being opened", () => {
  it("a dentist de-verified in SQL after the upgrade checked the session: the socket closes at once", async () => {
    const deVerified = await dentist(ctx.app);
    duringUpgrade = async () => {
      await sql`update profiles set is_verified = false where id = ${deVerified.id}`.execute(ctx.app.db);
      await ctx.app.bus.sync();
    };
    const ws = new WebSocket(`${base.replace("http", "ws")}/api/realtime`, {
      headers: { cookie: deVerified.cookie },
    });
    try {
      const first = await new Promise<string | number>((resolve, reject) => {
        ws.on("message", (data) => resolve(JSON.parse(String(data)).type));
        ws.on("close", (code) => resolve(code));
        ws.on("error", reject);
      });
      expect(first).toBe(SESSION_CHANGED);
      // Reopened, under the new rights.
      const again = await openSocket(base, deVerified.cookie);
      expect(again.ws.readyState).toBe(again.ws.OPEN);
      again.ws.close();
    } finally {
      ws.close();
    }
  });
});
