import type { AnnounceDeps } from "../../realtime/bus";
import { loggableError } from "../../redact";

/**
 * What the open screens of a request's parties are told, after the commit, when a dentist's answer
 * or the patient's decision changes it: ids only (no text leaves the database through the bus). Best
 * effort: a failed publish is only logged, and the screens load it again on their next visit or
 * reconnection.
 */

/**
 * The request changed for these people (an offer sent, withdrawn, accepted or its acceptance
 * withdrawn): their request page, lists, comparison and offers reload.
 */
export function announceRequestChange(deps: AnnounceDeps, requestId: string, userIds: string[]): void {
  deps.bus
    .publish({ kind: "request", requestId, userIds: [...new Set(userIds)] })
    .catch((error) => deps.log.error({ err: loggableError(error) }, "changement de demande non diffusé"));
}

/**
 * The requests open to dentists changed: one sent or opened to all, closed (cancelled, deleted, an
 * offer accepted on it) or reopened (the acceptance withdrawn). Every verified dentist's lists and
 * counters reload (no ids).
 */
export function announceOpenRequests(deps: AnnounceDeps): void {
  deps.bus
    .publish({ kind: "requests" })
    .catch((error) => deps.log.error({ err: loggableError(error) }, "changement des demandes non diffusé"));
}

/** A message a dentist's reply or offer left in their conversation (reply.repo's `recordReply`). */
export interface RecordedReply {
  requestId: string;
  conversationId: string;
  messageId: string;
  patientId: string;
  dentistId: string;
}

/**
 * A dentist's reply, offer or withdrawn offer: its message reaches both parties' open chats and the
 * patient's unread count, as a message written in the chat does, and the request's screens reload.
 */
export function announceReply(deps: AnnounceDeps, reply: RecordedReply): void {
  const userIds = [reply.patientId, reply.dentistId];
  deps.bus
    .publish({ kind: "message", conversationId: reply.conversationId, messageId: reply.messageId, userIds })
    .catch((error) => deps.log.error({ err: loggableError(error) }, "message de réponse non diffusé"));
  announceRequestChange(deps, reply.requestId, userIds);
}
