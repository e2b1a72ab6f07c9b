import { type OrderByExpression, type SelectQueryBuilder, sql } from "kysely";

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

/**
 * What serving a stored file takes (a document, a message's attachment): its key in the storage,
 * its name, type and size, read from the row under `alias`.
 */
export const storedFileColumns = <A extends string>(alias: A) =>
  [`${alias}.storage_key`, `${alias}.file_name`, `${alias}.mime_type`, `${alias}.size`] as const;

/**
 * Both parties' names on a row that has a `patient_id` and a `dentist_id` (an appointment, a
 * conversation), under `alias`: `patient_name` and `dentist_name`, read from their profiles.
 */
export const partyNames = (alias: string) =>
  [
    sql<string>`(select full_name from profiles where id = ${sql.ref(`${alias}.patient_id`)})`.as(
      "patient_name",
    ),
    sql<string>`(select full_name from profiles where id = ${sql.ref(`${alias}.dentist_id`)})`.as(
      "dentist_name",
    ),
  ] as const;
