import { describe, it } from "vitest";
import { allowConsoleError } from "./console";

// The other half (an unannounced console.error fails the test) is the setup's afterEach: a test
// that logs one, e.g. `console.error("x")` here, fails with the logged line.
describe("console.error during a test", () => {
  it("is allowed when the test announces it, for this test only", () => {
    allowConsoleError(/erreur attendue/);
    allowConsoleError("Impossible (de) charger");
    console.error("une erreur attendue : %s", "réseau coupé");
    console.error("Impossible (de) charger la liste");
  });
});
