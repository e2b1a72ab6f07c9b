import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withSockets } from "../../testing/sockets";
import { createWorld, type World } from "../../testing/world";

/**
 * What a patient does in one tab reaches her other tabs (a QA pass, 07/12/2026: her dashboard and
 * list kept a cancelled request « Envoyée », and did not list a new one, until reloaded): sending,
 * cancelling, deleting, withdrawing her consent, opening to all each tell her own sockets which
 * request changed (ids only), and nobody else's but the dentists concerned.
 */

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w.ctx.close();
});

const post = (url: string) => w.call("patientA", { method: "POST", url, payload: {} });

describe("a patient's own other tabs", () => {
  it("hear of her new, cancelled, withdrawn and deleted requests; another patient hears nothing", async () => {
    const cookies = { mine: w.people.patientA.cookie, other: w.people.patientB.cookie };
    await withSockets(w.ctx.app, cookies, async ({ mine, other }) => {
      const heard = (id: string) => mine.events.some((e) => e.type === "request" && e.request_id === id);

      const sent = await w.fresh.openRequest("patientA");
      await expect.poll(() => heard(sent.requestId)).toBe(true);

      const toCancel = await w.fresh.openRequest("patientA");
      mine.events.length = 0;
      expect((await post(`/api/patient/requests/${toCancel.requestId}/cancel`)).statusCode).toBe(200);
      await expect.poll(() => heard(toCancel.requestId)).toBe(true);

      const toWithdraw = await w.fresh.openRequest("patientA");
      mine.events.length = 0;
      expect((await post(`/api/patient/requests/${toWithdraw.requestId}/consent/withdraw`)).statusCode).toBe(
        200,
      );
      await expect.poll(() => heard(toWithdraw.requestId)).toBe(true);

      const toDelete = await w.fresh.openRequest("patientA");
      mine.events.length = 0;
      const deleted = await w.call("patientA", {
        method: "DELETE",
        url: `/api/patient/requests/${toDelete.requestId}`,
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      await expect.poll(() => heard(toDelete.requestId)).toBe(true);

      expect(other.events.filter((e) => e.type === "request")).toEqual([]);
    });
  });
});
