import { describe, expect, it } from "vitest";
import { SECURITY_MESSAGES } from "../../../shared/schemas/account";
import { ensureAdmin } from "../../bootstrap";
import {
  accountSecurityApp,
  CHROME_WINDOWS,
  passwordChange,
  SAFARI_IPHONE,
} from "../../testing/account-security";
import { sessionCookie, signUpDentist, uniqueEmail } from "../../testing/harness";
import {
  MAX_WRONG_CURRENT_PASSWORDS,
  SECURITY_ACTIONS,
  WRONG_CURRENT_PASSWORD_WINDOW_MS,
} from "./security.service";

/** Changing one's password (POST /api/account/password); the signed-in devices are in sessions.test.ts. */

const {
  ctx,
  clock,
  logIn,
  me,
  changePassword,
  listSessions,
  patientOnTwoDevices,
  passwordChangedMailsTo,
  auditActions,
} = accountSecurityApp();

describe("anonymous callers", () => {
  it("get 401 on the three routes, before the body or the id is looked at", async () => {
    const responses = await Promise.all([
      ctx.app.inject({ method: "POST", url: "/api/account/password", payload: { current_password: 1 } }),
      ctx.app.inject({ method: "GET", url: "/api/account/sessions" }),
      ctx.app.inject({ method: "DELETE", url: "/api/account/sessions/pas-un-id" }),
    ]);
    for (const response of responses) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toMatchObject({
        code: "UNAUTHENTICATED",
        message: "Veuillez vous connecter pour continuer.",
      });
    }
  });
});

describe("POST /api/account/password", () => {
  it("refuses a wrong current password in French and changes nothing", async () => {
    const { email, id, a, b } = await patientOnTwoDevices();
    const response = await changePassword(a, passwordChange("pas-le-bon", "nouveau-secret"));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: SECURITY_MESSAGES.currentPasswordWrong,
      fields: { current_password: SECURITY_MESSAGES.currentPasswordWrong },
    });
    expect(response.headers["set-cookie"]).toBeUndefined();
    // Both sessions alive, the old password still works, the new one does not, no e-mail.
    expect((await me(a)).statusCode).toBe(200);
    expect((await me(b)).statusCode).toBe(200);
    expect((await logIn(email, "ancien-secret", CHROME_WINDOWS)).response.statusCode).toBe(200);
    expect((await logIn(email, "nouveau-secret", CHROME_WINDOWS)).response.statusCode).toBe(401);
    expect(await passwordChangedMailsTo(email)).toEqual([]);
    expect(await auditActions(id)).toEqual([SECURITY_ACTIONS.passwordChangeRefused]);
  });

  it("checks the new password with the sign-up rule and the confirmation, in French", async () => {
    const { a } = await patientOnTwoDevices();
    const refused: Array<[Record<string, string>, string, string]> = [
      [
        passwordChange("ancien-secret", "12345"),
        "new_password",
        "Le mot de passe doit contenir au moins 8 caractères",
      ],
      [
        passwordChange("ancien-secret", "nouveau-secret", "autre-secret"),
        "new_password_confirmation",
        "Les mots de passe ne correspondent pas",
      ],
      [passwordChange("ancien-secret", "ancien-secret"), "new_password", SECURITY_MESSAGES.newPasswordSame],
      [{ new_password: "nouveau-secret" }, "current_password", SECURITY_MESSAGES.currentPasswordRequired],
    ];
    for (const [body, field, message] of refused) {
      const response = await changePassword(a, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.fields[field], JSON.stringify(body)).toBe(message);
    }
    expect((await me(a)).statusCode).toBe(200);
  });

  it("changes the password, keeps this device signed in, signs the others out and e-mails the person", async () => {
    const { email, id, a, b } = await patientOnTwoDevices();
    const response = await changePassword(a, passwordChange("ancien-secret", "nouveau-secret"));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SECURITY_MESSAGES.passwordChanged });
    expect(response.body).not.toContain("nouveau-secret");

    // This device continues on the new session cookie; the other device is signed out.
    const renewed = sessionCookie(response);
    expect(renewed).not.toBe(a);
    expect((await me(renewed)).statusCode).toBe(200);
    expect((await me(b)).statusCode).toBe(401);
    expect((await me(a)).statusCode).toBe(401);
    const sessions = (await listSessions(renewed)).json().sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ current: true, device: "Chrome sur Windows" });

    expect((await logIn(email, "ancien-secret", CHROME_WINDOWS)).response.statusCode).toBe(401);
    expect((await logIn(email, "nouveau-secret", SAFARI_IPHONE)).response.statusCode).toBe(200);

    const mails = await passwordChangedMailsTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0] ?? "";
    expect(mail).toContain("Bonjour Marie,");
    expect(mail).toContain("Le mot de passe de votre compte Sourio a été modifié le ");
    expect(mail).toContain("(Chrome sur Windows)");
    expect(mail).toContain("http://localhost:3000/forgot-password");
    expect(mail).toContain("avec ce lien (« Mot de passe oublié ») :");
    expect(mail).not.toContain("nouveau-secret");
    expect(mail).not.toContain("ancien-secret");
    expect(await auditActions(id)).toEqual([SECURITY_ACTIONS.passwordChanged]);
  });

  it("works for a dentist too, whose e-mail points to the dentists' forgotten-password page", async () => {
    const { body, cookie } = await signUpDentist(ctx.app);
    const response = await changePassword(cookie, passwordChange(body.password, "cabinet-secret"));
    expect(response.statusCode).toBe(200);
    expect((await passwordChangedMailsTo(body.email))[0]).toContain(
      "http://localhost:3000/dentist/forgot-password",
    );
  });

  it("works for an admin, whose e-mail points to the admins' forgotten-password page", async () => {
    const email = uniqueEmail("admin");
    await ensureAdmin({ db: ctx.app.db, auth: ctx.app.auth }, email, "admin-secret");
    const { cookie } = await logIn(email, "admin-secret", CHROME_WINDOWS);
    const response = await changePassword(cookie, passwordChange("admin-secret", "admin-nouveau"));
    expect(response.statusCode).toBe(200);
    expect((await listSessions(sessionCookie(response))).json().sessions).toHaveLength(1);
    expect((await passwordChangedMailsTo(email))[0]).toContain("http://localhost:3000/admin/forgot-password");
    expect((await logIn(email, "admin-nouveau", CHROME_WINDOWS)).response.statusCode).toBe(200);
  });

  it(`stops after ${MAX_WRONG_CURRENT_PASSWORDS} wrong current passwords in the window, even the right one`, async () => {
    const { a } = await patientOnTwoDevices();
    const attempt = (current: string) => changePassword(a, passwordChange(current, "nouveau-secret"));
    for (let i = 0; i < MAX_WRONG_CURRENT_PASSWORDS; i++)
      expect((await attempt(`essai-${i}`)).statusCode).toBe(400);
    const blocked = await attempt("ancien-secret");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toEqual({
      code: "RATE_LIMITED",
      message: SECURITY_MESSAGES.tooManyAttempts,
    });
    expect((await me(a)).statusCode).toBe(200);

    clock.offsetMs = WRONG_CURRENT_PASSWORD_WINDOW_MS + 1000;
    try {
      expect((await attempt("ancien-secret")).statusCode).toBe(200);
    } finally {
      clock.offsetMs = 0;
    }
  });
});
