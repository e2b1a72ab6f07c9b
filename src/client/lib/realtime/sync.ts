import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ConversationList } from "../../../shared/schemas/conversations";
import type { SupportUnread } from "../../../shared/schemas/support";
import { api } from "../api";
import { appointmentKeys, refresh as refreshAppointments } from "../appointments";
import { conversationKeys, dentistKeys, offerKeys, patientKeys, supportKeys } from "../queryKeys";
import { useRealtimeEvents } from "./tab";

/** The query cache the live channel keeps fresh. */

/** The dentist dashboard's query ('Messages non lus', recent messages), refreshed on events. */
const DENTIST_DASHBOARD_KEY = dentistKeys.dashboard();
/** What a sent request changes for a dentist (never a request's detail). */
const DENTIST_WORK_KEYS = dentistKeys.work();

/** What any change of a patient's request changes beside its page: her lists and dashboard. */
const PATIENT_REQUEST_KEYS = [patientKeys.requestLists(), patientKeys.dashboard()] as const;

/** Unread messages across this person's conversations (the 'Messages' navigation badge). */
export function useUnreadTotal(enabled = true) {
  return useQuery({
    queryKey: conversationKeys.unreadTotal(),
    queryFn: ({ signal }) =>
      api<ConversationList>("/api/conversations?limit=1", { signal }).then((r) => r.unread_total),
    enabled,
    staleTime: 60_000,
  });
}

/** The team's answers this patient or dentist has not read (the badge on « Besoin d'aide ? »). */
export function useSupportUnread(enabled = true) {
  return useQuery({
    queryKey: supportKeys.unread(),
    queryFn: ({ signal }) => api<SupportUnread>("/api/support/unread", { signal }).then((r) => r.unread),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * Mounted once by the area layout: opens the live channel and keeps the cache in step with it.
 * New messages and read receipts refresh the conversation lists and mark the threads stale (the
 * open thread is updated in place by the messages screen); unread totals go to the badge; the
 * dentist dashboard is refreshed; an appointment changed by the other side reloads the appointment
 * lists and its request; a request changed by the other party (a reply, an offer sent, withdrawn,
 * accepted or given back) reloads the patient's request, comparison, lists and dashboard, and the
 * dentist's offers and lists; a request sent, closed or reopened reloads the dentist's lists and
 * whether his open proposal page may still propose; a finished reading of a devis reloads that request's reading; a reconnection
 * refetches every conversation and appointment query, the patient's requests and the dentist's offers;
 * an answer of the team counts on the « Besoin d'aide ? » badge (the help page, open, reads it at once).
 */
export function useRealtimeSync(enabled = true): void {
  const queryClient = useQueryClient();
  useRealtimeEvents((notice) => {
    switch (notice.type) {
      case "resync":
        void queryClient.invalidateQueries({ queryKey: conversationKeys.all });
        for (const queryKey of DENTIST_WORK_KEYS) void queryClient.invalidateQueries({ queryKey });
        void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
        // Whatever the patient's requests and the dentist's offers missed meanwhile.
        void queryClient.invalidateQueries({ queryKey: patientKeys.all });
        void queryClient.invalidateQueries({ queryKey: offerKeys.lists() });
        void queryClient.invalidateQueries({ queryKey: supportKeys.unread() });
        break;
      case "request":
        // The patient's side of the request; the dentist's own offer on it, never its detail (that
        // records a view in the patient's access history).
        for (const queryKey of [
          ...PATIENT_REQUEST_KEYS,
          patientKeys.request(notice.request_id),
          patientKeys.comparison(notice.request_id),
          ...DENTIST_WORK_KEYS,
          offerKeys.lists(),
          offerKeys.mine(notice.request_id),
        ])
          void queryClient.invalidateQueries({ queryKey });
        break;
      case "appointment":
        refreshAppointments(queryClient, notice);
        void queryClient.invalidateQueries({ queryKey: DENTIST_DASHBOARD_KEY });
        // The menu's 'Rendez-vous' counter (appointments to confirm).
        void queryClient.invalidateQueries({ queryKey: dentistKeys.todoCount() });
        break;
      case "requests":
        // A patient sent a request: the dentist's lists, dashboard and 'Demandes' counter reload. One
        // closed or reopened: an open proposal page learns whether he may still propose (`may_offer`).
        for (const queryKey of DENTIST_WORK_KEYS) void queryClient.invalidateQueries({ queryKey });
        void queryClient.invalidateQueries({ predicate: (query) => offerKeys.isMine(query.queryKey) });
        break;
      case "reading":
        // The patient's devis was read (issue 17): its reading and its request reload.
        void queryClient.invalidateQueries({ queryKey: patientKeys.reading(notice.request_id) });
        void queryClient.invalidateQueries({ queryKey: patientKeys.request(notice.request_id) });
        break;
      case "support":
        // Counted, not refetched: the help page, if open, marks it read right after (and sets 0).
        // Not loaded yet: its first load counts it.
        if (notice.message.from_team) {
          queryClient.setQueryData<number>(supportKeys.unread(), (count) =>
            count === undefined ? undefined : count + 1,
          );
          void queryClient.invalidateQueries({ queryKey: patientKeys.dashboard() });
        }
        break;
      case "support_read":
        // Read in another tab of hers: no badge, the thread's marks and the dashboard follow.
        queryClient.setQueryData(supportKeys.unread(), 0);
        void queryClient.invalidateQueries({ queryKey: supportKeys.thread() });
        void queryClient.invalidateQueries({ queryKey: patientKeys.dashboard() });
        break;
      case "unread":
        queryClient.setQueryData(conversationKeys.unreadTotal(), notice.total);
        void queryClient.invalidateQueries({ queryKey: DENTIST_DASHBOARD_KEY });
        break;
      case "message":
      case "read":
        void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
        void queryClient.invalidateQueries({
          queryKey: conversationKeys.thread(notice.conversation_id),
          refetchType: "none",
        });
        void queryClient.invalidateQueries({ queryKey: DENTIST_DASHBOARD_KEY });
        break;
      default:
        break;
    }
  }, enabled);
}
