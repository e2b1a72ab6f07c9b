import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CHAT_MESSAGES } from "../../../shared/schemas/conversations";
import { tinyPng } from "../../sample-files";
import { fakeExe, pdfOfSize, tinyPdf } from "../../testing/files";
import { appPerFile, createTestContext, postRequest } from "../../testing/harness";
import {
  api,
  dentist,
  givePractice,
  patient,
  peoplePerFile,
  postForm,
  signInAdmin,
  verifyBody,
  type Who,
} from "../../testing/people";
import { listenLocally, openSocket } from "../../testing/sockets";
import { sendUnreadEmails } from "./conversations.service";

const ctx = appPerFile();
const { call, get, post } = api(ctx);
const who = peoplePerFile(ctx);

async function requestBy(patient: Who) {
  const response = await postRequest(ctx.app, patient.cookie, { treatment_type: "implant", consent: "true" });
  return response.json().id as string;
}

function send(
  conversationId: string,
  as: Who | undefined,
  fields: Record<string, string>,
  files: { name: string; type: string; content: Buffer }[] = [],
) {
  const url = `/api/conversations/${conversationId}/messages`;
  return postForm(
    ctx.app,
    url,
    as,
    fields,
    files.map((f) => ({ field: "files", ...f })),
  );
}

let conversationId: string;

beforeAll(async () => {
  const requestId = await requestBy(who.Paula as Who);
  const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour Paula" }, who.drA);
  conversationId = reply.json().conversation_id;
});

describe("conversations (ADR 007)", () => {
  it("lists each party's conversations with the other's name, the last message and unread counts", async () => {
    const paula = (await get("/api/conversations", who.Paula)).json();
    expect(paula.items).toHaveLength(1);
    expect(paula.items[0]).toMatchObject({
      id: conversationId,
      treatment_type: "implant",
      other: { id: who.drA?.id, full_name: "Anne Martin" },
      last_message: { body: "Bonjour Paula", from_me: false, attachment_count: 0 },
      unread_count: 1,
    });
    expect(paula.unread_total).toBe(1);
    const anne = (await get("/api/conversations", who.drA)).json();
    expect(anne.items[0]).toMatchObject({ other: { full_name: "Paula Durand" }, unread_count: 0 });
    expect((await get("/api/conversations?search=anne", who.Paula)).json().items).toHaveLength(1);
    expect((await get("/api/conversations?search=bruno", who.Paula)).json().items).toHaveLength(0);
  });

  it("refuses a third patient or dentist: 404 on the conversation, its messages and attachments", async () => {
    const sent = await send(conversationId, who.Paula, { body: "Voici ma radio" }, [
      { name: "radio.png", type: "image/png", content: tinyPng() },
    ]);
    expect(sent.statusCode, sent.body).toBe(201);
    const attachment = sent.json().attachments[0];
    expect(attachment).toMatchObject({ file_name: "radio.png", kind: "image", mime_type: "image/png" });
    for (const stranger of [who.Quentin, who.drB]) {
      expect((await get(`/api/conversations/${conversationId}/messages`, stranger)).statusCode).toBe(404);
      expect((await send(conversationId, stranger, { body: "Bonjour" })).statusCode).toBe(404);
      expect((await post(`/api/conversations/${conversationId}/read`, {}, stranger)).statusCode).toBe(404);
      expect((await get(attachment.url, stranger)).statusCode).toBe(404);
      expect((await get("/api/conversations", stranger)).json().items).toHaveLength(0);
    }
    expect((await get(`/api/conversations/${conversationId}/messages`)).statusCode).toBe(401);
    expect((await get(attachment.url)).statusCode).toBe(401);
    // The dentist opens it: served privately and recorded.
    const opened = await get(attachment.url, who.drA);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers["content-type"]).toBe("image/png");
    expect(opened.headers["cache-control"]).toBe("private, no-store");
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("subject_id", "=", attachment.id)
      .execute();
    expect(audit).toEqual([{ action: "attachment.view", actor_id: who.drA?.id }]);
  });

  it("cannot reach a dentist who never replied: there is no conversation to write in", async () => {
    const requestId = await requestBy(who.Quentin as Who);
    expect((await get("/api/conversations", who.Quentin)).json().items).toHaveLength(0);
    expect((await send(requestId, who.Quentin, { body: "Bonjour docteur" })).statusCode).toBe(404);
    expect((await send("00000000-0000-4000-8000-000000000000", who.Quentin, { body: "x" })).statusCode).toBe(
      404,
    );
  });

  it("applies the upload rules to attachments and refuses an empty message", async () => {
    const empty = await send(conversationId, who.Paula, { body: "   " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.body).toBe("Écrivez un message ou joignez un fichier.");
    const exe = await send(conversationId, who.Paula, {}, [
      { name: "radio.pdf", type: "application/pdf", content: fakeExe() },
    ]);
    expect(exe.statusCode).toBe(415);
    expect(exe.json().error.message).toBe("Le type de fichier radio.pdf n'est pas accepté");
    const big = await send(conversationId, who.Paula, {}, [
      { name: "gros.pdf", type: "application/pdf", content: pdfOfSize(10 * 1024 * 1024 + 1) },
    ]);
    expect(big.statusCode).toBe(413);
    const keysBefore = ctx.storedKeys().length;
    const six = await send(
      conversationId,
      who.Paula,
      { body: "Six pièces" },
      Array.from({ length: 6 }, (_, i) => ({
        name: `p${i}.pdf`,
        type: "application/pdf",
        content: tinyPdf(),
      })),
    );
    expect(six.statusCode).toBe(413);
    expect(six.json().error).toMatchObject({
      message: "5 fichiers au plus par message.",
      fields: { files: "5 fichiers au plus par message." },
    });
    // The five stored before the sixth was refused are removed.
    expect(ctx.storedKeys().length).toBe(keysBefore);
    const pdfOnly = await send(conversationId, who.Paula, {}, [
      { name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
    ]);
    expect(pdfOnly.statusCode).toBe(201);
    expect(pdfOnly.json()).toMatchObject({
      body: "",
      attachments: [{ kind: "document", file_name: "devis.pdf" }],
    });
    // Nothing half-saved: the refused files left no row.
    const names = await ctx.app.db.selectFrom("message_attachments").select("file_name").execute();
    expect(names.map((n) => n.file_name).sort()).toEqual(["devis.pdf", "radio.png"]);
  });

  it("marks read, pages older messages, and keeps the newest activity first", async () => {
    const before = (await get("/api/conversations", who.drA)).json();
    expect(before.items[0].unread_count).toBe(2);
    const read = await post(`/api/conversations/${conversationId}/read`, {}, who.drA);
    expect(read.json()).toEqual({ read: 2, unread_total: 0 });
    const page = (await get(`/api/conversations/${conversationId}/messages`, who.Paula)).json();
    const mine = page.items.filter((m: { sender_id: string }) => m.sender_id === who.Paula?.id);
    expect(mine.every((m: { read_at: string | null }) => m.read_at !== null)).toBe(true);

    for (let i = 0; i < 32; i++)
      expect((await send(conversationId, who.drA, { body: `Message ${i}` })).statusCode).toBe(201);
    const last = (await get(`/api/conversations/${conversationId}/messages?limit=30`, who.Paula)).json();
    expect(last.items).toHaveLength(30);
    expect(last.has_more).toBe(true);
    expect(last.items.at(-1).body).toBe("Message 31");
    const older = (
      await get(
        `/api/conversations/${conversationId}/messages?limit=30&before=${last.items[0].id}`,
        who.Paula,
      )
    ).json();
    expect(older.has_more).toBe(false);
    expect(older.items[0].body).toBe("Bonjour Paula");
    expect(older.items.length + last.items.length).toBe(35);
  });
});

describe("the conversation list read as one JSON array (ADR 057, addendum of 29/11)", () => {
  it("shows times to the millisecond whatever the database keeps, and pages by its cursor to the microsecond", async () => {
    // Four conversations of a new dentist, their last activity with microseconds (as PostgreSQL keeps
    // them), two in the same millisecond: a cursor cut to the millisecond skipped the second.
    const drNew = await dentist(ctx.app);
    const times = [
      "2026-11-28T10:00:00.123987Z",
      "2026-11-28T10:00:00.123456Z",
      "2026-11-28T09:00:00.500001Z",
      "2026-11-27T09:00:00Z",
    ];
    const ids: string[] = [];
    for (const at of times) {
      const requestId = await requestBy(who.Quentin as Who);
      const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour" }, drNew);
      const id = reply.json().conversation_id as string;
      await ctx.app.db
        .updateTable("conversations")
        .set({ last_message_at: at })
        .where("id", "=", id)
        .execute();
      // Read: no unread e-mail for them (the e-mails' test below counts every one sent).
      await ctx.app.db
        .updateTable("messages")
        .set({ read_at: new Date() })
        .where("conversation_id", "=", id)
        .execute();
      ids.push(id);
    }
    const seen: { id: string; last_message_at: string }[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 4; page += 1) {
      const query: string = cursor ? `limit=1&cursor=${encodeURIComponent(cursor)}` : "limit=1";
      const list = (await get(`/api/conversations?${query}`, drNew)).json();
      expect(list.items).toHaveLength(1);
      seen.push({ id: list.items[0].id, last_message_at: list.items[0].last_message_at });
      cursor = list.next_cursor;
    }
    expect(seen).toEqual([
      { id: ids[0], last_message_at: "2026-11-28T10:00:00.123Z" },
      { id: ids[1], last_message_at: "2026-11-28T10:00:00.123Z" },
      { id: ids[2], last_message_at: "2026-11-28T09:00:00.500Z" },
      { id: ids[3], last_message_at: "2026-11-27T09:00:00.000Z" },
    ]);
    expect(cursor).toBeNull();
  });
});

describe("unread e-mails", () => {
  /** The job's dependencies, `minutes` after `sentAt`. */
  const unreadJobAt = (sentAt: Date) => (minutes: number) => ({
    db: ctx.app.db,
    mailer: ctx.app.mailer,
    config: ctx.config,
    now: new Date(sentAt.getTime() + minutes * 60_000),
    log: { error() {} },
  });
  const mailsTo = (email: string) =>
    ctx.outbox().filter((m) => m.includes(email) && m.includes("vous a écrit"));
  /** A message from the dentist, two hours after his reply (whose own e-mail counts as the last one). */
  async function laterMessage(conversationId: string, from: Who | undefined) {
    const at = new Date(Date.now() + 2 * 3_600_000);
    await ctx.app.db
      .insertInto("messages")
      .values({
        conversation_id: conversationId,
        sender_id: from?.id as string,
        body: "Encore",
        created_at: at,
      })
      .execute();
    return at;
  }

  it("never e-mails again about a reply the patient was e-mailed about, and waits its hour for newer messages", async () => {
    const requestId = await requestBy(who.Quentin as Who);
    const quentin = (await get("/api/me", who.Quentin)).json().profile.email as string;
    const replyMails = () => ctx.outbox().filter((m) => m.includes(quentin) && m.includes("a répondu"));
    const [repliesBefore, unreadBefore] = [replyMails().length, mailsTo(quentin).length];
    const reply = await post(
      `/api/dentist/requests/${requestId}/reply`,
      { message: "Votre radio est nette" },
      who.drB,
    );
    const id = reply.json().conversation_id as string;
    const deps = unreadJobAt(new Date());
    // The reply's own e-mail (sent after the commit), and nothing more about it.
    await expect.poll(() => replyMails().length).toBe(repliesBefore + 1);
    await sendUnreadEmails(deps(16));
    await sendUnreadEmails(deps(90));
    expect(mailsTo(quentin)).toHaveLength(unreadBefore);
    // A message five minutes after the reply, left unread: told once the hour since that e-mail is over.
    await ctx.app.db
      .insertInto("messages")
      .values({ conversation_id: id, sender_id: who.drB?.id as string, body: "Et", created_at: deps(5).now })
      .execute();
    await sendUnreadEmails(deps(30));
    expect(mailsTo(quentin)).toHaveLength(unreadBefore);
    await sendUnreadEmails(deps(61));
    expect(mailsTo(quentin)).toHaveLength(unreadBefore + 1);
  });

  it("e-mails after 15 minutes, at most once an hour per conversation, only for newer messages", async () => {
    const requestId = await requestBy(who.Quentin as Who);
    const reply = await post(
      `/api/dentist/requests/${requestId}/reply`,
      { message: "Votre radio est nette" },
      who.drB,
    );
    const id = reply.json().conversation_id as string;
    const deps = unreadJobAt(await laterMessage(id, who.drB));
    const quentin = (await get("/api/me", who.Quentin)).json().profile.email as string;
    const countBefore = mailsTo(quentin).length;
    await sendUnreadEmails(deps(10));
    expect(mailsTo(quentin).length).toBe(countBefore);
    expect(await sendUnreadEmails(deps(16))).toBeGreaterThanOrEqual(1);
    expect(mailsTo(quentin).length).toBe(countBefore + 1);
    expect(mailsTo(quentin).at(-1)).toContain("/patient/messages");
    expect(mailsTo(quentin).at(-1)).not.toContain("Encore"); // no message text by e-mail
    // The patient reads who wrote, with the dentist's title, and that the message is his, unread by her.
    const bruno = (await get("/api/me", who.drB)).json().profile.full_name as string;
    expect(mailsTo(quentin).at(-1)).toContain(
      `Dr ${bruno} vous a écrit sur Sourio et vous n'avez pas encore lu son message.`,
    );
    // Same unread message: never again.
    await sendUnreadEmails(deps(90));
    expect(mailsTo(quentin).length).toBe(countBefore + 1);
    // A newer message, read in time: nothing.
    await ctx.app.db
      .insertInto("messages")
      .values({
        conversation_id: id,
        sender_id: who.drB?.id as string,
        body: "Encore",
        created_at: deps(100).now,
      })
      .execute();
    await sendUnreadEmails(deps(110));
    expect(mailsTo(quentin).length).toBe(countBefore + 1);
    await sendUnreadEmails(deps(116));
    expect(mailsTo(quentin).length).toBe(countBefore + 2);
  });

  it("e-mails a dentist about his unread messages only once verified (D6), then about those left meanwhile", async () => {
    const ana = await patient(ctx.app);
    const requestId = await requestBy(ana);
    const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour" }, who.drB);
    const id = reply.json().conversation_id as string;
    const sentAt = new Date();
    const deps = unreadJobAt(sentAt);
    const drB = (await get("/api/me", who.drB)).json().profile.email as string;
    const verified = (value: boolean) =>
      ctx.app.db
        .updateTable("profiles")
        .set({ is_verified: value })
        .where("id", "=", who.drB?.id as string)
        .execute();
    await ctx.app.db
      .insertInto("messages")
      .values({ conversation_id: id, sender_id: ana.id, body: "Merci", created_at: sentAt })
      .execute();
    const before = mailsTo(drB).length;
    await verified(false);
    try {
      await sendUnreadEmails(deps(16));
      expect(mailsTo(drB)).toHaveLength(before);
    } finally {
      await verified(true);
    }
    await sendUnreadEmails(deps(20));
    expect(mailsTo(drB)).toHaveLength(before + 1);
  });

  it("e-mails nobody who stopped these e-mails, says in each where to stop them, and tells once turned back on (ADR 081)", async () => {
    const lou = await patient(ctx.app);
    const requestId = await requestBy(lou);
    const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour" }, who.drB);
    const id = reply.json().conversation_id as string;
    const sentAt = await laterMessage(id, who.drB);
    const deps = unreadJobAt(sentAt);
    const preferences = (value: boolean) =>
      call("PATCH", "/api/me/email-preferences", lou, { messages: value });
    const stopped = await preferences(false);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().profile.email_preferences.messages).toBe(false);
    // Lou's own message, which Dr B leaves unread: he is told; his, which she leaves unread: she is not.
    await ctx.app.db
      .insertInto("messages")
      .values({ conversation_id: id, sender_id: lou.id, body: "Merci", created_at: sentAt })
      .execute();
    const drB = (await get("/api/me", who.drB)).json().profile.email as string;
    const drBBefore = mailsTo(drB).length;
    await sendUnreadEmails(deps(16));
    expect(mailsTo(lou.email)).toHaveLength(0);
    expect(mailsTo(drB)).toHaveLength(drBBefore + 1);
    expect(mailsTo(drB).at(-1)).toContain(`${ctx.config.publicUrl}/dentist/profile#notifications`);
    // Turned back on: told once of the message still unread.
    expect((await preferences(true)).statusCode).toBe(200);
    await sendUnreadEmails(deps(20));
    await sendUnreadEmails(deps(25));
    expect(mailsTo(lou.email)).toHaveLength(1);
    expect(mailsTo(lou.email)[0]).toContain(`${ctx.config.publicUrl}/patient/profile#notifications`);
  });

  it("e-mails no suspended account, which cannot sign in to read them, and tells once when lifted (ADR 092)", async () => {
    const eva = await patient(ctx.app);
    const requestId = await requestBy(eva);
    const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour" }, who.drB);
    expect(reply.statusCode).toBe(201);
    const deps = unreadJobAt(await laterMessage(reply.json().conversation_id, who.drB));
    const suspended = (at: Date | null) =>
      ctx.app.db
        .updateTable("profiles")
        .set({ suspended_at: at, suspension_reason: at ? "Fausses demandes." : null })
        .where("id", "=", eva.id)
        .execute();
    await suspended(new Date());
    await sendUnreadEmails(deps(16));
    expect(mailsTo(eva.email)).toHaveLength(0);
    await suspended(null);
    await sendUnreadEmails(deps(20));
    await sendUnreadEmails(deps(25));
    expect(mailsTo(eva.email)).toHaveLength(1);
  });
});

describe("unread e-mails after an erasure", () => {
  it("e-mails no erased account: her address is no one's", async () => {
    const ines = await patient(ctx.app);
    const requestId = await requestBy(ines);
    const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour" }, who.drB);
    expect(reply.statusCode).toBe(201);
    const at = new Date(Date.now() + 2 * 3_600_000);
    await ctx.app.db
      .insertInto("messages")
      .values({
        conversation_id: reply.json().conversation_id,
        sender_id: who.drB?.id as string,
        body: "Et",
        created_at: at,
      })
      .execute();
    // What the erasure leaves of her (a kept conversation: the request whose offer she accepted).
    await ctx.app.db
      .updateTable("profiles")
      .set({ erased_at: new Date(), email: `${ines.id}@compte-supprime.invalid`, first_name: "" })
      .where("id", "=", ines.id)
      .execute();
    await sendUnreadEmails({
      db: ctx.app.db,
      mailer: ctx.app.mailer,
      config: ctx.config,
      now: new Date(at.getTime() + 16 * 60_000),
      log: { error() {} },
    });
    expect(ctx.outbox().filter((m) => m.includes(`${ines.id}@compte-supprime.invalid`))).toEqual([]);
  });
});

describe("live (/api/realtime)", () => {
  let base: string;
  beforeAll(async () => {
    base = await listenLocally(ctx.app);
  });

  it("refuses a socket without a session or from another site", async () => {
    await expect(openSocket(base)).rejects.toThrow("HTTP 401");
    const foreign = new WebSocket(`${base.replace("http", "ws")}/api/realtime`, {
      headers: { cookie: who.Paula?.cookie as string, origin: "https://evil.example" },
    });
    await expect(
      new Promise((_, reject) =>
        foreign.on("unexpected-response", (_r, res) => reject(new Error(`HTTP ${res.statusCode}`))),
      ),
    ).rejects.toThrow("HTTP 403");
  });

  it("pushes a new message, read receipts and unread counts to the two parties only", async () => {
    const paula = await openSocket(base, who.Paula?.cookie);
    const anne = await openSocket(base, who.drA?.cookie);
    const bruno = await openSocket(base, who.drB?.cookie);
    try {
      expect((await send(conversationId, who.drA, { body: "En direct" })).statusCode).toBe(201);
      await expect
        .poll(() => paula.events.find((e) => e.type === "message" && e.message.body === "En direct"))
        .toBeDefined();
      await expect.poll(() => paula.events.some((e) => e.type === "unread" && e.total > 0)).toBe(true);
      await expect.poll(() => anne.events.some((e) => e.type === "message")).toBe(true);
      await post(`/api/conversations/${conversationId}/read`, {}, who.Paula);
      await expect
        .poll(() => anne.events.find((e) => e.type === "read"))
        .toMatchObject({ reader_id: who.Paula?.id });
      await expect.poll(() => paula.events.at(-1)).toEqual({ type: "unread", total: 0 });
      // Nothing of this conversation reached the third party. (A request event may reach him: his
      // own reply in the test before announces a change of that request to him, and on PostgreSQL
      // the bus can carry it after his socket here opened — seen once; not this test's subject.)
      expect(
        bruno.events.filter((e) => e.type === "message" || e.type === "read" || e.type === "unread"),
      ).toEqual([]);
    } finally {
      for (const s of [paula, anne, bruno]) s.ws.close();
    }
  });
});

describe("a dentist's reply, offer or withdrawal, and the patient's choice, live", () => {
  it("reach the open screens of the request's parties, and of nobody else", async () => {
    const paula = who.Paula as Who;
    const base = await listenLocally(ctx.app);
    const [patientSocket, anne, bruno, quentin] = await Promise.all([
      openSocket(base, paula.cookie),
      openSocket(base, who.drA?.cookie),
      openSocket(base, who.drB?.cookie),
      openSocket(base, who.Quentin?.cookie),
    ]);
    let requestId = "";
    const seen = (socket: typeof anne, type: string) =>
      socket.events.filter((e) => e.type === type && (!("request_id" in e) || e.request_id === requestId));
    const bodies = (socket: typeof anne) =>
      socket.events.flatMap((e) => (e.type === "message" ? [e.message.body] : []));
    try {
      // The request is sent with the sockets open, and its own announcement awaited: on PostgreSQL the
      // bus may carry it after a socket opened later, which made every count below one too many.
      requestId = await requestBy(paula);
      await expect.poll(() => seen(patientSocket, "request").length).toBe(1);

      // A reply: the message in both parties' chats, the patient's unread count, the request's screens.
      const replied = await post(
        `/api/dentist/requests/${requestId}/reply`,
        { message: "Bonjour, en direct" },
        who.drA,
      );
      expect(replied.statusCode, replied.body).toBe(201);
      await expect.poll(() => bodies(patientSocket)).toContain("Bonjour, en direct");
      await expect.poll(() => bodies(anne)).toContain("Bonjour, en direct");
      await expect
        .poll(() => patientSocket.events.some((e) => e.type === "unread" && e.total > 0))
        .toBe(true);
      await expect.poll(() => seen(patientSocket, "request").length).toBe(2);

      // Two offers, one withdrawn: its message, and the patient's page reloads each time.
      const offers: Record<string, string> = {};
      for (const [name, dr] of [
        ["anne", who.drA],
        ["bruno", who.drB],
      ] as const) {
        const sent = await post(`/api/dentist/requests/${requestId}/offers`, { amount_cents: 90_000 }, dr);
        expect(sent.statusCode, sent.body).toBe(201);
        offers[name] = sent.json().offer.id;
      }
      await expect
        .poll(() => bodies(patientSocket).filter((b) => b.startsWith("Proposition de devis")).length)
        .toBe(2);
      expect((await post(`/api/dentist/offers/${offers.bruno}/withdraw`, {}, who.drB)).statusCode).toBe(200);
      await expect
        .poll(() => bodies(patientSocket).some((b) => b.startsWith("Proposition de devis retirée")))
        .toBe(true);
      await expect.poll(() => seen(patientSocket, "request").length).toBe(5);

      // The patient's choice: the chosen dentist's offers and lists reload; the request leaves every
      // dentist's list.
      const before = seen(anne, "request").length;
      const opened = (socket: typeof anne) => socket.events.filter((e) => e.type === "requests").length;
      const brunoLists = opened(bruno);
      const accepted = await post(`/api/patient/offers/${offers.anne}/accept`, undefined, paula);
      expect(accepted.statusCode, accepted.body).toBe(200);
      await expect.poll(() => seen(anne, "request").length).toBe(before + 1);
      await expect.poll(() => seen(patientSocket, "request").length).toBe(6);
      await expect.poll(() => opened(bruno)).toBe(brunoLists + 1);

      // Bruno saw his own offer and its withdrawal only; another patient, nothing.
      expect(bodies(bruno).filter((b) => b.includes("Bonjour"))).toEqual([]);
      await expect.poll(() => seen(bruno, "request").length).toBe(2);
      const others = quentin.events.filter((e) => !["ready", "heartbeat"].includes(e.type));
      expect(others).toEqual([]);

      // A request cancelled with an offer waiting: that dentist's offers reload.
      const anneBefore = opened(anne);
      const second = await requestBy(paula);
      // The new request's own event first, so that the count below is the cancellation's alone.
      await expect.poll(() => opened(anne)).toBe(anneBefore + 1);
      expect(
        (await post(`/api/dentist/requests/${second}/offers`, { amount_cents: 50_000 }, who.drB)).statusCode,
      ).toBe(201);
      const anneLists = opened(anne);
      expect((await post(`/api/patient/requests/${second}/cancel`, {}, paula)).statusCode).toBe(200);
      await expect.poll(() => opened(anne)).toBe(anneLists + 1);
      const about = (socket: typeof anne, id: string) =>
        socket.events.filter((e) => e.type === "request" && e.request_id === id).length;
      await expect.poll(() => about(bruno, second)).toBe(2);
      expect(about(anne, second)).toBe(0);
    } finally {
      for (const socket of [patientSocket, anne, bruno, quentin]) socket.ws.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two instances on one PostgreSQL", () => {
  it("delivers a message sent through instance A to a socket on instance B", async () => {
    const other = await createTestContext({ databaseUrl: ctx.databaseUrl as string });
    try {
      const baseB = await listenLocally(other.app);
      await other.app.bus.listening();
      await ctx.app.bus.listening();
      const paulaOnB = await openSocket(baseB, who.Paula?.cookie);
      try {
        expect((await send(conversationId, who.drA, { body: "Via l'instance A" })).statusCode).toBe(201);
        await expect
          .poll(() =>
            paulaOnB.events.find((e) => e.type === "message" && e.message.body === "Via l'instance A"),
          )
          .toBeDefined();
      } finally {
        paulaOnB.ws.close();
      }
    } finally {
      await other.close();
    }
  });
});

describe("a conversation whose other party's account was erased", () => {
  it("stays readable, but refuses a new message with a French 409 and removes its files", async () => {
    const rose = await patient(ctx.app, { first_name: "Rose" });
    const denis = await dentist(ctx.app, { first_name: "Denis" });
    const requestId = await requestBy(rose);
    const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour Rose" }, denis);
    const id = reply.json().conversation_id as string;
    expect((await send(id, rose, { body: "Merci docteur" })).statusCode).toBe(201);

    const admin = await signInAdmin(ctx.app);
    const erased = await post(`/api/admin/users/${denis.id}/erase`, undefined, admin);
    expect(erased.statusCode, erased.body).toBe(200);
    expect((await get(`/api/conversations/${id}/messages`, rose)).statusCode).toBe(200);
    expect((await get(`/api/conversations/${id}/messages`, rose)).json().conversation.other_status).toBe(
      "erased",
    );

    const keysBefore = ctx.storedKeys().length;
    const refused = await send(id, rose, { body: "Vous êtes là\u202f?" }, [
      { name: "radio.png", type: "image/png", content: tinyPng() },
    ]);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: "CONFLICT",
      message: "Ce compte a été supprimé\u202f: vous ne pouvez plus écrire dans cette conversation.",
    });
    expect(ctx.storedKeys().length).toBe(keysBefore);
    const bodies = await ctx.app.db
      .selectFrom("messages")
      .select("body")
      .where("conversation_id", "=", id)
      .orderBy("created_at")
      .execute();
    expect(bodies.map((m) => m.body)).toEqual(["Message supprimé", "Merci docteur"]);
  });
});

describe("the link to the request from a conversation (ADR 012)", () => {
  /** The summary of conversation `id` as `as` reads it, in the list and above the messages. */
  async function visibility(id: string, as: Who) {
    const listed = (await get("/api/conversations", as))
      .json()
      .items.find((c: { id: string }) => c.id === id);
    const page = (await get(`/api/conversations/${id}/messages`, as)).json();
    expect(listed.request_visible).toBe(page.conversation.request_visible);
    return listed.request_visible as boolean;
  }

  it("says whether the request's page still opens for the viewer: not for a dentist not chosen, nor once cancelled", async () => {
    const iris = await patient(ctx.app, { first_name: "Iris" });
    const eva = await dentist(ctx.app, { first_name: "Eva" });
    const fanny = await dentist(ctx.app, { first_name: "Fanny" });
    const requestId = await requestBy(iris);
    const conversations: Record<string, string> = {};
    const offers: Record<string, string> = {};
    for (const [name, dr] of [
      ["eva", eva],
      ["fanny", fanny],
    ] as const) {
      const sent = await post(`/api/dentist/requests/${requestId}/offers`, { amount_cents: 90_000 }, dr);
      expect(sent.statusCode, sent.body).toBe(201);
      offers[name] = sent.json().offer.id;
      conversations[name] = sent.json().conversation_id;
    }
    const [toEva, toFanny] = [conversations.eva as string, conversations.fanny as string];
    // Open to both while the request is.
    expect(await visibility(toFanny, fanny)).toBe(true);

    const accepted = await post(`/api/patient/offers/${offers.eva}/accept`, undefined, iris);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await visibility(toEva, eva)).toBe(true);
    expect(await visibility(toFanny, fanny)).toBe(false);
    expect(await visibility(toEva, iris)).toBe(true);
    expect(await visibility(toFanny, iris)).toBe(true);
    // The same rule as the request's page itself.
    expect((await get(`/api/dentist/requests/${requestId}`, eva)).statusCode).toBe(200);
    expect((await get(`/api/dentist/requests/${requestId}`, fanny)).statusCode).toBe(404);

    // A cancelled request: its page is its patient's only; the conversation stays readable.
    const other = await requestBy(iris);
    const reply = await post(`/api/dentist/requests/${other}/reply`, { message: "Bonjour Iris" }, eva);
    const toEvaAgain = reply.json().conversation_id as string;
    expect(await visibility(toEvaAgain, eva)).toBe(true);
    expect((await post(`/api/patient/requests/${other}/cancel`, undefined, iris)).statusCode).toBe(200);
    expect(await visibility(toEvaAgain, eva)).toBe(false);
    expect(await visibility(toEvaAgain, iris)).toBe(true);
    expect((await get(`/api/dentist/requests/${other}`, eva)).statusCode).toBe(404);
  });
});

describe("a dentist whose verification was withdrawn (D6: no patient data)", () => {
  it("reads none of his conversations, gets no live message nor e-mail, and finds them again once verified", async () => {
    const lina = await patient(ctx.app, { first_name: "Lina" });
    const marc = await dentist(ctx.app, { first_name: "Marc" });
    await givePractice(ctx.app, marc.id);
    const requestId = await requestBy(lina);
    const reply = await post(`/api/dentist/requests/${requestId}/reply`, { message: "Bonjour Lina" }, marc);
    const id = reply.json().conversation_id as string;
    const sent = await send(id, lina, { body: "Voici ma radio" }, [
      { name: "radio.png", type: "image/png", content: tinyPng() },
    ]);
    expect(sent.statusCode, sent.body).toBe(201);
    const attachment = sent.json().attachments[0].url as string;
    const dashboard = async () => (await get("/api/dentist/dashboard", marc)).json();
    expect((await get("/api/conversations", marc)).json()).toMatchObject({ unread_total: 1 });
    expect((await dashboard()).unread_messages).toBe(1);

    const admin = await signInAdmin(ctx.app);
    const verification = async (decision: string) =>
      post(
        `/api/admin/dentists/${marc.id}/verification`,
        decision === "verify"
          ? await verifyBody(ctx.app, marc.id)
          : { decision, reason: "Numéro RPPS inactif au répertoire" },
        admin,
      );
    expect((await verification("unverify")).json()).toMatchObject({ changed: true, is_verified: false });

    // The list, the nav's count, the thread, its files, the receipts, writing: nothing is his.
    expect((await get("/api/conversations", marc)).json()).toEqual({
      items: [],
      next_cursor: null,
      unread_total: 0,
    });
    expect((await get(`/api/conversations/${id}/messages`, marc)).statusCode).toBe(404);
    expect((await get(attachment, marc)).statusCode).toBe(404);
    expect((await post(`/api/conversations/${id}/read`, {}, marc)).statusCode).toBe(404);
    expect((await send(id, marc, { body: "Bonjour" })).statusCode).toBe(404);
    // The dashboard names no patient and counts no message.
    const board = await dashboard();
    expect(board).toMatchObject({ verified: false, unread_messages: 0, recent_messages: [] });
    expect(board.todo.conversations).toEqual({ count: 0, items: [] });

    // The patient sees why she cannot write to him, and the server refuses it (he would not read it).
    const hers = (await get("/api/conversations", lina)).json().items[0];
    expect(hers).toMatchObject({ id, other_status: "unverified" });
    const unheard = await send(id, lina, { body: "Vous êtes là\u202f?" });
    expect(unheard.statusCode).toBe(409);
    expect(unheard.json().error.message).toBe(CHAT_MESSAGES.otherUnverified);

    // Live: the patient reads his reply; his socket (opened as unverified) hears nothing of it. What
    // was written before is handled first (on PostgreSQL its events may come after the answers).
    const base = await listenLocally(ctx.app);
    await ctx.app.bus.sync();
    const socket = await openSocket(base, marc.cookie);
    const linaSocket = await openSocket(base, lina.cookie);
    try {
      expect((await post(`/api/conversations/${id}/read`, {}, lina)).statusCode).toBe(200);
      await expect.poll(() => linaSocket.events.some((e) => e.type === "read")).toBe(true);
      // The push to both parties is one delivery: the patient's arrived, so his was decided.
      expect(socket.events.filter((e) => e.type !== "ready" && e.type !== "heartbeat")).toEqual([]);
    } finally {
      socket.ws.close();
      linaSocket.ws.close();
    }

    // No e-mail naming the patient while he is not verified; once verified, the one he is owed.
    const mailsToMarc = () =>
      ctx.outbox().filter((m) => m.includes(marc.email) && m.includes("vous a écrit"));
    const deps = {
      db: ctx.app.db,
      mailer: ctx.app.mailer,
      config: ctx.config,
      now: new Date(Date.now() + 16 * 60_000),
      log: { error() {} },
    };
    await sendUnreadEmails(deps);
    expect(mailsToMarc()).toHaveLength(0);

    expect((await verification("verify")).json()).toMatchObject({ changed: true, is_verified: true });
    const back = (await get("/api/conversations", marc)).json();
    expect(back.items.map((c: { id: string }) => c.id)).toEqual([id]);
    expect(back.unread_total).toBe(1);
    expect((await get("/api/conversations", lina)).json().items[0].other_status).toBe("active");
    expect((await get(`/api/conversations/${id}/messages`, marc)).statusCode).toBe(200);
    expect((await get(attachment, marc)).statusCode).toBe(200);
    await sendUnreadEmails(deps);
    expect(mailsToMarc()).toHaveLength(1);
    expect(mailsToMarc()[0]).toContain("Lina");
  });
});
