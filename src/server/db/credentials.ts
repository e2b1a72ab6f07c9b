import type { Db } from "./index";

/**
 * The person's e-mail-and-password account (Better Auth's `credential` provider) with its password
 * hash, or undefined when they have none. Read by the administrator's bootstrap (set the password
 * or link one) and by the erasure (check the password typed to confirm it).
 */
export function credentialOf(db: Db, userId: string) {
  return db
    .selectFrom("accounts")
    .select(["id", "password"])
    .where("user_id", "=", userId)
    .where("provider_id", "=", "credential")
    .executeTakeFirst();
}
