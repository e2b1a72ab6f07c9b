import { describe, expect, it } from "vitest";
import { PASSWORD_MESSAGES } from "../../../shared/password";
import { ACCOUNT_MESSAGES, TERMS_VERSION } from "../../../shared/schemas/account";
import { appPerFile, signUpDentist, signUpPatient } from "../../testing/harness";
import { accountWorkSettled } from "./account.service";

/** Issue 16: consent to the terms at sign-up, and the password rule on every path that sets one. */
const ctx = appPerFile({ env: { LOGIN_RATE_LIMIT_PER_IP: "1000" } });

const post = (url: string, payload: object, cookie?: string) =>
  ctx.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });

const termsOf = (id: string) =>
  ctx.database.db
    .selectFrom("profiles")
    .select(["terms_accepted_at", "terms_version"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("consent at sign-up", () => {
  it("refuses a patient sign-up without the consent, in French, naming the field, and creates nothing", async () => {
    for (const accept_terms of [undefined, false, "true", 1]) {
      const { response, body } = await signUpPatient(ctx.app, { accept_terms });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields.accept_terms).toBe(ACCOUNT_MESSAGES.patientTermsRequired);
      const user = await ctx.database.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", String(body.email))
        .executeTakeFirst();
      expect(user).toBeUndefined();
    }
  });

  it("stores the date and the version of the accepted terms, for patients and dentists", async () => {
    const before = Date.now();
    const patient = await signUpPatient(ctx.app);
    expect(patient.response.statusCode).toBe(201);
    const row = await termsOf(patient.response.json().profile.id);
    expect(row.terms_version).toBe(TERMS_VERSION);
    expect(row.terms_accepted_at?.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const dentist = await signUpDentist(ctx.app);
    expect(dentist.response.statusCode).toBe(201);
    expect((await termsOf(dentist.response.json().profile.id)).terms_version).toBe(TERMS_VERSION);
  });
});

describe("the password rule at sign-up", () => {
  it("refuses too short, too few classes and common passwords, in French on the field", async () => {
    const cases: Array<[string, string]> = [
      ["Ab1!x", PASSWORD_MESSAGES.tooShort],
      ["sourire123", PASSWORD_MESSAGES.classes],
      ["Password1!", PASSWORD_MESSAGES.common],
      ["azertyuiopqs", PASSWORD_MESSAGES.common],
    ];
    for (const [password, message] of cases) {
      const { response } = await signUpPatient(ctx.app, { password });
      expect(response.statusCode, password).toBe(400);
      expect(response.json().error.fields.password, password).toBe(message);
    }
    const dentist = await signUpDentist(ctx.app, {
      password: "Password1!",
      password_confirmation: "Password1!",
    });
    expect(dentist.response.statusCode).toBe(400);
    expect(dentist.response.json().error.fields.password).toBe(PASSWORD_MESSAGES.common);
  });

  it("refuses a password made of the person's own name", async () => {
    const { response } = await signUpPatient(ctx.app, {
      first_name: "Bérénice",
      last_name: "Lagrange",
      password: "Lagrange2026",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.password).toBe(PASSWORD_MESSAGES.common);
  });

  it("accepts 8 characters from 3 classes, or 12 and more of one kind", async () => {
    for (const password of ["Gq7#mZ2p", "soleil-rouge-matin", "Sourire-Sain-2026"]) {
      const { response } = await signUpPatient(ctx.app, { password });
      expect(response.statusCode, password).toBe(201);
    }
  });

  it("does not apply to login: an existing weak password still signs in", async () => {
    const { body } = await signUpPatient(ctx.app);
    // An account from before the rule: its password is set directly, as the old rule allowed.
    const hash = await (await import("../../password-hasher")).passwordHasher.hash("secret123");
    const user = await ctx.database.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", String(body.email))
      .executeTakeFirstOrThrow();
    await ctx.database.db
      .updateTable("accounts")
      .set({ password: hash })
      .where("user_id", "=", user.id)
      .execute();
    const login = await post("/api/account/login", { email: body.email, password: "secret123" });
    expect(login.statusCode).toBe(200);
  });
});

describe("the password rule on reset and change", () => {
  it("refuses a weak new password when resetting, and accepts a strong one", async () => {
    const { body } = await signUpPatient(ctx.app, { first_name: "Bérénice", last_name: "Lagrange" });
    const before = ctx.outbox().length;
    await post("/api/account/forgot-password", { email: body.email });
    await accountWorkSettled();
    const token =
      ctx
        .outbox()
        .slice(before)[0]
        ?.match(/reset-password\?token=([\w-]+)/)?.[1] ?? "";
    expect(token).not.toBe("");
    const weak = await post("/api/account/reset-password", { token, password: "motdepasse" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields.password).toBe(PASSWORD_MESSAGES.classes);
    const common = await post("/api/account/reset-password", { token, password: "Azerty123" });
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields.password).toBe(PASSWORD_MESSAGES.common);
    // Made of the person's own name, refused as at sign-up (accepted for someone else).
    const ownName = await post("/api/account/reset-password", { token, password: "Lagrange2026" });
    expect(ownName.statusCode).toBe(400);
    expect(ownName.json().error.fields.password).toBe(PASSWORD_MESSAGES.common);
    expect((await signUpPatient(ctx.app, { password: "Lagrange2026" })).response.statusCode).toBe(201);
    const ok = await post("/api/account/reset-password", { token, password: "Nouveau-Sourire-2026" });
    expect(ok.statusCode).toBe(200);
  });

  it("refuses a weak new password when changing it, and keeps the old one", async () => {
    const { body, cookie } = await signUpPatient(ctx.app);
    const change = (new_password: string) =>
      post(
        "/api/account/password",
        { current_password: body.password, new_password, new_password_confirmation: new_password },
        cookie,
      );
    const short = await change("abc");
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields.new_password).toBe(PASSWORD_MESSAGES.tooShort);
    const common = await change("Motdepasse1");
    expect(common.statusCode).toBe(400);
    expect(common.json().error.fields.new_password).toBe(PASSWORD_MESSAGES.common);
    const login = await post("/api/account/login", { email: body.email, password: body.password });
    expect(login.statusCode).toBe(200);
  });
});
