import type { DentistSort } from "../../shared/domain/geo";
import { cityOf, distanceKm } from "./communes";

/**
 * Distances between a patient and dentists (ADR 019), computed on the server from postal codes: the
 * patient's own code never leaves this function; each dentist gets their commune's name (from the
 * practice postcode, else the city they typed) and the distance in whole kilometres, or null.
 */
export function withDistance<T extends { practice_postcode: string | null; city: string | null }>(
  dentist: T,
  patientPostalCode: string | null | undefined,
): Omit<T, "practice_postcode"> & { city: string | null; distance_km: number | null } {
  const { practice_postcode, ...rest } = dentist;
  return {
    ...rest,
    city: cityOf(practice_postcode) ?? dentist.city,
    distance_km: distanceKm(patientPostalCode, practice_postcode),
  };
}

/**
 * 'Les plus proches' is a sort the patient picks, never a placement: by distance, dentists without one
 * last, ties by name. Any other sort keeps the order the list came in (by name).
 */
export function sortDentists<T extends { full_name: string; distance_km: number | null }>(
  list: T[],
  sort: DentistSort,
): T[] {
  if (sort !== "distance") return list;
  return [...list].sort(
    (a, b) =>
      (a.distance_km ?? Number.POSITIVE_INFINITY) - (b.distance_km ?? Number.POSITIVE_INFINITY) ||
      a.full_name.localeCompare(b.full_name, "fr"),
  );
}

/**
 * What a dentist sees of where a patient lives (ADR 019): the commune's name and the distance to the
 * practice, never the postal code.
 */
export function patientPlace(
  patientPostalCode: string | null | undefined,
  practicePostcode: string | null | undefined,
): { patient_city: string | null; distance_km: number | null } {
  return {
    patient_city: cityOf(patientPostalCode),
    distance_km: distanceKm(patientPostalCode, practicePostcode),
  };
}
