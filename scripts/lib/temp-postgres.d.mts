// Types of temp-postgres.mjs for the TypeScript scripts (scripts/profile-reads.ts).
export function startTempPostgres(options?: { dir?: string | undefined }): Promise<{
  url: string;
  env: { DATABASE_URL: string; AUTH_SECRET: string; DATA_KEY: string };
  /** CPU time (ms, user + system) of the server's processes so far. */
  serverCpu(): number;
  stop(): void;
} | null>;
