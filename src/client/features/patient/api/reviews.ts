import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DentistReviews, MyReviews, OwnReview, ReviewInput } from "../../../../shared/schemas/reviews";
import { api } from "../../../lib/api";
import { patientKeys, reviewKeys } from "../../../lib/queryKeys";

/** GET /api/patient/reviews: the patient's reviews and the past appointments she may still review. */
export function useMyReviews() {
  return useQuery({
    queryKey: reviewKeys.mine(),
    queryFn: ({ signal }) => api<MyReviews>("/api/patient/reviews", { signal }),
  });
}

/** GET /api/dentists/:id/reviews: a verified dentist's published reviews, newest first. */
export function useDentistReviews(dentistId: string, page: number) {
  return useQuery({
    queryKey: reviewKeys.ofDentist(dentistId, page),
    queryFn: ({ signal }) =>
      api<DentistReviews>(`/api/dentists/${encodeURIComponent(dentistId)}/reviews?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

type Saved = { review: OwnReview; message: string };

/** POST /api/patient/appointments/:id/review (new) or PUT /api/patient/reviews/:id (rewrite). */
export function useSaveReview(target: { appointmentId: string } | { reviewId: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReviewInput) =>
      "appointmentId" in target
        ? api<Saved>(`/api/patient/appointments/${encodeURIComponent(target.appointmentId)}/review`, {
            method: "POST",
            body: input,
          })
        : api<Saved>(`/api/patient/reviews/${encodeURIComponent(target.reviewId)}`, {
            method: "PUT",
            body: input,
          }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}

/** DELETE /api/patient/reviews/:id */
export function useDeleteReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`/api/patient/reviews/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}
