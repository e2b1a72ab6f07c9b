import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type {
  Appointment,
  AppointmentList,
  AppointmentResult,
  AppointmentScope,
} from "../../shared/schemas/appointments";
import { api, isApiError } from "./api";
import { downloadFile } from "./download";
import { appointmentKeys, patientKeys } from "./queryKeys";

/**
 * Appointment calls of both sides (ADR 011; the server binds everything to the signed-in person). Every
 * query lives under ["appointments", ...] so that any booking change refreshes all of them.
 */

export { appointmentKeys };

const appointmentPath = (id: string) => `/api/appointments/${encodeURIComponent(id)}`;

/**
 * GET /api/appointments?when=…&page=N: the asker's pending and coming appointments, soonest first
 * (`upcoming`), or those that took place, the latest first (`past`).
 */
export function useMyAppointments(
  when: AppointmentScope,
  page = 1,
  { enabled = true }: { enabled?: boolean } = {},
) {
  const query = new URLSearchParams(when === "upcoming" ? {} : { when });
  if (page > 1) query.set("page", String(page));
  return useQuery({
    queryKey: appointmentKeys.mine(when, page),
    queryFn: ({ signal }) =>
      api<AppointmentList>(`/api/appointments${query.size ? `?${query}` : ""}`, { signal }),
    // The previous page of the same list while the next loads; never the other list's (a tab change).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === when ? keepPreviousData(previous) : undefined,
    enabled,
  });
}

/** The asker's pending and coming appointments (dashboards, « Rendez-vous »). */
export function useUpcomingAppointments(page = 1, options: { enabled?: boolean } = {}) {
  return useMyAppointments("upcoming", page, options);
}

/** GET /api/appointments?request=<id>: every appointment of one request, newest first. */
export function useRequestAppointments(requestId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: appointmentKeys.ofRequest(requestId),
    queryFn: ({ signal }) =>
      api<AppointmentList>(`/api/appointments?request=${encodeURIComponent(requestId)}`, { signal }),
    enabled,
  });
}

/** After a change (here or, over the live channel, by the other side): every list, and the request page. */
export function refresh(queryClient: QueryClient, appointment: Pick<Appointment, "request_id">) {
  void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
  void queryClient.invalidateQueries({ queryKey: patientKeys.request(appointment.request_id) });
}

/** A refusal because the appointment changed meanwhile (409, 404): show it as it now is. */
function refreshOnConflict(queryClient: QueryClient, error: unknown) {
  if (isApiError(error) && (error.status === 409 || error.status === 404))
    void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
}

/**
 * POST /api/patient/offers/:offerId/appointment { slots } (1–3 Paris local times) → 201, pending
 * for the dentist. 400 with `fields['slots.N']`; 409 when the offer is not accepted or already booked, or
 * a time is one the dentist has confirmed for another appointment.
 */
export function useBookAppointment(offerId: string, requestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slots: string[]) =>
      api<AppointmentResult>(`/api/patient/offers/${encodeURIComponent(offerId)}/appointment`, {
        method: "POST",
        body: { slots },
      }),
    onSuccess: ({ appointment }) => {
      queryClient.setQueryData<AppointmentList>(appointmentKeys.ofRequest(requestId), (current) =>
        current
          ? { ...current, items: [appointment, ...current.items.filter((a) => a.id !== appointment.id)] }
          : current,
      );
      refresh(queryClient, appointment);
    },
    onError: (error) => {
      refreshOnConflict(queryClient, error);
      // A time the dentist has meanwhile confirmed elsewhere (ADR 038): the offer's slots say so again.
      if (isApiError(error) && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: patientKeys.request(requestId) });
    },
  });
}

/** Puts the answered appointment in the caches at once, then asks again. */
function useAppointmentMutation<V extends { id: string }>(
  request: (variables: V) => Promise<AppointmentResult>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: ({ appointment }) => {
      queryClient.setQueryData<AppointmentList>(
        appointmentKeys.ofRequest(appointment.request_id),
        (current) =>
          current
            ? { ...current, items: current.items.map((a) => (a.id === appointment.id ? appointment : a)) }
            : current,
      );
      refresh(queryClient, appointment);
    },
    onError: (error) => refreshOnConflict(queryClient, error),
  });
}

/** POST /api/appointments/:id/confirm { starts_at } (one of `options`) → confirmed. */
export function useConfirmAppointment() {
  return useAppointmentMutation(({ id, starts_at }: { id: string; starts_at: string }) =>
    api<AppointmentResult>(`${appointmentPath(id)}/confirm`, { method: "POST", body: { starts_at } }),
  );
}

/** POST /api/appointments/:id/propose { slots } → pending, awaiting the other side (also moves a confirmed one). */
export function useProposeAppointment() {
  return useAppointmentMutation(({ id, slots }: { id: string; slots: string[] }) =>
    api<AppointmentResult>(`${appointmentPath(id)}/propose`, { method: "POST", body: { slots } }),
  );
}

/** POST /api/appointments/:id/cancel → cancelled. */
export function useCancelAppointment() {
  return useAppointmentMutation(({ id }: { id: string }) =>
    api<AppointmentResult>(`${appointmentPath(id)}/cancel`, { method: "POST" }),
  );
}

/** GET /api/appointments/:id/calendar.ics */
export function calendarUrl(id: string): string {
  return `${appointmentPath(id)}/calendar.ics`;
}

/** Saves the confirmed appointment's calendar file (.ics); a failure is thrown as an ApiError. */
export function downloadAppointmentCalendar(id: string): Promise<void> {
  return downloadFile(calendarUrl(id), { fallback: "rendez-vous-sourio.ics" });
}
