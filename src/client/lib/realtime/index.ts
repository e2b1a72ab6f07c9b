/** The tab's live channel: the reconnecting socket, the tab's shared connection, the cache it refreshes. */

/** Query keys of the conversations (the messages feature builds on them). */
export { conversationKeys } from "../queryKeys";
export {
  DEAD_AFTER_MS,
  RealtimeConnection,
  type RealtimeListener,
  type RealtimeNotice,
  type RealtimeStatus,
  type SocketFactory,
  type SocketLike,
  type StillSignedIn,
} from "./connection";
export { useRealtimeSync, useSupportUnread, useUnreadTotal } from "./sync";
export {
  acquireRealtime,
  closeRealtime,
  currentRealtime,
  releaseRealtime,
  setRealtimeSocketFactory,
  useRealtimeEvents,
  useRealtimeStatus,
} from "./tab";
