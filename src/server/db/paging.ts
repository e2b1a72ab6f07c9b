import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import { foldName } from "./search-fold";

/**
 * One page of an ordered query and whether another follows: fetches one row more than the page
 * (no count over the whole table) at the page's offset.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  options: { page: number; pageSize: number },
): Promise<{ rows: O[]; hasMore: boolean }> {
  const rows = await query
    .limit(options.pageSize + 1)
    .offset((options.page - 1) * options.pageSize)
    .execute();
  return { rows: rows.slice(0, options.pageSize), hasMore: rows.length > options.pageSize };
}

/** One page as a list endpoint answers it: each row made an item, and whether another page follows. */
export async function fetchItems<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  options: { page: number; pageSize: number },
  toItem: (row: O) => T,
): Promise<{ items: T[]; hasMore: boolean }> {
  const { rows, hasMore } = await fetchPage(query, options);
  return { items: rows.map(toItem), hasMore };
}

/** An ILIKE pattern matching text that contains the search, its `%`, `_` and `\` taken literally. */
export const containsPattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * What a search box typed, found in a person's name whatever the accents and the case (« ines »
 * finds « Inès »): both folded the same way (`search_fold`, migration 052; `foldName`). On
 * profiles.full_name, the trigram index on that fold serves it.
 */
export function nameContains(nameColumn: string, search: string) {
  return sql<SqlBool>`search_fold(${sql.ref(nameColumn)}) ilike ${containsPattern(foldName(search))}`;
}

/** What a search box typed, found in a person's name (as `nameContains`) or e-mail (the two columns named). */
export function nameOrEmailContains(nameColumn: string, emailColumn: string, search: string) {
  return sql<SqlBool>`(${nameContains(nameColumn, search)} or ${sql.ref(emailColumn)} ilike ${containsPattern(search)})`;
}

/**
 * A page of a thread's messages, read as `m` by the caller's query: the `limit` newest ones before
 * the pivot (a subquery giving the created_at and id of a message of the same thread, when the
 * client asks for older ones), returned oldest first, and whether older ones remain.
 */
export async function pageBefore<DB, TB extends keyof DB, O extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, O>,
  pivot: Expression<unknown> | undefined,
  limit: number,
): Promise<{ ids: string[]; hasMore: boolean }> {
  const older = pivot ? query.where(sql<boolean>`(m.created_at, m.id) < (${pivot})`) : query;
  const rows = await older
    .orderBy(sql`m.created_at`, "desc")
    .orderBy(sql`m.id`, "desc")
    .limit(limit + 1)
    .execute();
  const ids = rows.slice(0, limit).map((row) => row.id);
  return { ids: ids.reverse(), hasMore: rows.length > limit };
}
