import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { VerifiedFacts } from "../../../shared/policies/verification";
import type {
  AdminStats,
  AdminUserList,
  AuditEntry,
  ContactItem,
  RetentionPreview,
  SuspensionResult,
  VerificationRequest,
  VerificationResult,
} from "../../../shared/schemas/admin";
import { api } from "../../lib/api";
import { downloadFile } from "../../lib/download";
import { type AdminUserRole, adminKeys } from "../../lib/queryKeys";
import { useRealtimeEvents } from "../../lib/realtime";

/** The admin area's calls (issue 7): one function (and hook) per endpoint. */

/** Typing pauses this long before a list asks the server (search is server-side). */
export const SEARCH_DEBOUNCE_MS = 300;

/** `value`, once it has stopped changing for `delay` ms. */
export function useDebounced<T>(value: T, delay = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

interface Paged<T> {
  items: T[];
  page: number;
  page_size: number;
  has_more: boolean;
}

export type UserRole = AdminUserRole;
export type AuditType = AuditEntry["type"];

export { adminKeys };

/** `?key=value&...` of the set parameters (an empty one is left out), or "". */
export function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** GET /api/admin/stats */
export function useAdminStats() {
  return useQuery({
    queryKey: adminKeys.stats(),
    queryFn: ({ signal }) => api<AdminStats>("/api/admin/stats", { signal }),
  });
}

/**
 * The pages that show the team's work (the dashboard, verifications, contact messages) keep it live:
 * a verification asked for or decided, a contact message received or handled (« team »), a support
 * message (the unread count) reload the counters, queues and the dentists' list; a reconnection
 * reloads them all.
 */
export function useLiveTeamWork() {
  const queryClient = useQueryClient();
  useRealtimeEvents((notice) => {
    if (notice.type === "team" || notice.type === "resync")
      for (const queryKey of [
        adminKeys.stats(),
        adminKeys.queues(),
        adminKeys.contacts(),
        adminKeys.usersOf("dentist"),
      ])
        void queryClient.invalidateQueries({ queryKey });
    else if (notice.type === "support") void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
  });
}

/** GET /api/admin/users (search and pages of 10 on the server). */
export function useAdminUsers(role: UserRole, search: string, page: number, suspended = false) {
  return useQuery({
    queryKey: adminKeys.users(role, search, page, suspended),
    queryFn: ({ signal }) =>
      api<AdminUserList>(
        `/api/admin/users${queryString({ role, search: search.trim(), page, ...(suspended && { suspended: 1 }) })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export type VerificationDecision = "verify" | "unverify" | "refuse";

/** POST /api/admin/dentists/:id/verification; refreshes the users, the queue and the counters. */
export function useVerificationDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      decision,
      reason = "",
      checked,
    }: {
      id: string;
      decision: VerificationDecision;
      reason?: string;
      /** To verify: the dentist's RPPS number and practice as the screen showed them (ADR 076). */
      checked?: VerifiedFacts;
    }) =>
      api<VerificationResult>(`/api/admin/dentists/${encodeURIComponent(id)}/verification`, {
        method: "POST",
        body: { decision, reason, ...(checked ? { checked } : {}) },
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.usersOf("dentist") });
      void queryClient.invalidateQueries({ queryKey: adminKeys.queues() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

/**
 * POST /api/admin/users/:id/erase: erases a patient's or a dentist's account at the person's
 * request (RGPD art. 17; recorded in the audit log). Every admin list may have shown the person
 * (users, verification queue, support threads, contact, audit, counters): all are read again.
 */
export function useEraseUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`/api/admin/users/${encodeURIComponent(id)}/erase`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/**
 * DELETE /api/admin/users/:id/two-factor: two-step sign-in removed for a person who lost her phone
 * and her recovery codes, once the team checked who asked (ADR 098); her devices are
 * signed out, she is e-mailed, the audit log keeps it. The users' lists and the audit are read again.
 */
export function useRemoveTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ message: string }>(`/api/admin/users/${encodeURIComponent(id)}/two-factor`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/**
 * « Suspendre » (with the reason the person reads in her e-mail and, if chosen, the day it ends: ADR
 * 092 and its addendum) or « Rétablir » an account.
 */
export type SuspensionChange =
  | { id: string; suspend: true; reason: string; endsOn: string | null }
  | { id: string; suspend: false };

/**
 * POST /api/admin/users/:id/suspension (suspends, `{ reason, ends_on? }`) or DELETE (lifts the suspension);
 * recorded in the audit log. A patient's open requests are cancelled, a dentist loses his
 * verification: every admin list may show it (users, verification queue, counters, audit), all
 * are read again.
 */
export function useSuspension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SuspensionChange) =>
      api<SuspensionResult>(
        `/api/admin/users/${encodeURIComponent(change.id)}/suspension`,
        change.suspend
          ? {
              method: "POST",
              body: { reason: change.reason, ...(change.endsOn !== null && { ends_on: change.endsOn }) },
            }
          : { method: "DELETE" },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/**
 * PATCH /api/admin/users/:id/suspension: the day a suspension in place is lifted by itself, moved or
 * taken away (null); the person is e-mailed, the audit log keeps both days (ADR 092's addendum of
 * 06/12). The users' lists and the audit are read again.
 */
export function useSuspensionEnd() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { id: string; endsOn: string | null }) =>
      api<SuspensionResult>(`/api/admin/users/${encodeURIComponent(change.id)}/suspension`, {
        method: "PATCH",
        body: { ends_on: change.endsOn },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** GET /api/admin/verification-requests */
export function useVerificationQueue(page: number) {
  return useQuery({
    queryKey: adminKeys.queue(page),
    queryFn: ({ signal }) =>
      api<Paged<VerificationRequest>>(`/api/admin/verification-requests${queryString({ page })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/contact (newest first). */
export function useContactInbox(page: number) {
  return useQuery({
    queryKey: adminKeys.contact(page),
    queryFn: ({ signal }) =>
      api<Paged<ContactItem>>(`/api/admin/contact${queryString({ page })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/admin/contact/:id/handled */
/** POST (handled) or DELETE (« Remettre à traiter ») /api/admin/contact/:id/handled. */
export function useMarkContactHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, handled }: { id: string; handled: boolean }) =>
      api<{ id: string; message: string }>(`/api/admin/contact/${encodeURIComponent(id)}/handled`, {
        method: handled ? "POST" : "DELETE",
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.contacts() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    },
  });
}

/** GET /api/admin/contact/:id/file, saved under its name (a failure is thrown, in French). */
export function downloadContactFile(id: string, fileName: string): Promise<void> {
  return downloadFile(`/api/admin/contact/${encodeURIComponent(id)}/file`, { fileName, fallback: fileName });
}

/** GET /api/admin/audit */
export function useAudit(type: AuditType | "", person: string, page: number) {
  return useQuery({
    queryKey: adminKeys.audit(type, person, page),
    queryFn: ({ signal }) =>
      api<Paged<AuditEntry>>(`/api/admin/audit${queryString({ type, person: person.trim(), page })}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/retention: what the next daily retention run will erase. */
export function useRetention() {
  return useQuery({
    queryKey: adminKeys.retention(),
    queryFn: ({ signal }) => api<RetentionPreview>("/api/admin/retention", { signal }),
  });
}
