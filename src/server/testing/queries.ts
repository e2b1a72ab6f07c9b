import type { FastifyInstance } from "fastify";

/**
 * The SQL round trips `work` makes through the app's database (Kysely's driver layer, issue 38):
 * each query's text, in the order sent. Whatever else the app runs meanwhile would be counted too,
 * so callers measure one request at a time, with nothing in the background. The change bus's
 * `pg_notify` is left out: an earlier write's notification, sent after its commit, can land in the
 * window on PostgreSQL (it made a read's count 2 instead of 1 once in CI), and a read sends none.
 */
export async function queriesDuring<T>(
  app: FastifyInstance,
  work: () => Promise<T>,
): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  const stop = app.database.watchQueries((text) => {
    if (!/^\s*select pg_notify\(/i.test(text)) queries.push(text);
  });
  try {
    return { result: await work(), queries };
  } finally {
    stop();
  }
}
