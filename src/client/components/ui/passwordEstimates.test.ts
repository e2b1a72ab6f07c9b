import { describe, expect, it } from "vitest";
import { loadPasswordEstimator } from "../../../shared/password-estimator";
import { estimateLatest } from "./passwordEstimates";

describe("the meter's estimates (ADR 070)", () => {
  it("are zxcvbn's, one at a time: a question asked meanwhile replaces the one still waiting", async () => {
    const estimator = await loadPasswordEstimator();
    // As typed: the first is being answered when the next two come; the second is never estimated.
    const answers = await Promise.all([
      estimateLatest("Sourire", []),
      estimateLatest("Sourire-S", []),
      estimateLatest("Sourire-Sain-2026", ["sourire"]),
    ]);
    expect(answers).toEqual([estimator("Sourire", []), null, estimator("Sourire-Sain-2026", ["sourire"])]);
    // Alone, each gets its own answer.
    expect(await estimateLatest("azertyuiop", [])).toEqual(estimator("azertyuiop", []));
  });
});
