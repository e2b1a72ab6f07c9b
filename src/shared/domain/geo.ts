/**
 * Distances between a patient and a dentist (issue 16, decision 019). Pure: the communes dataset lives on
 * the server only (src/server/geo/communes.ts); the client only formats what the API sends.
 */

/** A French postal code: 5 digits. Whether it exists is checked on the server against the dataset. */
export const POSTAL_CODE_PATTERN = /^\d{5}$/;

export const GEO_MESSAGES = {
  postalCodeInvalid: "Le code postal doit comporter 5 chiffres.",
  postalCodeUnknown: "Ce code postal ne correspond à aucune commune française.",
  sortNeutral: "Ordre alphabétique",
  sortNearest: "Les plus proches",
  sortLabel: "Trier les dentistes",
  sortNeedsPostalCode:
    "Renseignez votre code postal dans votre profil pour voir la distance et trier par proximité.",
  distanceFilterUnknown: "Cette distance n'existe pas (10, 25, 50 ou 100 km).",
  /** The dentist's practice has no point (a small commune, ADR 019): no distance to filter by. */
  distanceFilterUnavailable:
    "La commune de votre cabinet n'est pas localisée\u202f: le filtre par distance n'est pas disponible.",
} as const;

export type Coordinates = { lat: number; lon: number };

/**
 * The dentist's list filtered by the patient's distance to his practice (ADR 094): within one of these
 * radii, in kilometres as the list shows them (rounded).
 */
export const DISTANCE_FILTERS_KM = ["10", "25", "50", "100"] as const;
export type DistanceFilter = (typeof DISTANCE_FILTERS_KM)[number];

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance (haversine) in kilometres, as the crow flies. */
export function haversineKm(a: Coordinates, b: Coordinates): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** What the API sends: whole kilometres (0 means under one kilometre). */
export function roundKm(km: number): number {
  return Math.round(km);
}

/** "< 1 km", "12 km", "1 234 km": fr-FR grouping, a no-break space before the unit. */
export function formatDistance(km: number | null | undefined): string | null {
  if (km === null || km === undefined || !Number.isFinite(km)) return null;
  if (km < 1) return "<\u00a01\u00a0km";
  return `${new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 0 }).format(Math.round(km))}\u00a0km`;
}

/** The sorts a patient may pick for the recipient chooser; the default keeps the neutral order. */
export const DENTIST_SORTS = ["name", "distance"] as const;
export type DentistSort = (typeof DENTIST_SORTS)[number];

/** "Lyon · 12 km", "Lyon", "12 km" or null: a dentist's commune and distance, as the lists show them. */
export function placeLabel(city: string | null | undefined, km: number | null | undefined): string | null {
  return [city, formatDistance(km)].filter(Boolean).join(" · ") || null;
}
