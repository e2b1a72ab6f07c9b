import { hashPassword } from "better-auth/crypto";
import { describe, expect, it } from "vitest";
import { passwordHasher, passwordOperations } from "./password-hasher";

// The server project's setup has switched the reuse on (src/server/testing/setup.ts, ADR 062).
describe("the password work reused in tests", () => {
  it("answers what scrypt answers, counts every call, and works each distinct input out once", async () => {
    const before = passwordOperations();
    const hash = await passwordHasher.hash("Sourire-Sain-2026");
    expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]+$/);
    expect(await passwordHasher.hash("Sourire-Sain-2026")).toBe(hash);
    expect(await passwordHasher.hash("Sourire-Sain-2027")).not.toBe(hash);
    expect(await passwordHasher.verify({ hash, password: "Sourire-Sain-2026" })).toBe(true);
    expect(await passwordHasher.verify({ hash, password: "sourire-sain-2026" })).toBe(false);
    // Asked again, the same answers (a wrong password is not remembered as right, nor the reverse).
    expect(await passwordHasher.verify({ hash, password: "sourire-sain-2026" })).toBe(false);
    expect(await passwordHasher.verify({ hash, password: "Sourire-Sain-2026" })).toBe(true);
    // A hash made elsewhere (Better Auth's own hasher, a fresh salt) is checked as scrypt checks it.
    const elsewhere = await hashPassword("Sourire-Sain-2026");
    expect(elsewhere).not.toBe(hash);
    expect(await passwordHasher.verify({ hash: elsewhere, password: "Sourire-Sain-2026" })).toBe(true);
    expect(await passwordHasher.verify({ hash: elsewhere, password: "Sourire-Sain" })).toBe(false);
    expect(passwordOperations() - before).toBe(9);
  });
});
