// Types of precompress.mjs for the TypeScript that imports it (its test).
export const COMPRESSIBLE: RegExp;
export const MIN_SIZE: number;
export function precompress(dir: string, options?: { skip?: string[] }): Promise<string[]>;
