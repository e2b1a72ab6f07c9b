import type { SelectQueryBuilder } from "kysely";

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
