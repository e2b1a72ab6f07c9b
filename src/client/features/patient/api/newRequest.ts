import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DentistSort } from "../../../../shared/domain/geo";
import type { DocumentType, Urgency } from "../../../../shared/domain/requests";
import type { QuoteLineInput } from "../../../../shared/schemas/quotes";
import type { VerifiedDentist } from "../../../../shared/schemas/requests";
import { api } from "../../../lib/api";
import { dentistsKeys, patientKeys } from "../../../lib/queryKeys";
import { postMultipart } from "../../../lib/upload";

/** 'Déposer un devis': the dentists a request may be sent to, and sending it with its files. */

/** GET /api/dentists/verified: by name, or 'Les plus proches' first (sort=distance) when the patient asks. */
export function useVerifiedDentists(sort: DentistSort = "name") {
  return useQuery({
    queryKey: dentistsKeys.verified(sort),
    queryFn: ({ signal }) =>
      api<{ items: VerifiedDentist[] }>(
        sort === "distance" ? "/api/dentists/verified?sort=distance" : "/api/dentists/verified",
        { signal },
      ).then((r) => r.items),
    staleTime: 5 * 60_000,
  });
}

export interface NewRequest {
  treatment_type: string;
  description: string;
  budget: string;
  quote_amount: string;
  urgency: Urgency;
  recipient: string;
  /** The devis line by line (optional): sent as the JSON field quote_lines when not empty. */
  quote_lines?: QuoteLineInput[];
  /** The devis's date ('YYYY-MM-DD'), sent with its lines (issue 33): their tariffs' day. */
  quote_date?: string;
  files: { file: File; type: DocumentType }[];
  /** The form's id of this sending, the same on each retry (ADR 101): the server saves it once. */
  submission_id?: string | undefined;
}

/**
 * A new id for a request being written (ADR 101); none where the browser has no `randomUUID` (a page
 * not served over https nor from localhost): each sending is then a request, as before.
 */
export function newSubmissionId(): string | undefined {
  return typeof crypto !== "undefined" && typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : undefined;
}

/** Multipart overhead of one part, approximately (boundary line and headers). */
const PART_OVERHEAD = 160;

/**
 * Where each file lies in the multipart body, in bytes (approximately: the headers' exact
 * length depends on the browser's boundary). Used to turn the body's progress into per-file
 * progress.
 */
export function fileOffsets(fields: Record<string, string>, files: File[]) {
  const encoder = new TextEncoder();
  let offset = 0;
  for (const [name, value] of Object.entries(fields)) {
    offset += PART_OVERHEAD + name.length + encoder.encode(value).length;
  }
  const ranges = files.map((file) => {
    offset += PART_OVERHEAD + encoder.encode(file.name).length + file.type.length;
    const start = offset;
    offset += file.size;
    return { start, end: offset };
  });
  return { ranges, total: offset + 64 };
}

/** Per-file progress (0–100) when `fraction` of the whole body has been sent. */
export function progressOfFiles(ranges: { start: number; end: number }[], total: number, fraction: number) {
  const sent = fraction * total;
  return ranges.map(({ start, end }) => {
    if (sent >= end) return 100;
    if (sent <= start) return 0;
    return Math.round(((sent - start) / Math.max(1, end - start)) * 100);
  });
}

/**
 * POST /api/patient/requests: the text fields first, then each file under `files`, sent with
 * XMLHttpRequest so `onProgress` receives each file's real progress (0–100, in file order).
 */
export function createRequest(input: NewRequest, onProgress?: (perFile: number[]) => void) {
  const fields: Record<string, string> = {
    treatment_type: input.treatment_type,
    description: input.description,
    budget: input.budget,
    quote_amount: input.quote_amount,
    urgency: input.urgency,
    recipient: input.recipient,
    consent: "true",
    document_types: JSON.stringify(input.files.map((f) => f.type)),
  };
  if (input.quote_lines && input.quote_lines.length > 0) {
    fields.quote_lines = JSON.stringify(input.quote_lines);
    if (input.quote_date) fields.quote_date = input.quote_date;
  }
  if (input.submission_id) fields.submission_id = input.submission_id;
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const { file } of input.files) body.append("files", file, file.name);
  const { ranges, total } = fileOffsets(
    fields,
    input.files.map((f) => f.file),
  );
  return postMultipart<{ id: string; message: string }>(
    "/api/patient/requests",
    body,
    onProgress ? (percent) => onProgress(progressOfFiles(ranges, total, percent / 100)) : undefined,
  ).then((r) => r.data);
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, onProgress }: { input: NewRequest; onProgress?: (perFile: number[]) => void }) =>
      createRequest(input, onProgress),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.all }),
  });
}
