import { useQuery } from "@tanstack/react-query";
import type { DentistTodoCount } from "../../../shared/schemas/dentist";
import { api } from "../../lib/api";
import { dentistKeys } from "../../lib/queryKeys";

/**
 * The dentist menu's counters (issue 16): 'Demandes' shows the requests to answer. Its query lives
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

/** GET /api/dentist/todo-count → the badges by menu path (none while zero or disabled). */
export function useDentistNavBadges(enabled: boolean): Record<string, NavBadge> {
  const query = useQuery({
    queryKey: todoCountKey,
    queryFn: ({ signal }) => api<DentistTodoCount>("/api/dentist/todo-count", { signal }),
    enabled,
    staleTime: 30_000,
  });
  const count = enabled ? (query.data?.requests ?? 0) : 0;
  return count > 0 ? { "/dentist/quote-requests": { count, text: todoText(count) } } : {};
}
