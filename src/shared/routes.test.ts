import { describe, expect, it } from "vitest";
import { isAppPath, matchesRoutePattern } from "./routes";

describe("the client's route patterns", () => {
  it.each([
    ["/", "/", true],
    ["/faq", "/faq/", true],
    ["/patient/request/:id", "/patient/request/abc", true],
    ["/patient/request/:id", "/patient/request", false],
    ["/patient/request/:id", "/patient/request/abc/def", false],
    ["/dentist/messages/:id?", "/dentist/messages", true],
    ["/dentist/messages/:id?", "/dentist/messages/42", true],
    ["/dentist/messages/:id?", "/dentist/messages/42/x", false],
  ])("matches %s against %s: %s (static paths, parameters, optional segments)", (pattern, path, expected) => {
    expect(matchesRoutePattern(pattern, path)).toBe(expected);
  });

  it("knows the app's pages and nothing else", () => {
    for (const path of ["/", "/faq", "/patient/request/abc", "/patient/request/abc/compare", "/admin"])
      expect(isAppPath(path), path).toBe(true);
    for (const path of ["/nimporte-quoi", "/patient/nope", "/faq/x", "/admin/dashboard/1", "/%E0%A4%A"])
      expect(isAppPath(path), path).toBe(false);
  });
});
