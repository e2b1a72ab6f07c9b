import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { MAX_FILE_SIZE } from "../../../shared/domain/limits";
import { SUPPORT_MESSAGES, type SupportAccess, type SupportMessage } from "../../../shared/schemas/support";
import { api } from "../../lib/api";
import { appendOnce, type OlderPagesData, useOlderPages } from "../../lib/olderPages";
import { patientKeys, supportKeys } from "../../lib/queryKeys";
import { postMultipart } from "../../lib/upload";

/** 'Besoin d'aide ?': a patient's or a dentist's side of the support chat (issues 7, 16). */

export { supportKeys };

/** GET /api/support/access?page=: when the team opened the thread or its images, newest first. */
export function useSupportAccess(page: number) {
  return useQuery({
    queryKey: [...supportKeys.access(), page] as const,
    queryFn: ({ signal }) => api<SupportAccess>(`/api/support/access?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export const SUPPORT_PAGE_SIZE = 30;

/** GET /api/support/messages, oldest first, older pages on demand. */
export function useSupportMessages() {
  return useOlderPages<SupportMessage>(supportKeys.thread(), (before) => {
    const params = new URLSearchParams({ limit: String(SUPPORT_PAGE_SIZE) });
    if (before) params.set("before", before);
    return `/api/support/messages?${params}`;
  });
}

/** Adds a message at the end of the loaded thread (once: the live echo of a sent one is ignored). */
export function appendSupportMessage(queryClient: QueryClient, message: SupportMessage): void {
  appendOnce(queryClient, supportKeys.thread(), message);
}

/** Marks the team's replies of the loaded thread read (after POST /api/support/read). */
export function markRepliesRead(queryClient: QueryClient, at: string): void {
  queryClient.setQueryData<OlderPagesData<SupportMessage>>(supportKeys.thread(), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((m) => (m.from_team && !m.read_at ? { ...m, read_at: at } : m)),
          })),
        }
      : data,
  );
}

/** POST /api/support/messages (multipart: `body` and/or one `image`, and the request it is about). */
export function useSendSupportMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      body,
      image,
      requestId,
    }: {
      body: string;
      image: File | null;
      requestId?: string | null | undefined;
    }) => {
      const form = new FormData();
      if (body) form.append("body", body);
      if (requestId) form.append("request_id", requestId);
      if (image) form.append("image", image, image.name);
      const { data } = await postMultipart<SupportMessage>("/api/support/messages", form);
      return data;
    },
    onSuccess: (message) => appendSupportMessage(queryClient, message),
  });
}

/** POST /api/support/read: the team's replies are read. */
export function useMarkSupportRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ read: number }>("/api/support/read", { method: "POST" }),
    onSuccess: () => {
      markRepliesRead(queryClient, new Date().toISOString());
      queryClient.setQueryData(supportKeys.unread(), 0);
      // The patient's dashboard says « L'équipe vous a répondu » until then.
      void queryClient.invalidateQueries({ queryKey: patientKeys.dashboard() });
    },
  });
}

const IMAGE_TYPES = new Set(["image/jpeg", "image/png"]);
const IMAGE_EXTENSIONS = /\.(jpe?g|png)$/i;

/** Why this file cannot be joined (JPG or PNG, 10 MB), or null. The server checks the content again. */
export function imageProblem(file: File): string | null {
  const typeOk = file.type ? IMAGE_TYPES.has(file.type) : IMAGE_EXTENSIONS.test(file.name);
  if (!typeOk) return SUPPORT_MESSAGES.imageOnly;
  if (file.size > MAX_FILE_SIZE) return SUPPORT_MESSAGES.imageTooLarge;
  return null;
}
