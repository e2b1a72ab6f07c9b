import { type CreateTableBuilder, sql } from "kysely";

/**
 * Columns most tables start or end with, for `createTable(…).$call(…)`. Applied migrations call these:
 * what they add must never change (`db/schema.test.ts` holds the resulting schema).
 */

/** `id uuid primary key default gen_random_uuid()`. */
export function idKey<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table.addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`));
}

/** `created_at timestamptz not null default now()`. */
export function createdAt<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table.addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`));
}

/** `created_at` and `updated_at`, both `timestamptz not null default now()`. */
export function timestamps<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return createdAt(table).addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`));
}

/** A required reference to another table's `id`, deleted with it. */
export function belongsTo<N extends string>(column: N, target: string) {
  return <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    table.addColumn(column, "uuid", (c) => c.notNull().references(`${target}.id`).onDelete("cascade"));
}
