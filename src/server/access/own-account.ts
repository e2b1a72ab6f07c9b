import type { Transaction } from "kysely";
import type { Database } from "../db/types";
import { unauthenticated } from "../errors";

/*
 * Issue 32, ADR 039: a write that stores files under a person's id (a new request's documents, a
 * message's attachments, a support image, an avatar) was streaming while the account could be erased.
 * Each of those writes runs `holdOwnAccount` first in its transaction: the person's profile row is
 * locked (key share) until the commit, and the erasure locks that row for update before it reads
 * anything (security/erasure.service). Either the write commits first and the erasure, waiting on the
 * lock, finds and erases it with its files, or the erasure commits first and the write is refused as
 * signed out (401): the caller's form then removes the files it stored (http/multipart ReadForm.use).
 */

/**
 * Locks the actor's own profile row until the end of `trx` (key share: other writers of the row
 * are not blocked, only its deletion), or throws 401 when the account is gone (erased while the
 * request was being read).
 */
export async function holdOwnAccount(trx: Transaction<Database>, actor: { userId: string }): Promise<void> {
  const row = await trx
    .selectFrom("profiles")
    .select("id")
    .where("id", "=", actor.userId)
    .forKeyShare()
    .executeTakeFirst();
  if (!row) throw unauthenticated();
}
