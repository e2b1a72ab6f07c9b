import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Comparison, Cover, QuoteLineDto, QuoteLineInput } from "../../../../shared/schemas/quotes";
import type { ReadingChoice } from "../../../../shared/schemas/reading";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { api } from "../../../lib/api";
import { patientKeys } from "../../../lib/queryKeys";

/** 'Ma mutuelle', the estimate of each offer against it, and the lines of the patient's own devis. */

/** GET /api/patient/cover: 'Ma mutuelle', or null when the patient has not given it. */
export function useCover() {
  return useQuery({
    queryKey: patientKeys.cover(),
    queryFn: ({ signal }) =>
      api<{ cover: Cover | null }>("/api/patient/cover", { signal }).then((r) => r.cover),
  });
}

/** PUT /api/patient/cover (400 with fields by name) and DELETE /api/patient/cover. */
export function useSaveCover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cover: Cover | null) =>
      cover
        ? api<{ cover: Cover | null; message: string }>("/api/patient/cover", { method: "PUT", body: cover })
        : api<{ cover: null; message: string }>("/api/patient/cover", { method: "DELETE" }),
    onSuccess: ({ cover }) => {
      queryClient.setQueryData(patientKeys.cover(), cover);
      // Every estimate depends on the cover.
      void queryClient.invalidateQueries({ queryKey: patientKeys.comparisons() });
    },
  });
}

/**
 * GET /api/patient/requests/:id/comparison: each offer's estimated reste à charge for the patient's
 * cover (lowest first), the saving against the original quote and the lines aligned tooth by tooth.
 */
export function useComparison(id: string, version = "") {
  return useQuery({
    // `version`: what the page knows of the request (its offers and lines); when it changes, the
    // comparison is fetched again, the previous one shown meanwhile.
    queryKey: [...patientKeys.comparison(id), version] as const,
    queryFn: ({ signal }) =>
      api<Comparison>(`/api/patient/requests/${encodeURIComponent(id)}/comparison`, { signal }),
    // The previous comparison of the same request only, never another request's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
  });
}

export interface QuoteSaved {
  lines: QuoteLineDto[];
  quote_date: string | null;
  quote_amount_cents: number | null;
  message: string;
}

/**
 * PUT /api/patient/requests/:id/quote: the lines of the patient's own devis (an empty list clears
 * them); 400 with fields "lines.N.field" or "quote_date", 409 once the request is finished or cancelled.
 */
export function useSaveQuote(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    /**
     * The lines, the devis's date ('YYYY-MM-DD', issue 33: its tariffs) and the reading they were read
     * from (issue 17: confirms that reading).
     */
    mutationFn: ({ lines, quote_date, reading_id, reading_choices }: QuoteSaveInput) =>
      api<QuoteSaved>(`/api/patient/requests/${encodeURIComponent(id)}/quote`, {
        method: "PUT",
        body: {
          lines,
          ...(quote_date ? { quote_date } : {}),
          ...(reading_id ? { reading_id } : {}),
          ...(reading_id && reading_choices?.length ? { reading_choices } : {}),
        },
      }),
    onSuccess: ({ lines, quote_date, quote_amount_cents }) => {
      queryClient.setQueryData<RequestDetail>(patientKeys.request(id), (current) =>
        current ? { ...current, quote_lines: lines, quote_date, quote_amount_cents } : current,
      );
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
    },
  });
}

export interface QuoteSaveInput {
  lines: QuoteLineInput[];
  quote_date?: string;
  reading_id?: string;
  /** With `reading_id`: read or table, for each figure that contradicted the act table (issue 34). */
  reading_choices?: ReadingChoice[];
}
