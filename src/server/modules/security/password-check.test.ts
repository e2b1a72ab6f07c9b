import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { generatedPassword } from "../../../../scripts/lib/generated-password.mjs";
import { loadPasswordEstimator } from "../../../shared/password-estimator";
import { estimatePassword, stopPasswordChecks } from "./password-check";

/**
 * 64 printable characters as a password manager makes them: zxcvbn's matching (dictionaries, each
 * with its l33t variants) costs hundreds of milliseconds of CPU for them.
 */
const generated = (seed: number) => generatedPassword(64, seed);

afterAll(() => stopPasswordChecks());

describe("the password's estimate, off the server's thread (ADR 070)", () => {
  it("is zxcvbn's, as the form's meter makes it", async () => {
    const estimator = await loadPasswordEstimator();
    const cases: Array<[string, string[]]> = [
      ["Password1!", []],
      ["azertyuiopqs", []],
      ["Motdepasse1", []],
      ["Dupont2026!", ["jean.dupont@example.fr", "jean", "dupont", "example"]],
      ["Sourire-Sain-2026", []],
      ["cheval correct agrafe batterie", []],
      [generated(11), ["jean", "dupont"]],
    ];
    // Asked all at once: each answer to its own question.
    const answers = await Promise.all(cases.map(([password, inputs]) => estimatePassword(password, inputs)));
    cases.forEach(([password, inputs], index) => {
      expect(answers[index], password).toEqual(estimator(password, inputs));
    });
  });

  it("leaves the server's thread free while a costly password is estimated", async () => {
    await estimatePassword("Sourire-Sain-2026", []); // the thread started, its dictionaries loaded
    let answered = false;
    const estimate = estimatePassword(generated(29), []).finally(() => {
      answered = true;
    });
    // Turns of this thread's event loop while the estimate is made: one at most if it ran here.
    let turns = 0;
    while (!answered) {
      await nextTurn();
      turns++;
    }
    await estimate;
    expect(turns).toBeGreaterThan(20);
  });

  it("answers the checks waiting on a thread that stopped with an error, and starts another", async () => {
    const waiting = expect(estimatePassword(generated(41), [])).rejects.toThrow(/estimation du mot de passe/);
    await stopPasswordChecks();
    await waiting;
    const estimator = await loadPasswordEstimator();
    expect(await estimatePassword("azertyuiop", [])).toEqual(estimator("azertyuiop", []));
  });
});
