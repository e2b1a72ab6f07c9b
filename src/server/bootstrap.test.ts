import { describe, expect, it } from "vitest";
import { ensureAdmin } from "./bootstrap";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoStartupText, seedDemoData } from "./demo";
import {
  appPerFile,
  createTestContext,
  postRequest,
  sessionCookie,
  signUpPatient,
  type TestContext,
} from "./testing/harness";

const ctx = appPerFile();

const login = (email: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/account/login", payload: { email, password } });
const deps = () => ({ db: ctx.app.db, auth: ctx.app.auth });

describe("ensureAdmin", () => {
  it("creates an admin who can log in, and records it in the audit log", async () => {
    expect(await ensureAdmin(deps(), "Boss@Example.com", "admin-secret")).toBe("created");
    const response = await login("boss@example.com", "admin-secret");
    expect(response.statusCode).toBe(200);
    expect(response.json().profile.is_admin).toBe(true);
    const audit = await ctx.app.db
      .selectFrom("audit_log")
      .selectAll()
      .where("subject_id", "=", response.json().profile.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain("admin.ensured");
  });

  it("promotes an existing account and sets its password", async () => {
    const { body } = await signUpPatient(ctx.app);
    expect(await ensureAdmin(deps(), String(body.email), "new-admin-pass")).toBe("updated");
    const response = await login(String(body.email), "new-admin-pass");
    expect(response.json().profile).toMatchObject({ is_admin: true, first_name: "Marie" });
  });
});

async function demoLogin(context: TestContext, email: string) {
  const response = await context.app.inject({
    method: "POST",
    url: "/api/account/login",
    payload: { email, password: DEMO_PASSWORD },
  });
  return response.statusCode === 200 ? sessionCookie(response) : undefined;
}

describe("demo data", () => {
  it("seeds the demo on a first start with ADMIN_EMAIL, once, and prints the logins that exist", async () => {
    const empty = await createTestContext();
    try {
      const seedDeps = { db: empty.app.db, auth: empty.app.auth, storage: empty.app.storage };
      // server.ts's order: ADMIN_EMAIL's administrator first, then the demo seed.
      expect(await ensureAdmin(seedDeps, "chef@example.com", "admin-secret")).toBe("created");
      const first = await seedDemoData(seedDeps);
      expect(first.outcome).toBe("created");
      expect(first.accounts.map((a) => a.email)).toEqual(DEMO_ACCOUNTS.map((a) => a.email));
      const firstText = demoStartupText(first, "http://localhost:3000");
      expect(firstText).toContain("Données de démonstration créées.");
      for (const account of DEMO_ACCOUNTS) expect(firstText).toContain(account.email);
      // A restart: the demo is there already, and said so with the same logins.
      const again = await seedDemoData(seedDeps);
      expect(again).toEqual({ outcome: "present", accounts: first.accounts });
      expect(demoStartupText(again, "http://localhost:3000")).toContain(
        "Données de démonstration déjà présentes.",
      );
      const admin = await empty.app.inject({
        method: "POST",
        url: "/api/account/login",
        payload: { email: "chef@example.com", password: "admin-secret" },
      });
      expect(admin.statusCode).toBe(200);
      expect(admin.json().profile.is_admin).toBe(true);
      const profiles = await empty.app.db.selectFrom("profiles").selectAll().execute();
      expect(profiles.filter((p) => p.is_admin)).toHaveLength(2);
      expect(profiles.filter((p) => p.role === "patient" && !p.is_admin)).toHaveLength(1);
      expect(profiles.filter((p) => p.role === "dentist" && p.is_verified)).toHaveLength(2);
      expect(profiles.filter((p) => p.role === "dentist" && !p.is_verified)).toHaveLength(1);
      expect(
        profiles.find((p) => p.email === "dr.bernard@demo.sourio.fr")?.verification_requested_at,
      ).not.toBeNull();
      const requests = await empty.app.db.selectFrom("requests").select(["status", "patient_id"]).execute();
      expect(new Set(requests.map((r) => r.status))).toEqual(
        new Set(["new", "in_review", "accepted", "cancelled"]),
      );
      // Offers (ADR 008): two to compare on the implant request, two structured ones on the crown request
      // (issue 15), one accepted on the finished one.
      const offers = await empty.app.db.selectFrom("offers").select(["status", "valid_until"]).execute();
      expect(offers.map((o) => o.status).sort()).toEqual(["accepted", "sent", "sent", "sent", "sent"]);
      const patient = (await demoLogin(empty, "patient@demo.sourio.fr")) as string;
      const list = (
        await empty.app.inject({ method: "GET", url: "/api/patient/requests", headers: { cookie: patient } })
      ).json();
      const implant = list.items.find((r: { treatment_type: string }) => r.treatment_type === "implant");
      const detail = (
        await empty.app.inject({
          method: "GET",
          url: `/api/patient/requests/${implant.id}`,
          headers: { cookie: patient },
        })
      ).json();
      expect(detail.offers.map((o: { amount_cents: number }) => o.amount_cents).sort()).toEqual([
        185_000, 204_000,
      ]);
      expect(detail.offers[0].slots.length).toBeGreaterThan(0);
      // The crown request: the patient's devis line by line, her mutuelle, two offers to compare by
      // reste à charge, the 100 % Santé one first.
      const crown = list.items.find((r: { treatment_type: string }) => r.treatment_type === "crown");
      const compared = (
        await empty.app.inject({
          method: "GET",
          url: `/api/patient/requests/${crown.id}/comparison`,
          headers: { cookie: patient },
        })
      ).json();
      expect(compared.cover).toMatchObject({ percent_of_br: 200, ro_included: true });
      expect(compared.original.lines.map((l: { code: string }) => l.code)).toEqual(["HBLD734", "HBLD090"]);
      expect(compared.offers).toHaveLength(2);
      expect(compared.offers[0].estimate).toMatchObject({ all_sante: true, total: { rest_cents: 0 } });
      expect(compared.offers[1].saving_cents).toBeGreaterThan(0);
      // The accepted offer has a confirmed appointment ahead, on both sides' lists, with its reminders.
      const upcoming = (
        await empty.app.inject({ method: "GET", url: "/api/appointments", headers: { cookie: patient } })
      ).json();
      expect(upcoming.items).toHaveLength(1);
      expect(upcoming.items[0]).toMatchObject({
        status: "confirmed",
        view: "confirmed",
        treatment_type: "whitening",
      });
      const leroy = (await demoLogin(empty, "dr.leroy@demo.sourio.fr")) as string;
      const forLeroy = (
        await empty.app.inject({ method: "GET", url: "/api/appointments", headers: { cookie: leroy } })
      ).json();
      expect(forLeroy.items.map((a: { id: string }) => a.id)).toEqual([upcoming.items[0].id]);
      const reminders = await empty.app.db.selectFrom("appointment_reminders").select("kind").execute();
      expect(reminders.map((r) => r.kind).sort()).toEqual(["1d", "7d"]);
      const documents = await empty.app.db.selectFrom("documents").select("storage_key").execute();
      for (const { storage_key } of documents)
        expect(await empty.app.storage.size(storage_key)).toBeGreaterThan(0);
      for (const account of DEMO_ACCOUNTS) {
        const response = await empty.app.inject({
          method: "POST",
          url: "/api/account/login",
          payload: { email: account.email, password: DEMO_PASSWORD },
        });
        expect(response.statusCode, account.email).toBe(200);
      }
    } finally {
      await empty.close();
    }
  });

  it("leaves a database in use alone: requests and no demo account", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    const created = await postRequest(ctx.app, cookie, { treatment_type: "crown", consent: "true" });
    expect(created.statusCode, created.body).toBe(201);
    const seed = await seedDemoData({ ...deps(), storage: ctx.app.storage });
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
