import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_CHANGED } from "../../../shared/realtime";
import { createTestContext, signUpPatient, type TestContext } from "../../testing/harness";
import { listenLocally, openSocket } from "../../testing/sockets";

/*
 * A live channel is opened under a session and a person's rights at that moment: when they change,
 * the channel closes (ADR 026's `sessions` event), so a signed-out person, a de-verified dentist or a
 * demoted admin receives nothing more over a socket opened before.
 */

let ctx: TestContext;
let base: string;
beforeAll(async () => {
  ctx = await createTestContext();
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
