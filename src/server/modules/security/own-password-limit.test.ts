import { describe, expect, it } from "vitest";
import { ERASURE_MESSAGES, SECURITY_MESSAGES } from "../../../shared/schemas/account";
import { appPerFile, signUpPatient } from "../../testing/harness";

/**
 * The routes that ask a signed-in person for their own password (erasing the account, changing the
 * password) allow 5 wrong ones per 15 minutes, however many arrive at once: each attempt is charged
 * before the password is checked, atomically in the database (issue 32). Run on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */

const ctx = appPerFile({ env: { LOGIN_RATE_LIMIT_PER_IP: "1000" } });
const PARALLEL = 30;
const LIMIT = 5;

async function inParallel(cookie: string, url: string, payload: () => object) {
  const responses = await Promise.all(
    Array.from({ length: PARALLEL }, () =>
      ctx.app.inject({ method: "POST", url, headers: { cookie }, payload: payload() }),
    ),
  );
  const count = (status: number) => responses.filter((r) => r.statusCode === status).length;
  return { responses, count };
}

describe("wrong own passwords sent in parallel", () => {
  it(`erasing the account: exactly ${LIMIT} × 400, then 429 in French, and the account stays`, async () => {
    const { cookie, body } = await signUpPatient(ctx.app);
    const { responses, count } = await inParallel(cookie, "/api/account/delete", () => ({
      password: "pas-le-bon",
    }));
    expect(responses.map((r) => r.statusCode).sort(), responses.map((r) => r.body).join("\n")).toEqual([
      ...Array(LIMIT).fill(400),
      ...Array(PARALLEL - LIMIT).fill(429),
    ]);
    expect(count(400)).toBe(LIMIT);
    for (const r of responses.filter((r) => r.statusCode === 429)) {
      expect(r.json().error).toEqual({ code: "RATE_LIMITED", message: ERASURE_MESSAGES.tooManyAttempts });
      // When to try again: the end of the 15-minute window, as a login's 429 says it.
      const retryAfter = Number(r.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    // Even the right password waits for the window's end; the account is still there.
    const right = await ctx.app.inject({
      method: "POST",
      url: "/api/account/delete",
      headers: { cookie },
      payload: { password: body.password },
    });
    expect(right.statusCode).toBe(429);
    expect((await ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } })).statusCode).toBe(
      200,
    );
  });

  it(`changing the password: exactly ${LIMIT} × 400, then 429 in French, and the password stays`, async () => {
    const { cookie, body } = await signUpPatient(ctx.app);
    const { responses } = await inParallel(cookie, "/api/account/password", () => ({
      current_password: "pas-le-bon",
      new_password: "Nouveau-Sourire-2027",
      new_password_confirmation: "Nouveau-Sourire-2027",
    }));
    expect(responses.map((r) => r.statusCode).sort(), responses.map((r) => r.body).join("\n")).toEqual([
      ...Array(LIMIT).fill(400),
      ...Array(PARALLEL - LIMIT).fill(429),
    ]);
    for (const r of responses.filter((r) => r.statusCode === 429))
      expect(r.json().error).toEqual({ code: "RATE_LIMITED", message: SECURITY_MESSAGES.tooManyAttempts });
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/account/login",
      payload: { email: body.email, password: body.password, remember_me: false },
    });
    expect(login.statusCode).toBe(200);
  });

  it("a right password gives its attempt back: wrong, right, then the full allowance again", async () => {
    const { cookie, body } = await signUpPatient(ctx.app);
    const change = (current: string, next: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/account/password",
        headers: { cookie },
        payload: { current_password: current, new_password: next, new_password_confirmation: next },
      });
    for (let i = 0; i < LIMIT - 1; i++)
      expect((await change("pas-le-bon", "Autre-Sourire-2027")).statusCode).toBe(400);
    const changed = await change(body.password, "Autre-Sourire-2027");
    expect(changed.statusCode, changed.body).toBe(200);
    const renewed = changed.cookies.find((c) => c.name.endsWith("session_token"));
    const again = `${renewed?.name}=${renewed?.value}`;
    const wrong = await Promise.all(
      Array.from({ length: LIMIT + 2 }, () =>
        ctx.app.inject({
          method: "POST",
          url: "/api/account/delete",
          headers: { cookie: again },
          payload: { password: "pas-le-bon" },
        }),
      ),
    );
    expect(wrong.map((r) => r.statusCode).sort()).toEqual([...Array(LIMIT).fill(400), 429, 429]);
  });
});
