import { randomUUID } from "node:crypto";
import type { Compilable, CompiledQuery, Kysely } from "kysely";
import { GENERIC_PLAN } from "./prepared";

/**
 * Reads built and compiled once per shape (issue 38, ADR 057). A screen's statement is the same text
 * for every person of one kind (verified or not, limited or not…), only its parameters differ; yet
 * Kysely builds its tree and compiles it to text on every request, a large share of a computed
 * screen's own CPU once the database part is cheap. Here the query is built once per `shape` with
 * placeholders in place of the values that vary (the actor's id, the day…), compiled, and kept; each
 * call binds its values in the placeholders' places and sends the same text (so the same prepared
 * statement, db/prepared.ts).
 *
 * The placeholders are random per process, never a value a person could send. A shape must decide
 * everything the query's text depends on (the builder may branch only on what its key holds): the
 * builder is called with placeholders, never with the values.
 */

/** A placeholder per name, random for this process. */
const placeholders = new Map<string, string>();

function placeholderOf(name: string): string {
  let value = placeholders.get(name);
  if (!value) {
    value = randomUUID();
    placeholders.set(name, value);
  }
  return value;
}

const compiled = new Map<string, CompiledQuery>();
/** Shapes are few (a handful per screen); past this, queries are compiled each time. */
const SHAPES_LIMIT = 200;

/**
 * The query of `shape`, built by `build` with a placeholder for each of `values`, compiled once,
 * then run with `values` bound in their places. Returns the rows.
 */
export async function runCompiled<DB, V extends Record<string, unknown>, R>(
  db: Kysely<DB>,
  shape: string,
  values: V,
  build: (placeholders: { [K in keyof V]: string }) => Compilable<R>,
  options: { genericPlan?: boolean } = {},
): Promise<R[]> {
  const names = Object.keys(values);
  const stand = Object.fromEntries(names.map((name) => [name, placeholderOf(name)])) as {
    [K in keyof V]: string;
  };
  let query = compiled.get(shape);
  if (!query) {
    const built = build(stand).compile();
    assertBindable(built, Object.values(stand));
    // Planned once for every person (db/prepared.ts): its plan does not depend on their values.
    query = options.genericPlan ? { ...built, sql: built.sql + GENERIC_PLAN } : built;
    if (compiled.size < SHAPES_LIMIT) compiled.set(shape, query);
  }
  const byPlaceholder = new Map<unknown, unknown>(names.map((name) => [stand[name], values[name]]));
  const parameters = query.parameters.map((p) => (byPlaceholder.has(p) ? byPlaceholder.get(p) : p));
  const result = await db.executeQuery<R>({ ...query, parameters });
  return result.rows;
}

/**
 * A placeholder must be a whole parameter: one written into the text, or inside another value (a
 * pattern, a list), could not be bound. A builder that does so is a programming error.
 */
function assertBindable(query: CompiledQuery, stand: readonly string[]): void {
  const inside = (value: unknown) =>
    typeof value === "string"
      ? stand.some((p) => value !== p && value.includes(p))
      : Array.isArray(value) || (typeof value === "object" && value !== null && !(value instanceof Date))
        ? stand.some((p) => JSON.stringify(value).includes(p))
        : false;
  if (stand.some((p) => query.sql.includes(p)) || query.parameters.some(inside))
    throw new Error("runCompiled: a placeholder is not a whole parameter of the query");
}

/** For tests: forgets every compiled shape. */
export function forgetCompiled(): void {
  compiled.clear();
}
