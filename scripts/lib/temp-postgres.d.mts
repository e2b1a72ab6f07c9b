// Types of temp-postgres.mjs for the TypeScript scripts (scripts/profile-reads.ts).
export function startTempPostgres(): Promise<{
  url: string;
  env: { DATABASE_URL: string; AUTH_SECRET: string; DATA_KEY: string };
  stop(): void;
} | null>;
