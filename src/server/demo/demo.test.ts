import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAdmin } from "../bootstrap";
import { runMailJobs, sendScheduledEmails } from "../jobs";
import { closeOcr, readQuote } from "../modules/reading/read";
import {
  appPerFile,
  createTestContext,
  postRequest,
  sessionCookie,
  signUpPatient,
  type TestContext,
} from "../testing/harness";
import { practiceDay } from "./accounts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoSeed, demoStartupText, seedDemoData } from "./index";

const ctx = appPerFile();
afterAll(async () => {
  await closeOcr();
});
const DAY = 24 * 60 * 60 * 1000;
/** Whole days between an ISO time (or a Date) and now. */
const daysAgo = (at: string | Date) => Math.round((Date.now() - new Date(at).getTime()) / DAY);

describe("demo data on a first start", () => {
  let demo: TestContext;
  let first: DemoSeed;
  const cookies = new Map<string, string>();
  /** GET as a demo person (signed in once, through the login route like anyone). */
  const get = async (email: string, url: string) => {
    if (!cookies.has(email)) {
      const login = await demo.app.inject({
        method: "POST",
        url: "/api/account/login",
        payload: { email, password: DEMO_PASSWORD },
      });
      expect(login.statusCode, email).toBe(200);
      cookies.set(email, sessionCookie(login));
    }
    return demo.app.inject({ method: "GET", url, headers: { cookie: cookies.get(email) } });
  };
  const patientGet = async (url: string) => (await get("patient@demo.sourio.fr", url)).json();
  const requestOf = async (treatment: string) => {
    const list = await patientGet("/api/patient/requests");
    const summary = list.items.find((r: { treatment_type: string }) => r.treatment_type === treatment);
    return patientGet(`/api/patient/requests/${summary.id}`);
  };

  /**
   * The demo patient's five requests of DEMO_REQUESTS; the reviews' history (demo/reviews.ts) adds
   * her two past appointments (root canal, denture) and the other patients' requests.
   */
  const HISTORY_TREATMENTS = ["rootcanal", "denture"];
  const ownRequests = () =>
    demo.app.db
      .selectFrom("requests as r")
      .innerJoin("profiles as p", "p.id", "r.patient_id")
      .where("p.email", "=", "patient@demo.sourio.fr")
      .where("r.treatment_type", "not in", HISTORY_TREATMENTS);

  beforeAll(async () => {
    demo = await createTestContext();
    // server.ts's order: ADMIN_EMAIL's administrator first, then the demo seed.
    expect(await ensureAdmin(demo.app, "chef@example.com", "admin-secret")).toBe("created");
    first = await seedDemoData(demo.app, sendScheduledEmails);
  });
  afterAll(() => demo.close());

  it("seeds once, with ADMIN_EMAIL's administrator, and prints the logins that exist", async () => {
    expect(first.outcome).toBe("created");
    expect(first.accounts.map((a) => a.email)).toEqual(DEMO_ACCOUNTS.map((a) => a.email));
    const firstText = demoStartupText(first, "http://localhost:3000");
    expect(firstText).toContain("Données de démonstration créées.");
    for (const account of DEMO_ACCOUNTS) expect(firstText).toContain(account.email);
    // A restart: the demo is there already, and said so with the same logins.
    const again = await seedDemoData(demo.app, sendScheduledEmails);
    expect(again).toEqual({ outcome: "present", accounts: first.accounts });
    expect(demoStartupText(again, "http://localhost:3000")).toContain(
      "Données de démonstration déjà présentes.",
    );
    const admin = await demo.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: "chef@example.com", password: "admin-secret" },
    });
    expect(admin.json().profile.is_admin).toBe(true);
    for (const account of DEMO_ACCOUNTS)
      expect((await get(account.email, "/api/me")).json().profile.email).toBe(account.email);
  });

  it("subscriptions (issue 35): Dr Martin active with his first month's invoice, Dr Leroy in trial, Dr Bernard none", async () => {
    const martin = (await get("dr.martin@demo.sourio.fr", "/api/me")).json();
    expect(martin.subscription).toMatchObject({ status: "active", plan: "monthly", limited: false });
    const invoices = await demo.app.db
      .selectFrom("invoices")
      .select(["amount_ttc_cents", "period_start"])
      .where("dentist_id", "=", martin.profile.id)
      .orderBy("sequence")
      .execute();
    expect(invoices.map((i) => i.amount_ttc_cents)).toEqual([10680]);
    // No invoice for a period that has not begun (a day's margin for the time zone): the one issued
    // today is for the month from today.
    for (const invoice of invoices)
      expect(Date.parse(invoice.period_start)).toBeLessThan(Date.now() + 86_400_000);
    const leroy = (await get("dr.leroy@demo.sourio.fr", "/api/me")).json();
    expect(leroy.subscription).toMatchObject({ status: "trialing", phase: "trial_ending", limited: false });
    expect((await get("dr.bernard@demo.sourio.fr", "/api/me")).json().subscription).toBeNull();
  });

  it("tells a story that holds: no dentist answers before his verification nor while limited, no review before its appointment", async () => {
    const now = Date.now();
    const offers = await demo.app.db
      .selectFrom("offers as o")
      .innerJoin("profiles as p", "p.id", "o.dentist_id")
      .select(["p.email", "o.created_at", "p.verification_decided_at"])
      .execute();
    expect(offers.length).toBeGreaterThan(30);
    for (const offer of offers) {
      expect(offer.verification_decided_at, offer.email).not.toBeNull();
      expect(new Date(offer.created_at).getTime(), offer.email).toBeGreaterThan(
        new Date(offer.verification_decided_at as Date).getTime(),
      );
    }
    // Neither verified dentist's access was ever limited: Dr Leroy's trial runs on, Dr Martin
    // subscribed before his ended (he was limited from its end on, and answered until now).
    const subscriptions = await demo.app.db
      .selectFrom("subscriptions as s")
      .innerJoin("profiles as p", "p.id", "s.dentist_id")
      .select(["p.email", "s.status", "s.status_since", "s.trial_ends_at"])
      .execute();
    expect(subscriptions.map((s) => s.email).sort()).toEqual([
      "dr.leroy@demo.sourio.fr",
      "dr.martin@demo.sourio.fr",
    ]);
    for (const s of subscriptions) expect(new Date(s.trial_ends_at).getTime(), s.email).toBeGreaterThan(now);
    const martin = subscriptions.find((s) => s.email === "dr.martin@demo.sourio.fr");
    expect(martin?.status).toBe("active");
    const reviews = await demo.app.db
      .selectFrom("reviews")
      .select(["appointment_starts_at", "created_at", "published_at", "answered_at"])
      .execute();
    expect(reviews.length).toBeGreaterThan(30);
    // Each signs as who they are: Omar as « patient vérifié », Lucie as « patiente vérifiée ».
    const signatures = await demo.app.db
      .selectFrom("reviews as v")
      .innerJoin("profiles as p", "p.id", "v.patient_id")
      .select(["p.first_name", "v.author_title"])
      .where("p.first_name", "in", ["Omar", "Lucie"])
      .execute();
    expect(new Set(signatures.map((s) => `${s.first_name} ${s.author_title}`))).toEqual(
      new Set(["Omar patient", "Lucie patiente"]),
    );
    for (const review of reviews) {
      const written = new Date(review.created_at).getTime();
      expect(written).toBeGreaterThan(new Date(review.appointment_starts_at).getTime());
      expect(written).toBeLessThan(now);
      for (const later of [review.published_at, review.answered_at])
        if (later) {
          expect(new Date(later).getTime()).toBeGreaterThan(written);
          expect(new Date(later).getTime()).toBeLessThan(now);
        }
    }
  });

  it("books nothing and offers no slot on a Sunday, when the demo's practices are closed", async () => {
    const appointments = await demo.app.db
      .selectFrom("appointments")
      .select("starts_at")
      .where("starts_at", "is not", null)
      .execute();
    const slots = await demo.app.db.selectFrom("offer_slots").select("starts_at").execute();
    expect(appointments.length).toBeGreaterThan(30);
    expect(slots.length).toBeGreaterThan(30);
    const parisWeekday = new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", weekday: "long" });
    const sundays = [...appointments, ...slots]
      .map((row) => new Date(row.starts_at as Date))
      .filter((at) => parisWeekday.format(at) === "dimanche")
      .map((at) => at.toISOString());
    expect(sundays).toEqual([]);
    expect([practiceDay("2026-11-29"), practiceDay("2026-11-30"), practiceDay("2026-12-05")]).toEqual([
      "2026-11-30",
      "2026-11-30",
      "2026-12-05",
    ]);
  });

  it("has the dentists ask to be verified, the demo administrator verify two, the third wait", async () => {
    const profiles = await demo.app.db.selectFrom("profiles").selectAll().execute();
    expect(profiles.filter((p) => p.is_admin)).toHaveLength(2);
    // The demo patient, and the other patients of the reviews' history (demo/reviews.ts).
    expect(profiles.filter((p) => p.role === "patient" && !p.is_admin)).toHaveLength(12);
    expect(profiles.filter((p) => p.role === "dentist" && p.is_verified).map((p) => p.email)).toEqual(
      expect.arrayContaining(["dr.martin@demo.sourio.fr", "dr.leroy@demo.sourio.fr"]),
    );
    const waiting = profiles.find((p) => p.email === "dr.bernard@demo.sourio.fr");
    expect(waiting).toMatchObject({ is_verified: false, practice_postcode: "13001" });
    expect(daysAgo(waiting?.verification_requested_at as Date)).toBe(2);
    const adminId = profiles.find((p) => p.email === "admin@demo.sourio.fr")?.id;
    const granted = await demo.app.db
      .selectFrom("audit_log")
      .select(["actor_id", "subject_id"])
      .where("action", "=", "verification.granted")
      .execute();
    expect(granted).toHaveLength(2);
    for (const row of granted) expect(row.actor_id).toBe(adminId);
    // The audit list dates each request when it was made, not at the seeding: the day before its
    // decision, or when the waiting dentist's profile says he asked.
    const requested = await demo.app.db
      .selectFrom("audit_log as l")
      .innerJoin("profiles as p", "p.id", "l.actor_id")
      .select(["p.email", "l.created_at", "p.verification_requested_at", "p.verification_decided_at"])
      .where("l.action", "=", "verification.requested")
      .execute();
    expect(requested).toHaveLength(3);
    for (const row of requested) {
      const asked = new Date(row.created_at).getTime();
      if (row.verification_decided_at)
        expect(new Date(row.verification_decided_at).getTime() - asked, row.email).toBe(DAY);
      else expect(asked, row.email).toBe(new Date(row.verification_requested_at as Date).getTime());
    }
  });

  it("files the requests as the form does: documents stored encrypted, no devis queued, no e-mail", async () => {
    const requests = await ownRequests().select("r.status").execute();
    expect(requests.map((r) => r.status).sort()).toEqual([
      "accepted",
      "cancelled",
      "in_review",
      "in_review",
      "new",
    ]);
    const implant = await requestOf("implant");
    expect(implant.documents.map((d: { file_name: string }) => d.file_name)).toEqual([
      "devis-implant-dr-roux.pdf",
      "radio-panoramique.png",
    ]);
    const file = await get("patient@demo.sourio.fr", `/api/documents/${implant.documents[0].id}/file`);
    expect(file.headers["content-type"]).toContain("application/pdf");
    expect(file.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // A devis as a practice prints one, which « Lire ce devis » reads (devis-document.ts), not a blank page.
    const read = await readQuote(file.rawPayload, { mime: "application/pdf" });
    expect(read.result.lines.map((line) => [line.tooth, line.code, line.fee_cents])).toEqual([
      [36, "LBLD015", 1600_00],
      [36, "HBLD418", 800_00],
    ]);
    expect(read.result.total_cents).toBe(implant.quote_amount_cents);
    const keys = await demo.app.db.selectFrom("documents").select("storage_key").execute();
    expect(keys).toHaveLength(7);
    for (const { storage_key } of keys)
      expect(demo.storedFile(storage_key).subarray(0, 5).toString()).not.toBe("%PDF-");
    expect(await demo.app.db.selectFrom("quote_readings").select("id").execute()).toEqual([]);
    // None from the seeding; this test's own sign-ins are a browser new to each account (ADR 082).
    const ownSignIns = (mail: string) => mail.includes("appareil qui ne s'y était pas encore connecté");
    expect((await demo.mails()).filter((mail) => !ownSignIns(mail))).toEqual([]);
  });

  it("dates what happened days ago: requests, replies then offers in the chats, reads of the documents", async () => {
    const list = await patientGet("/api/patient/requests");
    expect(
      list.items
        .map((r: { treatment_type: string }) => r.treatment_type)
        .filter((t: string) => !HISTORY_TREATMENTS.includes(t)),
    ).toEqual(["crown", "implant", "bridge", "veneer", "whitening"]);
    const implant = await requestOf("implant");
    expect(daysAgo(implant.documents[0].created_at)).toBe(3);
    // The consent was given as the request was sent, not on the day the demo data were seeded.
    expect(implant.consent.given_at).toBe(implant.created_at);
    expect(daysAgo(implant.consent.given_at)).toBe(3);
    expect(
      implant.access_log.map((a: { actor_name: string; action: string; created_at: string }) => [
        a.actor_name,
        a.action,
        daysAgo(a.created_at),
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["Sophie Leroy", "view", 2],
        ["Julien Martin", "download", 1],
      ]),
    );
    const chats = await patientGet("/api/conversations?search=Martin&limit=50");
    const chat = chats.items.find((c: { treatment_type: string }) => c.treatment_type === "implant");
    const messages = await patientGet(`/api/conversations/${chat.id}/messages`);
    const bodies = messages.items.map((m: { body: string }) => m.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatch(/^Bonjour Madame Dupont, j'ai étudié votre radio panoramique/);
    expect(bodies[1]).toMatch(/^Proposition de devis\u202f: 1\s850,00\s€/);
    for (const m of messages.items) expect(daysAgo(m.created_at)).toBe(1);
  });

  it("has each dentist open the request before reading its documents or answering it, as the product records it", async () => {
    // Every request of the demo: Marie Dupont's, her past ones and the other patients'.
    const requests = await demo.app.db.selectFrom("requests as r").select("r.id").execute();
    const reads = await demo.app.db
      .selectFrom("document_access as a")
      .innerJoin("profiles as p", "p.id", "a.actor_id")
      .select(["a.request_id", "p.email", "a.action", "a.created_at"])
      .where(
        "a.request_id",
        "in",
        requests.map((r) => r.id),
      )
      .execute();
    const replies = await demo.app.db
      .selectFrom("request_dentists as rd")
      .innerJoin("profiles as p", "p.id", "rd.dentist_id")
      .select(["rd.request_id", "p.email", "rd.opened_at", "rd.replied_at"])
      .where(
        "rd.request_id",
        "in",
        requests.map((r) => r.id),
      )
      .execute();
    // The past ones (hers: a root canal, a denture; the other patients'): answered by an offer alone.
    const offers = await demo.app.db
      .selectFrom("offers as o")
      .innerJoin("profiles as p", "p.id", "o.dentist_id")
      .select(["o.request_id", "p.email", "o.created_at"])
      .where(
        "o.request_id",
        "in",
        requests.map((r) => r.id),
      )
      .execute();
    // What each dentist did on a request: replied, made an offer, read a document.
    const acts = [
      ...replies.filter((r) => r.replied_at).map((r) => ({ ...r, at: r.replied_at as Date, what: "reply" })),
      ...offers.map((o) => ({ ...o, at: o.created_at, what: "offer" })),
      ...reads
        .filter((r) => r.action !== "request_view")
        .map((r) => ({ ...r, at: r.created_at, what: r.action })),
    ];
    expect(acts.length).toBeGreaterThanOrEqual(6);
    for (const act of acts) {
      const label = `${act.email} ${act.what} ${act.request_id}`;
      const opened = reads.filter(
        (r) => r.request_id === act.request_id && r.email === act.email && r.action === "request_view",
      );
      const first = Math.min(...opened.map((r) => new Date(r.created_at).getTime()));
      expect(first, label).toBeLessThan(new Date(act.at).getTime());
      const row = replies.find((r) => r.request_id === act.request_id && r.email === act.email);
      expect(new Date(row?.opened_at as Date).getTime(), label).toBe(first);
    }
    // The patient sees them; Dr Martin no longer sees the bridge he read as 'Nouvelle'.
    const crown = await requestOf("crown");
    expect(
      crown.access_log.map((a: { actor_name: string; action: string; created_at: string }) => [
        a.actor_name,
        a.action,
        daysAgo(a.created_at),
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["Sophie Leroy", "request_view", 1],
        ["Julien Martin", "request_view", 1],
      ]),
    );
    const martin = (await get("dr.martin@demo.sourio.fr", "/api/dentist/requests?treatment=bridge")).json();
    expect(martin.items).toHaveLength(1);
    expect(martin.items[0]).toMatchObject({ my_status: "pending", is_new: false });
  });

  it("has each patient read the dentist's messages before accepting his offer: no finished treatment « non lu », nothing e-mailed for it", async () => {
    const unreadBeforeAccepting = await demo.app.db
      .selectFrom("offers as o")
      .innerJoin("conversations as c", (join) =>
        join.onRef("c.request_id", "=", "o.request_id").onRef("c.dentist_id", "=", "o.dentist_id"),
      )
      .innerJoin("messages as m", "m.conversation_id", "c.id")
      .select(["o.id", "m.created_at"])
      .where("o.status", "=", "accepted")
      .whereRef("m.sender_id", "=", "c.dentist_id")
      .whereRef("m.created_at", "<=", "o.decided_at")
      .where("m.read_at", "is", null)
      .execute();
    expect(unreadBeforeAccepting).toEqual([]);
    const accepted = await demo.app.db
      .selectFrom("offers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "accepted")
      .executeTakeFirstOrThrow();
    expect(Number(accepted.n)).toBeGreaterThanOrEqual(30);
  });

  it("sends at its first mail run none of the e-mails its history called for days ago; its unread messages stay unread", async () => {
    // Without the seed's claim: the patient e-mailed about four conversations of days ago, and invited
    // to review an appointment of last week, by the first run after a first start.
    const before = (await demo.mails()).length;
    await runMailJobs(demo.app);
    // What falls due at a time of day (the dentists' morning e-mail from 8:00, offers about to expire
    // from 9:00) may go out if that hour passed since the seed; nothing about its history may.
    const stale = [
      "/patient/messages",
      "/dentist/messages",
      "/patient/reviews/new/",
      "/dentist/subscription",
    ];
    const sent = (await demo.mails())
      .slice(before)
      .filter((mail) => stale.some((path) => mail.includes(path)));
    expect(sent.map((mail) => /^Subject: ([^\r\n]*)/m.exec(mail)?.[1])).toEqual([]);
    const unread = await demo.app.db
      .selectFrom("conversations as c")
      .innerJoin("profiles as p", "p.id", "c.patient_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("p.email", "=", "patient@demo.sourio.fr")
      .where("c.patient_unread", ">", 0)
      .executeTakeFirstOrThrow();
    expect(Number(unread.n)).toBeGreaterThan(0);
  });

  it("has each past root canal and denture, and its offer, speak of its own treatment, not of a crown", async () => {
    const words: Record<string, RegExp> = { rootcanal: /canal|dévitalis/i, denture: /prothèse/i };
    const offers = await demo.app.db
      .selectFrom("offers as o")
      .innerJoin("requests as r", "r.id", "o.request_id")
      .select(["r.treatment_type", "r.description", "o.comment"])
      .where("r.treatment_type", "in", Object.keys(words))
      .execute();
    expect(new Set(offers.map((o) => o.treatment_type))).toEqual(new Set(Object.keys(words)));
    for (const offer of offers) {
      const expected = words[offer.treatment_type] as RegExp;
      expect(offer.comment, offer.treatment_type).toMatch(expected);
      expect(offer.description, offer.treatment_type).toMatch(expected);
      expect(`${offer.comment} ${offer.description}`, offer.treatment_type).not.toMatch(/couronne/i);
    }
  });

  it("dates each account's sign-up before what it did: its requests, its offers, its verification asked for", async () => {
    const admin = "admin@demo.sourio.fr";
    const users = async (role: "patient" | "dentist") =>
      (await get(admin, `/api/admin/users?role=${role}&page_size=50`)).json().items as Array<{
        email: string;
        created_at: string;
      }>;
    const firstAct = async (id: string) => {
      const [request, offer] = await Promise.all([
        demo.app.db
          .selectFrom("requests")
          .select((e) => e.fn.min("created_at").as("at"))
          .where("patient_id", "=", id)
          .executeTakeFirst(),
        demo.app.db
          .selectFrom("offers")
          .select((e) => e.fn.min("created_at").as("at"))
          .where("dentist_id", "=", id)
          .executeTakeFirst(),
      ]);
      return [request?.at, offer?.at].filter((at) => at != null).map((at) => new Date(at as Date).getTime());
    };
    const demoUsers = [...(await users("patient")), ...(await users("dentist"))].filter((u) =>
      u.email.endsWith("@demo.sourio.fr"),
    );
    expect(demoUsers).toHaveLength(15);
    for (const user of demoUsers) {
      const profile = await demo.app.db
        .selectFrom("profiles")
        .select(["id", "verification_requested_at", "verification_decided_at"])
        .where("email", "=", user.email)
        .executeTakeFirstOrThrow();
      const acts = await firstAct(profile.id);
      // Asked for and pending, or decided (the decision clears the request).
      for (const at of [profile.verification_requested_at, profile.verification_decided_at])
        if (at) acts.push(new Date(at).getTime());
      expect(acts.length, user.email).toBeGreaterThan(0);
      expect(Date.parse(user.created_at), user.email).toBeLessThan(Math.min(...acts));
    }
    // Dr Bernard asked for his verification two days ago; the demo patient's first request is weeks old.
    const signedUpDaysAgo = (email: string) =>
      daysAgo(demoUsers.find((u) => u.email === email)?.created_at ?? "");
    expect(signedUpDaysAgo("dr.bernard@demo.sourio.fr")).toBe(3);
    expect(signedUpDaysAgo("patient@demo.sourio.fr")).toBeGreaterThan(7);
    // Dr Martin asked 30 days ago and was verified the day after.
    expect(signedUpDaysAgo("dr.martin@demo.sourio.fr")).toBe(31);
    // The administrator who verified the dentists, before everyone.
    const team = await demo.app.db
      .selectFrom("profiles")
      .select("created_at")
      .where("email", "=", admin)
      .executeTakeFirstOrThrow();
    expect(new Date(team.created_at).getTime()).toBeLessThan(
      Math.min(...demoUsers.map((u) => Date.parse(u.created_at))),
    );
  });

  it("shows offers to compare, the crown's comparison by reste à charge and the coming appointment", async () => {
    const implant = await requestOf("implant");
    expect(implant.offers.map((o: { amount_cents: number }) => o.amount_cents).sort()).toEqual([
      185_000, 204_000,
    ]);
    expect(implant.offers[0].slots.length).toBeGreaterThan(0);
    const offers = await ownRequests()
      .innerJoin("offers as o", "o.request_id", "r.id")
      .select("o.status")
      .execute();
    expect(offers.map((o) => o.status).sort()).toEqual(["accepted", "sent", "sent", "sent", "sent"]);
    // The crown request: the patient's devis line by line, her mutuelle, two offers to compare by
    // reste à charge: Dr Leroy's zirconia molar crown first, 100 % Santé since 2026 (0 €), then Dr Martin's
    // ceramo-metal crown at a lower fee than the devis. Worked out at 200 % of the BR, RO inclus:
    // devis 750 − 240 = 510 € + inlay-core 220 − 180 = 40 € → 550 €; Dr Martin 620 − 240 = 380 € + 20 € →
    // 400 €, a saving of 150 €.
    const crown = await requestOf("crown");
    const compared = await patientGet(`/api/patient/requests/${crown.id}/comparison`);
    expect(compared.cover).toMatchObject({ percent_of_br: 200, ro_included: true });
    expect(compared.original.lines.map((l: { code: string }) => l.code)).toEqual(["HBLD734", "HBLD245"]);
    expect(compared.original.total.rest_cents).toBe(550_00);
    expect(compared.offers).toHaveLength(2);
    expect(compared.offers[0].estimate).toMatchObject({ all_sante: true, total: { rest_cents: 0 } });
    expect(compared.offers[0].estimate.lines[0]).toMatchObject({ code: "HBLD073", basket: "100_sante" });
    expect(compared.offers[0].saving_cents).toBe(550_00);
    expect(compared.offers[1].estimate.total.rest_cents).toBe(400_00);
    expect(compared.offers[1].saving_cents).toBe(150_00);
    // The accepted offer has a confirmed appointment ahead, on both sides' lists, with its reminders.
    const upcoming = await patientGet("/api/appointments");
    expect(upcoming.items).toHaveLength(1);
    expect(upcoming.items[0]).toMatchObject({
      status: "confirmed",
      view: "confirmed",
      treatment_type: "whitening",
    });
    const forLeroy = (await get("dr.leroy@demo.sourio.fr", "/api/appointments")).json();
    expect(forLeroy.items.map((a: { id: string }) => a.id)).toEqual([upcoming.items[0].id]);
    const reminders = await demo.app.db
      .selectFrom("appointment_reminders")
      .select("kind")
      .where("appointment_id", "=", upcoming.items[0].id)
      .execute();
    expect(reminders.map((r) => r.kind).sort()).toEqual(["1d", "7d"]);
  });
});

describe("demo reviews and public figures (issue 36)", () => {
  let demo: TestContext;
  beforeAll(async () => {
    demo = await createTestContext();
    await seedDemoData(demo.app, sendScheduledEmails);
  });
  afterAll(() => demo.close());
  const login = async (email: string) => {
    const response = await demo.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email, password: DEMO_PASSWORD },
    });
    return sessionCookie(response);
  };
  const get = async (cookie: string, url: string) =>
    (await demo.app.inject({ method: "GET", url, headers: { cookie } })).json();

  it("shows every public figure, each measured on enough cases", async () => {
    const stats = (await demo.app.inject({ method: "GET", url: "/api/public/stats" })).json();
    expect(stats.patients).toBeGreaterThanOrEqual(10);
    expect(stats.first_offer_hours?.sample).toBeGreaterThanOrEqual(30);
    expect(stats.saving?.sample).toBeGreaterThanOrEqual(30);
    expect(stats.verified_dentists).toBe(2);
    expect(stats.rating?.sample).toBeGreaterThanOrEqual(30);
  });

  it("has the other patients live near Paris or Bordeaux: Dr Martin's list filtered by distance finds his own (ADR 094)", async () => {
    const martin = await login("dr.martin@demo.sourio.fr");
    const all = await get(martin, "/api/dentist/requests?page_size=50");
    const near = await get(martin, "/api/dentist/requests?page_size=50&within_km=25");
    expect(all.distance_filter).toBe(true);
    expect(near.items.length).toBeGreaterThan(0);
    expect(near.items.length).toBeLessThan(all.items.length);
    for (const row of near.items) expect(row.distance_km).toBeLessThanOrEqual(25);
    // The demo patient lives in Lyon, 393 km away: not in it.
    expect(all.items.some((row: { distance_km: number | null }) => (row.distance_km ?? 0) > 300)).toBe(true);
  });

  it("gives the demo patient one answered review and one invitation, the team one review to moderate", async () => {
    const patient = await login("patient@demo.sourio.fr");
    const mine = await get(patient, "/api/patient/reviews");
    expect(mine.reviews).toHaveLength(1);
    expect(mine.reviews[0]).toMatchObject({ status: "published", author: "Marie D., patiente vérifiée" });
    expect(mine.reviews[0].answer).toBeTruthy();
    expect(mine.invitations).toHaveLength(1);
    expect(mine.invitations[0].dentist.full_name).toBe("Sophie Leroy");
    const admin = await login("admin@demo.sourio.fr");
    expect((await get(admin, "/api/admin/reviews")).items).toHaveLength(1);
    // Both verified dentists have a rating on the implant offers she compares.
    const list = await get(patient, "/api/patient/requests");
    const implant = list.items.find((r: { treatment_type: string }) => r.treatment_type === "implant");
    const detail = await get(patient, `/api/patient/requests/${implant.id}`);
    for (const offer of detail.offers) expect(offer.dentist.rating.count).toBeGreaterThan(0);
  });
});

describe("demo data elsewhere", () => {
  it("leaves a database in use alone: requests and no demo account", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const created = await postRequest(ctx.app, cookie, { treatment_type: "crown", consent: "true" });
    expect(created.statusCode, created.body).toBe(201);
    const seed = await seedDemoData(ctx.app, sendScheduledEmails);
    expect(seed).toEqual({ outcome: "skipped", accounts: [] });
    const demoUsers = await ctx.app.db
      .selectFrom("users")
      .select("email")
      .where("email", "like", "%@demo.sourio.fr")
      .execute();
    expect(demoUsers).toEqual([]);
    const text = demoStartupText(seed, "http://localhost:3000");
    expect(text).not.toContain("@demo.sourio.fr");
    expect(text).not.toContain("déjà présentes");
  });

  it("prints only the demo logins that exist", () => {
    const [admin, patient] = DEMO_ACCOUNTS;
    const text = demoStartupText(
      { outcome: "present", accounts: [admin, patient].filter((a) => a !== undefined) },
      "http://localhost:3000",
    );
    expect(text).toContain(admin?.email);
    expect(text).toContain(patient?.email);
    for (const account of DEMO_ACCOUNTS.slice(2)) expect(text).not.toContain(account.email);
  });
});
