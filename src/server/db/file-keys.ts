import type { Kysely, SelectQueryBuilder } from "kysely";
import type { Database } from "./types";

/**
 * Every column that refers to a stored file (storage/storage.ts). The storage sweeper keeps a file
 * as long as one of these columns names it, and deletes it otherwise: a column missing here means
 * its files disappear about an hour after upload. `file-keys.test.ts` compares this list with the
 * migrated database, so a new `*_key`/`*_url` column has to be listed here or in NOT_FILE_KEYS.
 */
export type FileKeyColumn = {
  [T in keyof Database]: {
    table: T;
    column: keyof Database[T] & string;
    /** The column holds `${prefix}${key}` rather than the bare key. */
    prefix?: string;
  };
}[keyof Database];

export const FILE_KEY_COLUMNS: readonly FileKeyColumn[] = [
  { table: "documents", column: "storage_key" },
  { table: "message_attachments", column: "storage_key" },
  { table: "support_messages", column: "image_key" },
  { table: "contact_submissions", column: "file_key" },
  // The raw text read from a devis (issue 17).
  { table: "quote_readings", column: "text_key" },
  // Sourio's invoices as Factur-X PDFs (issue 35), kept 10 years.
  { table: "invoice_files", column: "storage_key" },
  // The avatar's public address (avatarUrl in modules/profiles/avatar.ts, avatarKeyOf below): "/api/avatars/…".
  { table: "profiles", column: "avatar_url", prefix: "/api/" },
];

/** Columns whose name looks like a file reference but is not one, and why. */
export const NOT_FILE_KEYS: ReadonlyArray<{ table: string; column: string; why: string }> = [
  {
    table: "users",
    column: "image",
    why: "Better Auth's picture URL of a social login; never set by Sourio",
  },
  {
    table: "rate_limit_hits",
    column: "key",
    why: "an HMAC of a route and an address counting requests (plugins/rate-limit-store.ts)",
  },
];

/*
 * The files behind some rows, for the modules that serve or delete them (the profile's avatar, a
 * request's deletion, an account's erasure, the retention's purge): found here, below the modules,
 * so that none of them imports another module to learn where a file is kept (ADR 031).
 */

/** The storage key behind one of our avatar URLs, or null for anything else. */
export function avatarKeyOf(url: string | null): string | null {
  const match = url?.match(/^\/api\/(avatars\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.webp)$/);
  return match?.[1] ?? null;
}

/**
 * The stored texts of the readings of some requests or documents (ids, or a subquery of ids), to
 * remove once their rows are deleted (the rows go by cascade; call this before deleting).
 */
export async function readingTextKeys(
  trx: Kysely<Database>,
  column: "request_id" | "document_id",
  // biome-ignore lint/suspicious/noExplicitAny: any subquery selecting one id column
  ids: readonly string[] | SelectQueryBuilder<Database, any, { id: string }>,
): Promise<string[]> {
  if (Array.isArray(ids) && ids.length === 0) return [];
  const rows = await trx
    .selectFrom("quote_readings")
    .select("text_key")
    .where(column, "in", ids as readonly string[])
    .where("text_key", "is not", null)
    .execute();
  return rows.flatMap((r) => (r.text_key ? [r.text_key] : []));
}
