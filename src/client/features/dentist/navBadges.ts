import { useQuery } from "@tanstack/react-query";
import type { DentistTodoCount } from "../../../shared/schemas/dentist";
import { api } from "../../lib/api";
import { dentistKeys } from "../../lib/queryKeys";

/**
 * The dentist menu's counters (issue 16): 'Demandes' shows the requests to answer, 'Rendez-vous' the
 * appointments to confirm. Its query lives
 * under the "dentist" key, so the live channel's `requests` event (and any dentist refresh) reloads it.
 * Kept apart from the dentist pages (imported by the shell, which every area loads).
 */
export const todoCountKey = dentistKeys.todoCount();

export interface NavBadge {
  count: number;
  /** Read after the entry's name: "Demandes, 3 à traiter". */
  text: string;
}

/** "3 à traiter", "1 à traiter" (à traiter does not vary with the number). */
export function todoText(count: number): string {
  return `${count} à traiter`;
}

/** "2 à confirmer" (the appointments waiting for his confirmation). */
export function toConfirmText(count: number): string {
  return `${count} à confirmer`;
}

/**
 * GET /api/dentist/todo-count → the badges by menu path (none while zero or disabled): 'Demandes'
 * to answer, 'Rendez-vous' to confirm.
 */
export function useDentistNavBadges(enabled: boolean): Record<string, NavBadge> {
  const query = useQuery({
    queryKey: todoCountKey,
    queryFn: ({ signal }) => api<DentistTodoCount>("/api/dentist/todo-count", { signal }),
    enabled,
    staleTime: 30_000,
  });
  const badges: Record<string, NavBadge> = {};
  if (!enabled || !query.data) return badges;
  const { requests, appointments } = query.data;
  if (requests > 0) badges["/dentist/quote-requests"] = { count: requests, text: todoText(requests) };
  if (appointments > 0)
    badges["/dentist/appointments"] = { count: appointments, text: toConfirmText(appointments) };
  return badges;
}
