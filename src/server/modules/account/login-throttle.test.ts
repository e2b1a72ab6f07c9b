import { describe, expect, it } from "vitest";
import { LoginThrottle } from "./login-throttle";

describe("LoginThrottle", () => {
  it("blocks an account after max failures until the window ends", () => {
    let now = 0;
    const throttle = new LoginThrottle(3, 1000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.allows("a")).toBe(true);
      throttle.recordFailure("a");
    }
    expect(throttle.allows("a")).toBe(false);
    expect(throttle.allows("b")).toBe(true);
    now = 1000;
    expect(throttle.allows("a")).toBe(true);
  });

  it("forgets failures after a success", () => {
    const throttle = new LoginThrottle(2, 1000, () => 0);
    throttle.recordFailure("a");
    throttle.recordSuccess("a");
    throttle.recordFailure("a");
    expect(throttle.allows("a")).toBe(true);
  });

  it("stays within its capacity", () => {
    const throttle = new LoginThrottle(1, 1000, () => 0, 10);
    for (let i = 0; i < 100; i++) throttle.recordFailure(`k${i}`);
    expect(throttle.allows("k99")).toBe(false);
    expect(throttle.allows("k0")).toBe(true);
  });
});
