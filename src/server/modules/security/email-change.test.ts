import { describe, expect, it } from "vitest";
import { EMAIL_CHANGE_MESSAGES, SECURITY_MESSAGES } from "../../../shared/schemas/account";
import { ensureAdmin } from "../../bootstrap";
import { accountSecurityApp, CHROME_WINDOWS } from "../../testing/account-security";
import { signUpDentist, signUpPatient, uniqueEmail } from "../../testing/harness";
import { api } from "../../testing/people";
import { EMAIL_CHANGE_ACTIONS, EMAIL_CHANGE_LINK_MS } from "./email-change.service";

/** « Changer mon adresse e-mail » (ADR 083): POST /api/account/email, then the link's confirmation. */

const { ctx, clock, logIn, me, auditActions } = accountSecurityApp();

const { post } = api(ctx);
const askChange = (cookie: string | undefined, payload: object) =>
  post("/api/account/email", payload, cookie);
const confirm = (token: string) => post("/api/account/email/confirm", { token });

/** The e-mails sent to this address, decoded. */
const mailsTo = async (email: string) =>
  (await ctx.mails()).filter((mail) => mail.toLowerCase().includes(`to: ${email.toLowerCase()}`));

/** The token of the newest confirmation link sent to this address. */
async function tokenSentTo(email: string): Promise<string> {
  const links = (await mailsTo(email))
    .map((mail) => mail.match(/http:\/\/localhost:3000\/confirm-email\?token=([\w-]+)/)?.[1])
    .filter((token): token is string => token !== undefined);
  expect(links.length, `lien envoyé à ${email}`).toBeGreaterThan(0);
  return links.at(-1) ?? "";
}

describe("changing one's e-mail address", () => {
  it("changes it only once the link sent to the new address is opened, then tells the former one", async () => {
    const { body, cookie, response } = await signUpPatient(ctx.app, { first_name: "Inès" });
    const id = response.json().profile.id as string;
    const former = String(body.email);
    const next = uniqueEmail("nouvelle");

    const asked = await askChange(cookie, {
      new_email: `  ${next.toUpperCase()} `,
      current_password: body.password,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().message).toBe(EMAIL_CHANGE_MESSAGES.sent(next));
    const linkMail = (await mailsTo(next)).at(-1) ?? "";
    expect(linkMail).toContain("Bonjour Inès,");
    expect(linkMail).toContain("Vous avez demandé que cette adresse devienne celle de votre compte");
    const token = await tokenSentTo(next);
    // Nothing changes before the link is opened.
    expect((await me(cookie)).json().profile.email).toBe(former);
    expect((await logIn(next, String(body.password), CHROME_WINDOWS)).response.statusCode).toBe(401);
    expect(await mailsTo(former)).toEqual([]);

    // Opened without a session (the mail read on a phone): the address is the account's.
    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().message).toBe(EMAIL_CHANGE_MESSAGES.done);
    expect((await me(cookie)).json().profile.email).toBe(next);
    expect((await logIn(next, String(body.password), CHROME_WINDOWS)).response.statusCode).toBe(200);
    expect((await logIn(former, String(body.password), CHROME_WINDOWS)).response.statusCode).toBe(401);

    // The former address is told, with the new one and what to do if it was not her.
    const told = await mailsTo(former);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(`est devenue ${next}`);
    expect(told[0]).toContain("http://localhost:3000/patient/profile#securite");
    expect(told[0]).toContain("contact@sourio.fr");

    // The link served once.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({
      code: "INVALID_TOKEN",
      message: EMAIL_CHANGE_MESSAGES.linkInvalid,
    });
    expect(await auditActions(id)).toEqual([EMAIL_CHANGE_ACTIONS.requested, EMAIL_CHANGE_ACTIONS.changed]);
  });

  it("refuses a wrong password (recorded), its own address, a bad address and an administrator; tells another account's address instead of linking it", async () => {
    const { body, cookie, response } = await signUpPatient(ctx.app);
    const id = response.json().profile.id as string;
    const other = await signUpDentist(ctx.app);
    const links = async () =>
      (await ctx.mails()).filter((mail) => mail.includes("devienne celle de votre compte")).length;
    const linksBefore = await links();

    const wrong = await askChange(cookie, { new_email: uniqueEmail("x"), current_password: "pas-le-bon" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toEqual({ current_password: SECURITY_MESSAGES.currentPasswordWrong });
    expect(await auditActions(id)).toEqual([EMAIL_CHANGE_ACTIONS.refused]);

    const same = await askChange(cookie, {
      new_email: String(body.email).toUpperCase(),
      current_password: body.password,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().error.fields).toEqual({ new_email: EMAIL_CHANGE_MESSAGES.same });

    // Another account's address: the same answer as a free one (nothing to learn from it); that
    // address's owner is told, with his own « Mot de passe oublié », and gets no link.
    const taken = await askChange(cookie, { new_email: other.body.email, current_password: body.password });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().message).toBe(EMAIL_CHANGE_MESSAGES.sent(String(other.body.email)));
    const told = (await mailsTo(String(other.body.email))).filter((mail) =>
      mail.includes("Elle est déjà celle d'un compte"),
    );
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("http://localhost:3000/dentist/forgot-password");
    expect(told[0]).not.toContain("confirm-email");

    const invalid = await askChange(cookie, {
      new_email: "pas-une-adresse",
      current_password: body.password,
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().error.fields)).toEqual(["new_email"]);

    expect(
      (await askChange(undefined, { new_email: uniqueEmail("x"), current_password: "x" })).statusCode,
    ).toBe(401);

    const adminEmail = uniqueEmail("admin");
    await ensureAdmin({ db: ctx.app.db, auth: ctx.app.auth }, adminEmail, "admin-secret");
    const admin = await logIn(adminEmail, "admin-secret", CHROME_WINDOWS);
    const refused = await askChange(admin.cookie, {
      new_email: uniqueEmail("x"),
      current_password: "admin-secret",
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(EMAIL_CHANGE_MESSAGES.adminRefused);
    // None of these sent a link, nor changed anything.
    expect((await me(cookie)).json().profile.email).toBe(String(body.email).toLowerCase());
    expect(await links()).toBe(linksBefore);
  });

  it("keeps one link alive, for an hour, and refuses an address taken in the meantime", async () => {
    const { body, cookie } = await signUpPatient(ctx.app);
    const first = uniqueEmail("premiere");
    const second = uniqueEmail("seconde");
    const ask = (email: string) => askChange(cookie, { new_email: email, current_password: body.password });

    expect((await ask(first)).statusCode).toBe(200);
    const older = await tokenSentTo(first);
    expect((await ask(second)).statusCode).toBe(200);
    const newer = await tokenSentTo(second);
    expect((await confirm(older)).statusCode).toBe(400);

    // An hour later the newer one has expired too.
    clock.offsetMs += EMAIL_CHANGE_LINK_MS + 1_000;
    try {
      expect((await confirm(newer)).statusCode).toBe(400);
    } finally {
      clock.offsetMs = 0;
    }

    const third = uniqueEmail("troisieme");
    expect((await ask(third)).statusCode).toBe(200);
    const token = await tokenSentTo(third);
    await signUpPatient(ctx.app, { email: third });
    const late = await confirm(token);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(EMAIL_CHANGE_MESSAGES.taken);
    expect((await me(cookie)).json().profile.email).toBe(String(body.email).toLowerCase());

    expect((await confirm("jeton-inconnu")).statusCode).toBe(400);
    expect((await confirm("")).json().error.message).toBe(EMAIL_CHANGE_MESSAGES.linkInvalid);
  });

  it("takes the contact messages of the former address along, so that an erasure still finds them; leaves no link behind", async () => {
    const { body, cookie, response } = await signUpPatient(ctx.app);
    const id = response.json().profile.id as string;
    const former = String(body.email);
    // Sent from the contact form before she had an account, with her address in capitals.
    await ctx.app.db
      .insertInto("contact_submissions")
      .values({ name: "Inès", email: former.toUpperCase(), message: "Bonjour", created_at: new Date() })
      .execute();
    const next = uniqueEmail("nouvelle");
    const ask = (email: string) => askChange(cookie, { new_email: email, current_password: body.password });
    expect((await ask(next)).statusCode).toBe(200);
    expect((await confirm(await tokenSentTo(next))).statusCode).toBe(200);
    // A link asked for and never used, then the account erased.
    expect((await ask(uniqueEmail("jamais"))).statusCode).toBe(200);
    const erased = await post("/api/account/delete", { password: body.password }, cookie);
    expect(erased.statusCode, erased.body).toBe(200);
    const contacts = await ctx.app.db
      .selectFrom("contact_submissions")
      .select("id")
      .where((eb) => eb.or([eb("email", "=", next), eb(eb.fn("lower", ["email"]), "=", former)]))
      .execute();
    expect(contacts).toEqual([]);
    const left = await ctx.app.db.selectFrom("verifications").select("id").where("value", "=", id).execute();
    expect(left).toEqual([]);
  });
});
