import type { OrderByExpression, SelectQueryBuilder } from "kysely";

/**
 * A query's rows in the order they were written: by each key in turn (the first is a creation
 * time, the others break its ties), the way the data export lists them.
 */
export function oldestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  ...keys: OrderByExpression<DB, TB, O>[]
): SelectQueryBuilder<DB, TB, O> {
  return keys.reduce<SelectQueryBuilder<DB, TB, O>>((ordered, key) => ordered.orderBy(key), query);
}

type Rows<Q> = Q extends { execute(): Promise<infer R> } ? R : never;

/** Runs a record of queries at once; each one's rows stay under its name, with their type. */
export async function executeAll<Q extends Record<string, { execute(): Promise<unknown[]> }>>(
  queries: Q,
): Promise<{ [K in keyof Q]: Rows<Q[K]> }> {
  const entries = await Promise.all(
    Object.entries(queries).map(async ([name, query]) => [name, await query.execute()] as const),
  );
  return Object.fromEntries(entries) as { [K in keyof Q]: Rows<Q[K]> };
}

/** Whether the query finds a row (one that exists, is live, is one of the options…). */
export async function hasRow(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}
