// Types of node-support.mjs for the TypeScript that imports it (its test).
export const OLDEST_SUPPORTED: [number, number];
export function nodeSupportNotice(version?: string): string | null;
