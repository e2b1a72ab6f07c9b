import { useEffect, useSyncExternalStore } from "react";
import { PATIENTS_FIGURE_MINIMUM, patientsFigure } from "../../content/landing";
import { api } from "../../lib/api";

/*
 * GET /api/public/stats once per visit, after hydration, in a small store like lib/config.ts (no
 * react-query in the landing page's initial JS). null while unknown: the page shows the content's
 * written figure, which is also what the pre-rendered HTML holds.
 */
let patients: number | null = null;
let requested = false;
const listeners = new Set<() => void>();

function load(): void {
  if (requested) return;
  requested = true;
  api<{ patients?: unknown }>("/api/public/stats")
    .then((data) => {
      if (typeof data?.patients !== "number" || !Number.isFinite(data.patients)) return;
      patients = data.patients;
      for (const listener of listeners) listener();
    })
    .catch(() => {
      // Keep the written figure; the next visit asks again.
    });
}

/** Tests only: forget the loaded figure. */
export function resetPublicStatsStore(): void {
  patients = null;
  requested = false;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The rounded count of patients from the database, or null while unknown (and when pre-rendering). */
export function usePatientsCount(): number | null {
  useEffect(load, []);
  return useSyncExternalStore(
    subscribe,
    () => patients,
    () => null,
  );
}

/**
 * The « patients accompagnés » figure (an island on the pre-rendered landing page, ADR 027): the
 * written figure until the database's count is known and reaches PATIENTS_FIGURE_MINIMUM.
 */
export function PatientsFigure({ written }: { written: string }) {
  const patients = usePatientsCount();
  return <>{patients !== null && patients >= PATIENTS_FIGURE_MINIMUM ? patientsFigure(patients) : written}</>;
}
