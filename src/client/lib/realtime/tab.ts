import { useEffect, useRef, useSyncExternalStore } from "react";
import { getQueryClient } from "../queryClient";
import { fetchSession, useSession } from "../session";
import {
  RealtimeConnection,
  type RealtimeListener,
  type RealtimeStatus,
  type SocketFactory,
  type SocketLike,
} from "./connection";

/** The tab's one shared connection, opened for the signed-in person, and the React hooks that use it. */

let factoryOverride: SocketFactory | null | undefined;

/** Tests only: the sockets to open (a fake), or null for none; undefined restores the default. */
export function setRealtimeSocketFactory(factory: SocketFactory | null | undefined): void {
  factoryOverride = factory;
}

function socketFactory(): SocketFactory | null {
  if (factoryOverride !== undefined) return factoryOverride;
  // Component tests never open a real socket unless they install a fake.
  if (import.meta.env?.MODE === "test" || typeof WebSocket === "undefined") return null;
  return (url) => new WebSocket(url) as unknown as SocketLike;
}

function realtimeUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss" : "ws"}://${host}/api/realtime`;
}

interface Shared {
  userId: string;
  connection: RealtimeConnection;
  refs: number;
  closeTimer: ReturnType<typeof setTimeout> | null;
}
let shared: Shared | null = null;
const sharedListeners = new Set<() => void>();

function publishShared(): void {
  for (const listener of [...sharedListeners]) listener();
}

/**
 * This tab's own writes settled (10 s at most). The server closes the socket (SESSION_CHANGED) while a
 * write that renews the session is still answering — two-step sign-in turned on or off makes a new
 * session, sets its cookie in the answer, then deletes the old one: asking who is signed in before
 * that answer lands reads the old session, and the socket reopened with its cookie is refused once
 * it is deleted (an HTTP 401 on the upgrade, which the browser logs). Sign-out likewise.
 */
export function writesSettled(client = getQueryClient(), limitMs = 10_000): Promise<void> {
  if (client.isMutating() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, limitMs);
    const unsubscribe = client.getMutationCache().subscribe(() => {
      if (client.isMutating() === 0) done();
    });
  });
}

/** The tab's connection for this person, opened on first use (another person's is closed). */
export function acquireRealtime(userId: string): RealtimeConnection {
  if (shared && shared.userId !== userId) closeRealtime();
  if (!shared) {
    const connection = new RealtimeConnection(realtimeUrl(), socketFactory(), async () => {
      await writesSettled();
      return (await fetchSession())?.id === userId;
    });
    // The shared slot's listeners also follow this connection's status.
    connection.subscribeStatus(publishShared);
    shared = { userId, connection, refs: 0, closeTimer: null };
    connection.start();
    publishShared();
  }
  if (shared.closeTimer) clearTimeout(shared.closeTimer);
  shared.closeTimer = null;
  shared.refs += 1;
  return shared.connection;
}

/** Gives the connection back; the last one out closes it (a moment later, so a remount keeps it). */
export function releaseRealtime(connection: RealtimeConnection): void {
  const current = shared;
  if (!current || current.connection !== connection) return;
  current.refs = Math.max(0, current.refs - 1);
  if (current.refs > 0 || current.closeTimer) return;
  current.closeTimer = setTimeout(() => {
    current.closeTimer = null;
    if (shared === current && current.refs === 0) closeRealtime();
  }, 0);
}

/** Closes the tab's connection now (sign-out, tests). */
export function closeRealtime(): void {
  const current = shared;
  if (!current) return;
  shared = null;
  if (current.closeTimer) clearTimeout(current.closeTimer);
  current.connection.stop();
  publishShared();
}

/** The tab's current connection, if any (tests and diagnostics). */
export function currentRealtime(): RealtimeConnection | null {
  return shared?.connection ?? null;
}

/* ---- React ---- */

/**
 * Listens to the tab's live channel while someone is signed in (opening it if needed). The latest
 * `listener` is always the one called; it need not be stable.
 */
export function useRealtimeEvents(listener: RealtimeListener, enabled = true): void {
  const { profile } = useSession();
  const userId = enabled ? (profile?.id ?? null) : null;
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    if (!userId) return;
    const connection = acquireRealtime(userId);
    const unsubscribe = connection.subscribe((notice) => latest.current(notice));
    return () => {
      unsubscribe();
      releaseRealtime(connection);
    };
  }, [userId]);
}

const subscribeShared = (listener: () => void) => {
  sharedListeners.add(listener);
  return () => {
    sharedListeners.delete(listener);
  };
};
const sharedStatus = (): RealtimeStatus => shared?.connection.status ?? "off";

/** The live channel's state ("off" when there is none), for a discreet "reconnecting" note. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeShared, sharedStatus, () => "off" as const);
}
