import { hashPassword, verifyPassword } from "better-auth/crypto";

/**
 * Better Auth's own password hasher (scrypt), given to it in auth.ts and used by our routes where
 * an answer must cost the same whether an account exists or not: a login with an unknown e-mail
 * (Better Auth hashes the typed password then), a sign-up with an e-mail already used (we hash
 * it). Every hash or verification is counted, so tests can check that both paths of a route do the
 * same password work without measuring time.
 */
let operations = 0;

export const passwordHasher = {
  hash(password: string): Promise<string> {
    operations += 1;
    return hashPassword(password);
  },
  verify(data: { hash: string; password: string }): Promise<boolean> {
    operations += 1;
    return verifyPassword(data);
  },
};

/** How many password hashes or verifications this process has run (for tests). */
export function passwordOperations(): number {
  return operations;
}
