// Types of server-build.mjs for the TypeScript that imports it (its test).
export const SERVER_ENTRY: string;
export function serverNeedsBuild(): boolean;
export function buildServer(options?: {
  quiet?: boolean;
  outDir?: string;
  scripts?: string[];
}): Promise<boolean>;
export function ensureServerBuilt(options?: { force?: boolean; quiet?: boolean }): Promise<boolean>;
