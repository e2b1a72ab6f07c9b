import type { PasswordEstimate } from "./password";

/**
 * zxcvbn with the common and French dictionaries, loaded on first use (dynamic imports: a few
 * hundred KB the public pages must not carry). The server loads it in the thread that checks new
 * passwords (modules/security/password-check.ts), the client's meter in its worker when a password
 * field is first used (components/ui/passwordEstimates.ts): neither on the thread that answers (ADR 070).
 */
export type PasswordEstimator = (password: string, userInputs?: string[]) => PasswordEstimate;

let loading: Promise<PasswordEstimator> | null = null;

export function loadPasswordEstimator(): Promise<PasswordEstimator> {
  loading ??= (async () => {
    const [{ ZxcvbnFactory }, common, fr] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-fr"),
    ]);
    const zxcvbn = new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...fr.dictionary },
      graphs: common.adjacencyGraphs,
      translations: fr.translations,
    });
    return (password, userInputs = []) => {
      const result = zxcvbn.check(password, userInputs.filter(Boolean));
      const dictionaryHit = result.sequence.some(
        (match) => match.pattern === "dictionary" && match.token.length === password.length,
      );
      return { score: result.score, dictionaryHit };
    };
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
