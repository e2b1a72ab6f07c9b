import { beforeAll, describe, expect, it } from "vitest";
import { appPerFile, signUpDentist, signUpPatient } from "../testing/harness";
import { signInAdmin } from "../testing/people";
import { actorOf, requireArea } from "./actor";

// The area guard every protected route uses, checked on probe routes of each area.
const ctx = appPerFile({
  async beforeReady(app) {
    for (const area of ["patient", "dentist", "admin", "signed-in"] as const) {
      app.get(`/api/__probe/${area}`, { preHandler: requireArea(area) }, async (request, reply) => {
        const actor = await actorOf(request, reply);
        return { id: actor.userId };
      });
    }
  },
});
const cookies: Record<string, string> = {};

beforeAll(async () => {
  cookies.patient = (await signUpPatient(ctx.app)).cookie;
  cookies.dentist = (await signUpDentist(ctx.app)).cookie;
  cookies.admin = (await signInAdmin(ctx.app, "root@example.com")).cookie;
});

const probe = (area: string, who?: string) =>
  ctx.app.inject({
    method: "GET",
    url: `/api/__probe/${area}`,
    headers: who ? { cookie: cookies[who] ?? "" } : {},
  });

describe("area guards", () => {
  it.each(["patient", "dentist", "admin", "signed-in"])(
    "answers 401 to a signed-out caller on %s",
    async (area) => {
      const response = await probe(area);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("UNAUTHENTICATED");
    },
  );

  it.each([
    ["patient", "dentist", 403],
    ["patient", "patient", 200],
    ["dentist", "patient", 403],
    ["dentist", "dentist", 200],
    ["admin", "patient", 403],
    ["admin", "dentist", 403],
    ["admin", "admin", 200],
    ["signed-in", "dentist", 200],
  ])("area %s, caller %s → %i", async (area, who, status) => {
    const response = await probe(area, who);
    expect(response.statusCode).toBe(status);
    if (status === 403) expect(response.json().error.code).toBe("FORBIDDEN");
  });
});
