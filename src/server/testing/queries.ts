import type { FastifyInstance } from "fastify";

/**
 * The SQL round trips `work` makes through the app's database (Kysely's driver layer, issue 38):
 * each query's text, in the order sent. Whatever else the app runs meanwhile would be counted too,
 * so callers measure one request at a time, with nothing in the background.
 */
export async function queriesDuring<T>(
  app: FastifyInstance,
  work: () => Promise<T>,
): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  const stop = app.database.watchQueries((text) => queries.push(text));
  try {
    return { result: await work(), queries };
  } finally {
    stop();
  }
}
