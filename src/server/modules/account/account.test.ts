import { describe, expect, it } from "vitest";
import {
  appPerFile,
  createTestContext,
  sessionCookie,
  signUpDentist,
  signUpPatient,
  uniqueEmail,
} from "../../testing/harness";
import { accountWorkSettled, RESET_LINKS_PER_HOUR } from "./account.service";

const ctx = appPerFile({
  env: { LOGIN_RATE_LIMIT_PER_ACCOUNT: "5", LOGIN_RATE_LIMIT_PER_IP: "1000" },
});

const post = (url: string, payload: unknown, cookie?: string) =>
  ctx.app.inject({ method: "POST", url, payload: payload as object, headers: cookie ? { cookie } : {} });
const me = (cookie?: string) =>
  ctx.app.inject({ method: "GET", url: "/api/me", headers: cookie ? { cookie } : {} });

describe("patient sign-up", () => {
  it("creates the account and its profile, signs in, trims and derives the names", async () => {
    const { response, body, cookie } = await signUpPatient(ctx.app, {
      first_name: "  Marie ",
      last_name: " Dupont  ",
    });
    expect(response.statusCode).toBe(201);
    const profile = response.json().profile;
    expect(profile).toMatchObject({
      email: body.email,
      role: "patient",
      first_name: "Marie",
      last_name: "Dupont",
      full_name: "Marie Dupont",
      is_admin: false,
      is_verified: false,
      phone_number: null,
      city: null,
    });
    const meResponse = await me(cookie);
    expect(meResponse.statusCode).toBe(200);
    expect(meResponse.json().profile.id).toBe(profile.id);
  });

  it("sets an httpOnly, SameSite=Lax session cookie", async () => {
    const { response } = await signUpPatient(ctx.app);
    const cookie = (response.cookies as Array<Record<string, unknown>>).find((c) =>
      String(c.name).endsWith("session_token"),
    );
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(String(cookie?.sameSite).toLowerCase()).toBe("lax");
    expect(cookie?.path).toBe("/");
  });

  it("refuses blank names after trimming with the French message", async () => {
    const { response } = await signUpPatient(ctx.app, { first_name: "   " });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Veuillez remplir tous les champs",
      fields: { first_name: "Veuillez remplir tous les champs" },
    });
  });

  it("refuses a password shorter than 8 characters", async () => {
    const { response } = await signUpPatient(ctx.app, { password: "Ab1!x" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe("Le mot de passe doit contenir au moins 8 caractères");
  });

  it("refuses an invalid e-mail", async () => {
    const { response } = await signUpPatient(ctx.app, { email: "pas-un-email" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.email).toBe("Veuillez saisir une adresse e-mail valide");
  });

  it("refuses an e-mail already used, whatever its case", async () => {
    const first = await signUpPatient(ctx.app);
    const again = await signUpPatient(ctx.app, { email: String(first.body.email).toUpperCase() });
    expect(again.response.statusCode).toBe(409);
    expect(again.response.json().error).toMatchObject({
      code: "EMAIL_TAKEN",
      message: "Cet e-mail est déjà utilisé",
    });
  });

  it("normalises an unknown role to patient and never grants admin or verification", async () => {
    const { response } = await signUpPatient(ctx.app, { role: "admin", is_admin: true, is_verified: true });
    expect(response.statusCode).toBe(201);
    expect(response.json().profile).toMatchObject({ role: "patient", is_admin: false, is_verified: false });
    const row = await ctx.database.db
      .selectFrom("profiles")
      .select(["role", "is_admin", "is_verified"])
      .where("id", "=", response.json().profile.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "patient", is_admin: false, is_verified: false });
  });
});

describe("dentist sign-up", () => {
  it("creates an unverified dentist with city and phone", async () => {
    const { response } = await signUpDentist(ctx.app, { is_verified: true, is_admin: true });
    expect(response.statusCode).toBe(201);
    expect(response.json().profile).toMatchObject({
      role: "dentist",
      city: "Paris",
      phone_number: "0142000001",
      is_verified: false,
      is_admin: false,
    });
  });

  it.each([
    [{ city: " " }, "city", "Veuillez remplir tous les champs obligatoires"],
    [{ phone_number: "" }, "phone_number", "Veuillez remplir tous les champs obligatoires"],
    [{ phone_number: "abc" }, "phone_number", "Ce numéro de téléphone n'est pas valide."],
    [{ phone_number: "12 34" }, "phone_number", "Ce numéro de téléphone n'est pas valide."],
    [
      { password_confirmation: "different" },
      "password_confirmation",
      "Les mots de passe ne correspondent pas",
    ],
    [{ accept_terms: false }, "accept_terms", "Vous devez accepter les conditions d'utilisation"],
    [
      { password: "123", password_confirmation: "123" },
      "password",
      "Le mot de passe doit contenir au moins 8 caractères",
    ],
  ])("refuses %o", async (overrides, field, message) => {
    const { response } = await signUpDentist(ctx.app, overrides);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[field]).toBe(message);
  });
});

describe("login and logout", () => {
  it("logs in with the right password and refuses a wrong one with the French message", async () => {
    const { body } = await signUpPatient(ctx.app);
    const ok = await post("/api/account/login", { email: body.email, password: body.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().profile.email).toBe(body.email);
    expect(sessionCookie(ok)).toContain("session_token=");

    const wrong = await post("/api/account/login", { email: body.email, password: "mauvais-mot" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toEqual({
      code: "INVALID_CREDENTIALS",
      message: "E-mail ou mot de passe incorrect",
    });

    const unknown = await post("/api/account/login", { email: uniqueEmail("nobody"), password: "whatever1" });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error.code).toBe("INVALID_CREDENTIALS");
  });

  it("without 'remember me' the cookie lasts the browser session; with it, 30 days", async () => {
    const { body } = await signUpPatient(ctx.app);
    const short = await post("/api/account/login", {
      email: body.email,
      password: body.password,
      remember_me: false,
    });
    const long = await post("/api/account/login", {
      email: body.email,
      password: body.password,
      remember_me: true,
    });
    const token = (r: typeof short) =>
      (r.cookies as Array<Record<string, unknown>>).find((c) => String(c.name).endsWith("session_token"));
    expect(token(short)?.maxAge).toBeUndefined();
    expect(token(short)?.expires).toBeUndefined();
    expect(Number(token(long)?.maxAge)).toBe(30 * 24 * 60 * 60);
  });

  it("logs out: the session no longer works", async () => {
    const { cookie } = await signUpPatient(ctx.app);
    expect((await me(cookie)).statusCode).toBe(200);
    const out = await post("/api/account/logout", {}, cookie);
    expect(out.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("answers /api/me with 401 and the error shape when signed out or with a forged cookie", async () => {
    const anonymous = await me();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("UNAUTHENTICATED");
    expect((await me("sourio.session_token=forged.value")).statusCode).toBe(401);
  });

  it("rate-limits repeated failures on one account from one address with a 429 and a French message", async () => {
    const { body } = await signUpPatient(ctx.app);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await post("/api/account/login", { email: body.email, password: "wrong-password" })).statusCode,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // From that address, without a trusted-device cookie, the right password waits too; the
    // other cases (other addresses, trusted browser, ceiling) are in login-throttle.test.ts.
    const blocked = await post("/api/account/login", { email: body.email, password: body.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe("RATE_LIMITED");
    expect(blocked.json().error.message).toBe(
      "Trop de tentatives de connexion. Veuillez réessayer dans quelques minutes.",
    );
  });

  it("marks the browser as a trusted device of the account at sign-up and login (httpOnly, Lax, a year)", async () => {
    const { response, body } = await signUpPatient(ctx.app);
    const ok = await post("/api/account/login", { email: body.email, password: body.password });
    for (const r of [response, ok]) {
      const device = (r.cookies as Array<Record<string, unknown>>).find(
        (c) => c.name === "sourio.trusted_device",
      );
      expect(device).toMatchObject({ httpOnly: true, path: "/api/account", maxAge: 365 * 24 * 60 * 60 });
      expect(String(device?.sameSite).toLowerCase()).toBe("lax");
      expect(device?.secure).toBeUndefined();
      expect(String(device?.value)).toMatch(new RegExp(`^${response.json().profile.id}\\.`));
    }
  });
});

describe("a sign-in from a browser new to the account (ADR 082)", () => {
  const CHROME_ON_WINDOWS =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  const logIn = (body: Record<string, unknown>, cookie?: string) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: body.email, password: body.password },
      headers: { "user-agent": CHROME_ON_WINDOWS, ...(cookie ? { cookie } : {}) },
    });
  const trustedCookie = (response: { cookies: unknown }) => {
    const device = (response.cookies as Array<{ name: string; value: string }>).find(
      (c) => c.name === "sourio.trusted_device",
    );
    expect(device).toBeDefined();
    return `sourio.trusted_device=${device?.value}`;
  };
  const newSignInMailsTo = async (email: unknown) =>
    (await ctx.mails()).filter(
      (mail) =>
        mail.includes(`To: ${email}`) &&
        mail.includes("vient d'être ouvert sur un appareil qui ne s'y était pas encore connecté"),
    );

  it("tells the owner of a sign-in from a browser that never signed in, not from the one that did", async () => {
    const { response: signup, body } = await signUpPatient(ctx.app, { first_name: "Inès" });
    // Signing up signs in, on the browser that now holds the account's cookie: nothing to tell.
    expect(await newSignInMailsTo(body.email)).toHaveLength(0);
    // Her usual browser (the cookie of the sign-up) signs in again: nothing either.
    expect((await logIn(body, trustedCookie(signup))).statusCode).toBe(200);
    expect(await newSignInMailsTo(body.email)).toHaveLength(0);

    // Another browser: one e-mail, what and when, and where to end that session.
    const elsewhere = await logIn(body);
    expect(elsewhere.statusCode).toBe(200);
    const mails = await newSignInMailsTo(body.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0] ?? "";
    expect(mail).toContain("Bonjour Inès,");
    expect(mail).toContain("Chrome sur Windows");
    expect(mail).toContain("http://localhost:3000/patient/profile#securite");
    expect(mail).toContain("http://localhost:3000/forgot-password");
    // Never the password, the address it came from or the session's token.
    expect(mail).not.toContain(String(body.password));
    expect(mail).not.toContain("127.0.0.1");

    // That browser holds the account's cookie now: its next sign-in is not news.
    expect((await logIn(body, trustedCookie(elsewhere))).statusCode).toBe(200);
    expect(await newSignInMailsTo(body.email)).toHaveLength(1);
  });

  it("counts a browser trusted by another account as new, and tells no one of a failed attempt", async () => {
    const { response: otherSignup } = await signUpPatient(ctx.app);
    const { body } = await signUpDentist(ctx.app);
    const wrong = await ctx.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: body.email, password: "pas-le-bon-mot-de-passe" },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await newSignInMailsTo(body.email)).toHaveLength(0);

    expect((await logIn(body, trustedCookie(otherSignup))).statusCode).toBe(200);
    const mails = await newSignInMailsTo(body.email);
    expect(mails).toHaveLength(1);
    // A dentist's « Sécurité » and « Mot de passe oublié » are in his own area.
    expect(mails[0]).toContain("http://localhost:3000/dentist/profile#securite");
    expect(mails[0]).toContain("http://localhost:3000/dentist/forgot-password");
  });
});

describe("the cookies the privacy page names", () => {
  it("sets only the session's, the « Se souvenir de moi » one and the trusted device's", async () => {
    const names = new Set<string>();
    const collect = (response: { cookies: unknown }) => {
      // Those set, not those removed (the logout also clears Better Auth's ones it may have set).
      for (const c of response.cookies as Array<{ name: string; value: string }>)
        if (c.value !== "") names.add(c.name);
      return response;
    };
    const { response, body, cookie } = await signUpPatient(ctx.app);
    collect(response);
    for (const remember_me of [true, false])
      collect(await post("/api/account/login", { email: body.email, password: body.password, remember_me }));
    collect(await post("/api/account/logout", {}, cookie));
    // The privacy page (« Les données que nous collectons ») says what each is for: a new one goes there first.
    expect([...names].sort()).toEqual([
      "sourio.dont_remember",
      "sourio.session_token",
      "sourio.trusted_device",
    ]);
  });
});

describe("profile fallback", () => {
  it("gives a signed-in account without profile a patient profile named from the account", async () => {
    const { cookie, response } = await signUpDentist(ctx.app);
    const id = response.json().profile.id;
    await ctx.database.db.deleteFrom("profiles").where("id", "=", id).execute();
    const again = await me(cookie);
    expect(again.statusCode).toBe(200);
    expect(again.json().profile).toMatchObject({
      id,
      role: "patient",
      first_name: "Julien",
      last_name: "Martin",
    });
  });
});

describe("password reset", () => {
  it("answers the same neutral message for known and unknown e-mails and mails a one-time link", async () => {
    const { body } = await signUpPatient(ctx.app);
    const before = ctx.outbox().length;
    const known = await post("/api/account/forgot-password", { email: body.email, area: "dentist" });
    const unknown = await post("/api/account/forgot-password", { email: uniqueEmail("ghost") });
    // The e-mail goes after the answer (the same time for both addresses).
    await accountWorkSettled();
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    const mails = ctx.outbox().slice(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0] ?? "";
    expect(mail).toContain(`To: ${body.email}`);
    expect(mail).toContain("choisir un nouveau mot de passe");
    const link = mail.match(/http:\/\/localhost:3000\/reset-password\?token=([\w-]+)&area=dentist/);
    expect(link).not.toBeNull();
    const token = link?.[1] ?? "";

    const tooShort = await post("/api/account/reset-password", { token, password: "123" });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().error.message).toBe("Le mot de passe doit contenir au moins 8 caractères");

    const reset = await post("/api/account/reset-password", { token, password: "nouveau-secret" });
    expect(reset.statusCode).toBe(200);
    // As after a change in « Sécurité », the owner is told (after the answer), with the way back in.
    await accountWorkSettled();
    const told = ctx
      .outbox()
      .filter((m) => m.includes(`To: ${body.email}`) && m.includes("avec le lien « Mot de passe oublié »"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("/forgot-password");
    const reused = await post("/api/account/reset-password", { token, password: "encore-autre" });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe("INVALID_TOKEN");

    expect(
      (await post("/api/account/login", { email: body.email, password: body.password })).statusCode,
    ).toBe(401);
    expect(
      (await post("/api/account/login", { email: body.email, password: "nouveau-secret" })).statusCode,
    ).toBe(200);
  });
});

describe("POST /api/account/reset-password/check", () => {
  const check = (token: unknown) => post("/api/account/reset-password/check", { token });
  const linkOf = async (email: string) => {
    const before = ctx.outbox().length;
    await post("/api/account/forgot-password", { email });
    await accountWorkSettled();
    return (
      ctx
        .outbox()
        .slice(before)
        .join("\n")
        .match(/reset-password\?token=([\w-]+)/)?.[1] ?? ""
    );
  };

  it("says whether a link still opens: alive, then used, voided by another, expired or unknown", async () => {
    const { body } = await signUpPatient(ctx.app);
    const first = await linkOf(String(body.email));
    const second = await linkOf(String(body.email));
    const alive = await check(first);
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toEqual({ valid: true });
    expect(alive.headers["cache-control"]).toBe("no-store");
    // Asking changes nothing: the link still sets the password.
    expect((await check(first)).json()).toEqual({ valid: true });
    expect(
      (await post("/api/account/reset-password", { token: first, password: "Nouveau-Sourire-2026" }))
        .statusCode,
    ).toBe(200);
    expect((await check(first)).json()).toEqual({ valid: false });
    expect((await check(second)).json()).toEqual({ valid: false });
    expect((await check("pas-un-lien-connu")).json()).toEqual({ valid: false });

    const third = await linkOf(String(body.email));
    expect((await check(third)).json()).toEqual({ valid: true });
    await ctx.database.db
      .updateTable("verifications")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("identifier", "=", `reset-password:${third}`)
      .execute();
    expect((await check(third)).json()).toEqual({ valid: false });
  });

  it("answers 400 in French, naming the field, without a token", async () => {
    const invalid = "Ce lien de réinitialisation n'est plus valide. Veuillez faire une nouvelle demande.";
    for (const [token, message] of [
      [undefined, "Ce champ est obligatoire."],
      ["", invalid],
      ["x".repeat(201), invalid],
    ] as const) {
      const response = await check(token);
      expect(response.statusCode, String(token)).toBe(400);
      expect(response.json().error.fields.token).toBe(message);
    }
    const wrongType = await check(42);
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.fields.token).toMatch(/^[A-Z]/);
  });
});

describe("password reset links made void by a new password", () => {
  /** A reset link mailed to this address: its token. */
  const linkFor = async (email: string) => {
    const before = ctx.outbox().length;
    expect((await post("/api/account/forgot-password", { email })).statusCode).toBe(200);
    await accountWorkSettled();
    const mail = ctx.outbox().slice(before).join("\n");
    const token = mail.match(/reset-password\?token=([\w-]+)/)?.[1];
    expect(token, mail).toBeTruthy();
    return token ?? "";
  };

  it("voids the other links sent within the hour once one of them is used", async () => {
    const { body } = await signUpPatient(ctx.app);
    const older = await linkFor(String(body.email));
    const newer = await linkFor(String(body.email));
    expect(
      (await post("/api/account/reset-password", { token: newer, password: "Nouveau-Sourire-2026" }))
        .statusCode,
    ).toBe(200);
    const stale = await post("/api/account/reset-password", {
      token: older,
      password: "Reprise-Du-Compte-2026",
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.code).toBe("INVALID_TOKEN");
    expect(
      (await post("/api/account/login", { email: body.email, password: "Nouveau-Sourire-2026" })).statusCode,
    ).toBe(200);
  });

  it("sends at most three links alive at once to one address, whatever the number of requests", async () => {
    const { body } = await signUpPatient(ctx.app);
    const before = ctx.outbox().length;
    for (let i = 0; i < RESET_LINKS_PER_HOUR + 2; i++) {
      const asked = await post("/api/account/forgot-password", { email: String(body.email).toUpperCase() });
      expect(asked.statusCode).toBe(200);
      await accountWorkSettled();
    }
    const sent = ctx
      .outbox()
      .slice(before)
      .filter((mail) => mail.includes(`To: ${body.email}`));
    expect(sent).toHaveLength(RESET_LINKS_PER_HOUR);
    // One used: the others are void (above), and a new one may be sent.
    const token = sent[0]?.match(/reset-password\?token=([\w-]+)/)?.[1] ?? "";
    expect(
      (await post("/api/account/reset-password", { token, password: "Nouveau-Sourire-2026" })).statusCode,
    ).toBe(200);
    await linkFor(String(body.email));
  });

  it("voids the links not used when the person changes the password in « Sécurité »", async () => {
    const { body, cookie } = await signUpPatient(ctx.app);
    const link = await linkFor(String(body.email));
    const changed = await post(
      "/api/account/password",
      {
        current_password: body.password,
        new_password: "Nouveau-Sourire-2026",
        new_password_confirmation: "Nouveau-Sourire-2026",
      },
      cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const stale = await post("/api/account/reset-password", {
      token: link,
      password: "Reprise-Du-Compte-2026",
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.code).toBe("INVALID_TOKEN");
  });
});

describe("Better Auth endpoints", () => {
  it("keeps its sign-up and sign-in endpoints closed (our routes enforce the rules)", async () => {
    const signUp = await post("/api/auth/sign-up/email", {
      email: uniqueEmail(),
      password: "secret123",
      name: "X",
    });
    expect(signUp.statusCode).toBe(404);
    const signIn = await post("/api/auth/sign-in/email", { email: uniqueEmail(), password: "secret123" });
    expect(signIn.statusCode).toBe(404);
  });
});

describe("behind https", () => {
  it("marks the session cookie Secure (and __Secure- prefixed)", async () => {
    const secure = await createTestContext({ env: { PUBLIC_URL: "https://sourio.example" } });
    try {
      const { response } = await signUpPatient(secure.app);
      expect(response.statusCode).toBe(201);
      const cookie = (response.cookies as Array<Record<string, unknown>>).find((c) =>
        String(c.name).endsWith("session_token"),
      );
      expect(cookie?.secure).toBe(true);
      expect(cookie?.httpOnly).toBe(true);
      expect(String(cookie?.name)).toMatch(/^__Secure-/);
      const device = (response.cookies as Array<Record<string, unknown>>).find(
        (c) => c.name === "__Secure-sourio.trusted_device",
      );
      expect(device?.secure).toBe(true);
      expect(device?.httpOnly).toBe(true);
    } finally {
      await secure.close();
    }
  });
});
