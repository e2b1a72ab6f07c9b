import { describe, expect, it } from "vitest";
import { isAppPath, matchesRoutePattern } from "./routes";

describe("the client's route patterns", () => {
  it("matches static paths, parameters and optional segments", () => {
    expect(matchesRoutePattern("/", "/")).toBe(true);
    expect(matchesRoutePattern("/faq", "/faq/")).toBe(true);
    expect(matchesRoutePattern("/patient/request/:id", "/patient/request/abc")).toBe(true);
    expect(matchesRoutePattern("/patient/request/:id", "/patient/request")).toBe(false);
    expect(matchesRoutePattern("/patient/request/:id", "/patient/request/abc/def")).toBe(false);
    expect(matchesRoutePattern("/dentist/messages/:id?", "/dentist/messages")).toBe(true);
    expect(matchesRoutePattern("/dentist/messages/:id?", "/dentist/messages/42")).toBe(true);
    expect(matchesRoutePattern("/dentist/messages/:id?", "/dentist/messages/42/x")).toBe(false);
  });

  it("knows the app's pages and nothing else", () => {
    for (const path of ["/", "/faq", "/patient/request/abc", "/patient/request/abc/compare", "/admin"])
      expect(isAppPath(path), path).toBe(true);
    for (const path of ["/nimporte-quoi", "/patient/nope", "/faq/x", "/admin/dashboard/1", "/%E0%A4%A"])
      expect(isAppPath(path), path).toBe(false);
  });
});
