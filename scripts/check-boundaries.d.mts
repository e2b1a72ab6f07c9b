// Types of check-boundaries.mjs for the TypeScript that imports it (its test).
export interface ImportEdge {
  from: string;
  to: string;
  specifier: string;
  line: number;
}
export interface AllowlistEntry {
  rule: string;
  from: string;
  to: string;
  reason: string;
}
export interface Violation {
  rule: string;
  from: string;
  to: string;
  text: string;
}
export const SERVER_LAYERS: { name: string; units: string[] }[];
export const SERVER_MAX_FLOORS: number;
export const ALLOWLIST: AllowlistEntry[];
export function isTest(file: string): boolean;
export function listFiles(root: string): string[];
export function readImports(root: string, files: string[]): ImportEdge[];
export function serverUnit(file: string): string | undefined;
export function serverGraph(
  edges: ImportEdge[],
  skip?: (edge: ImportEdge) => boolean,
): Map<string, Map<string, ImportEdge[]>>;
export function floors(graph: Map<string, Map<string, ImportEdge[]>>): Map<string, number>;
export function checkBoundaries(options?: {
  root?: string;
  allowlist?: AllowlistEntry[];
  maxFloors?: number;
}): {
  violations: Violation[];
  allowed: (Violation | AllowlistEntry)[];
  stale: AllowlistEntry[];
  graph: Map<string, Map<string, ImportEdge[]>>;
};
