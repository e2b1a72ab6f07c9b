import type { ChatMessage } from "./schemas/conversations";
import type { SupportMessage } from "./schemas/support";

/** The realtime channel's heartbeat and the client's reconnect delays (ADR 010). */
export const HEARTBEAT_MS = 30_000;
export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;

/**
 * The close code of a socket whose person's sessions or rights changed: the browser checks who is
 * signed in before opening another (a signed-out tab would only be refused).
 */
export const SESSION_CHANGED = 4001;

/** The delay before the n-th reconnection attempt (0-based): 1, 2, 5, 10 s, then every 10 s. */
export function reconnectDelay(attempt: number): number {
  const last = RECONNECT_DELAYS_MS[RECONNECT_DELAYS_MS.length - 1] as number;
  return RECONNECT_DELAYS_MS[Math.max(0, attempt)] ?? last;
}

/** What the server pushes on `/api/realtime`, to the parties of a conversation only. */
export type RealtimeEvent =
  | { type: "ready"; user_id: string }
  | { type: "heartbeat" }
  | { type: "message"; conversation_id: string; message: ChatMessage }
  | { type: "read"; conversation_id: string; reader_id: string; read_at: string }
  | { type: "unread"; total: number }
  /** A support chat message (to its patient and to the team). */
  | { type: "support"; message: SupportMessage }
  /** The team's answers were read in another tab of the same person: the badge and thread follow. */
  | { type: "support_read" }
  /** An appointment of the user changed: the screens reload it (ids only). */
  | { type: "appointment"; appointment_id: string; request_id: string }
  /**
   * One of the user's requests changed by the other party (a reply, an offer sent or withdrawn, an
   * offer accepted or its acceptance withdrawn): its pages, lists and offers reload (ids only).
   */
  | { type: "request"; request_id: string }
  /** A dentist's requests to answer changed (a patient sent one): the lists and counters reload. */
  | { type: "requests" }
  /** To the team: a verification asked for or decided, a contact message received or handled. */
  | { type: "team" }
  /** A reading of the patient's devis finished (issue 17): the request's reading reloads (ids only). */
  | { type: "reading"; request_id: string; reading_id: string };
