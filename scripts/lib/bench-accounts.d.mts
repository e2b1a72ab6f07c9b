// Types of bench-accounts.mjs for the TypeScript scripts (scripts/profile-reads.ts).
export function seedBench(
  dataDir: string,
  options: { requests: number; dentists: number; env?: Record<string, string> },
): { dentistEmail: string; adminEmail: string; password: string; requests: number; dentists: number };
