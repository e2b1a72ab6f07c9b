import { hashPassword, verifyPassword } from "better-auth/crypto";

/**
 * Better Auth's own password hasher (scrypt), given to it in auth.ts and used by our routes where
 * an answer must cost the same whether an account exists or not: a login with an unknown e-mail
 * (Better Auth hashes the typed password then), a sign-up with an e-mail already used (we hash
 * it). Every hash or verification is counted, so tests can check that both paths of a route do the
 * same password work without measuring time.
 */
let operations = 0;
let work = { hash: hashPassword, verify: verifyPassword };

export const passwordHasher = {
  hash(password: string): Promise<string> {
    operations += 1;
    return work.hash(password);
  },
  verify(data: { hash: string; password: string }): Promise<boolean> {
    operations += 1;
    return work.verify(data);
  },
};

/**
 * Tests only (src/server/testing/setup.ts; a server never calls it): the same scrypt, but each
 * distinct input is worked out once per test process and its answer reused (ADR 062). A hash costs
 * 0.1–0.2 s of CPU by design and the suite signs up and logs in thousands of times with the same few
 * passwords. What changes: two accounts of a test process given the same password store the same hash
 * (same salt). Every call is still counted, and a verification still answers what scrypt answers.
 */
export function reusePasswordWorkInTests(): void {
  if (work.hash !== hashPassword) return;
  const hashes = new Map<string, Promise<string>>();
  const verdicts = new Map<string, Promise<boolean>>();
  const once = <T>(memo: Map<string, Promise<T>>, key: string, compute: () => Promise<T>) => {
    let answer = memo.get(key);
    if (!answer) {
      answer = compute();
      memo.set(key, answer);
      answer.catch(() => memo.delete(key));
    }
    return answer;
  };
  work = {
    hash: (password) => once(hashes, password, () => hashPassword(password)),
    verify: (data) => once(verdicts, `${data.hash}\n${data.password}`, () => verifyPassword(data)),
  };
}

/** How many password hashes or verifications this process has run (for tests). */
export function passwordOperations(): number {
  return operations;
}
