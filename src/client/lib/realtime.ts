import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { HEARTBEAT_MS, type RealtimeEvent, reconnectDelay, SESSION_CHANGED } from "../../shared/realtime";
import type { ConversationList } from "../../shared/schemas/conversations";
import { api } from "./api";
import { appointmentKeys, refresh as refreshAppointments } from "./appointments";
import { conversationKeys, dentistKeys, patientKeys } from "./queryKeys";
import { fetchSession, useSession } from "./session";

/*
 * The tab's live channel (architecture.md "Realtime"): one WebSocket to /api/realtime per
 * signed-in tab, shared by every component that listens. It is opened by the first listener (the
 * area layout), closed when the last one leaves (sign-out unmounts the layout), reconnects after
 * 1, 2, 5, 10 s then every 10 s, treats two heartbeats of silence as a dead connection, and on every
 * reconnection after the first tells its listeners to resynchronise (`resync`): the conversation
 * queries are invalidated, so what was missed is fetched again. When the server closes it because
 * the person's sessions or rights changed (SESSION_CHANGED), each later attempt first asks who is
 * signed in (/api/me) and opens a socket only for the same person: a signed-out tab is not refused
 * again and again, and a tab whose cookie is being renewed (password change) reconnects once it is.
 */

/** What listeners receive: the server's events, plus `resync` after a reconnection. */
export type RealtimeNotice = RealtimeEvent | { type: "resync" };
export type RealtimeListener = (notice: RealtimeNotice) => void;

/** "off": no socket can be opened here (tests, old browsers); "reconnecting": waiting to retry. */
export type RealtimeStatus = "off" | "connecting" | "open" | "reconnecting" | "closed";

/** The part of the browser's WebSocket this module uses (tests give a fake). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(code?: number, reason?: string): void;
}
export type SocketFactory = (url: string) => SocketLike;

/** Silence longer than this (two missed heartbeats) means the connection is dead. */
export const DEAD_AFTER_MS = 2 * HEARTBEAT_MS;

function parseEvent(data: unknown): RealtimeEvent | null {
  if (typeof data !== "string") return null;
  try {
    const value = JSON.parse(data) as { type?: unknown } | null;
    return value && typeof value.type === "string" ? (value as RealtimeEvent) : null;
  } catch {
    return null;
  }
}

/** Whether the person the connection was opened for is still the one signed in. */
export type StillSignedIn = () => Promise<boolean>;

/** One reconnecting WebSocket. `factory` null: stays "off" (no socket can be opened). */
export class RealtimeConnection {
  private socket: SocketLike | null = null;
  private attempt = 0;
  private readyOnce = false;
  private running = false;
  /** The last close was SESSION_CHANGED: ask who is signed in before opening again. */
  private checkFirst = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<RealtimeListener>();
  private readonly statusListeners = new Set<() => void>();
  private currentStatus: RealtimeStatus;

  constructor(
    private readonly url: string,
    private readonly factory: SocketFactory | null,
    private readonly stillSignedIn: StillSignedIn = async () => true,
  ) {
    this.currentStatus = factory ? "closed" : "off";
  }

  get status(): RealtimeStatus {
    return this.currentStatus;
  }

  /** Opens the socket (once); later calls do nothing while it runs. */
  start(): void {
    if (this.running || !this.factory) return;
    this.running = true;
    this.open();
  }

  /** Closes the socket for good (sign-out, last listener gone); no reconnection. */
  stop(): void {
    this.running = false;
    this.clearTimers();
    this.detach()?.close(1000, "fermeture");
    if (this.factory) this.setStatus("closed");
  }

  subscribe(listener: RealtimeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  subscribeStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => {
      this.statusListeners.delete(listener);
    };
  }

  /** Hands a notice to every listener; one failing listener does not stop the others. */
  emit(notice: RealtimeNotice): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(notice);
      } catch (error) {
        console.error("écouteur temps réel en erreur", error);
      }
    }
  }

  private setStatus(status: RealtimeStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    for (const listener of [...this.statusListeners]) listener();
  }

  private open(): void {
    if (!this.factory) return;
    this.setStatus("connecting");
    let socket: SocketLike;
    try {
      socket = this.factory(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    // A connection that never answers counts as dead too.
    this.armWatchdog();
    socket.onmessage = (message) => {
      if (this.socket !== socket) return;
      this.armWatchdog();
      const event = parseEvent(message.data);
      if (!event) return;
      if (event.type === "ready") {
        this.attempt = 0;
        this.setStatus("open");
        const reconnected = this.readyOnce;
        this.readyOnce = true;
        this.emit(event);
        if (reconnected) this.emit({ type: "resync" });
        return;
      }
      this.emit(event);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if ((event as { code?: unknown } | null)?.code === SESSION_CHANGED) this.checkFirst = true;
      this.scheduleReconnect();
    };
    // An error is always followed by a close.
    socket.onerror = () => {};
  }

  /** Forgets the current socket (its handlers no longer act) and returns it. */
  private detach(): SocketLike | null {
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
      socket.onerror = null;
    }
    return socket;
  }

  private armWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      // Silence: drop this socket and start again.
      try {
        this.detach()?.close(4000, "silence");
      } catch {
        // already closed
      }
      this.scheduleReconnect();
    }, DEAD_AFTER_MS);
  }

  private scheduleReconnect(): void {
    this.clearTimers();
    if (!this.running) return;
    this.setStatus("reconnecting");
    const delay = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.running) return;
      if (this.checkFirst) this.openIfStillSignedIn();
      else this.open();
    }, delay);
  }

  /** After SESSION_CHANGED: opens for the same person only, else waits the next delay. */
  private openIfStillSignedIn(): void {
    void this.stillSignedIn()
      .catch(() => false)
      .then((same) => {
        if (!this.running || this.socket || this.reconnectTimer) return;
        if (same) {
          this.checkFirst = false;
          this.open();
        } else this.scheduleReconnect();
      });
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.watchdog) clearTimeout(this.watchdog);
    this.reconnectTimer = null;
    this.watchdog = null;
  }
}

/* ---- The tab's one shared connection ---- */

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

/** The tab's connection for this person, opened on first use (another person's is closed). */
export function acquireRealtime(userId: string): RealtimeConnection {
  if (shared && shared.userId !== userId) closeRealtime();
  if (!shared) {
    const connection = new RealtimeConnection(
      realtimeUrl(),
      socketFactory(),
      async () => (await fetchSession())?.id === userId,
    );
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

/* ---- The query cache it keeps fresh ---- */

/** Query keys of the conversations (the messages feature builds on them). */
export { conversationKeys };

/** The dentist dashboard's query ('Messages non lus', recent messages), refreshed on events. */
const DENTIST_DASHBOARD_KEY = dentistKeys.dashboard();
/**
 * What a sent request changes for a dentist: the dashboard, the request lists, the menu's counter.
 * Never a request's detail: loading it records a view in the patient's access history.
 */
const DENTIST_WORK_KEYS = [
  DENTIST_DASHBOARD_KEY,
  dentistKeys.requestLists(),
  dentistKeys.todoCount(),
] as const;

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

/**
 * Mounted once by the area layout: opens the live channel and keeps the cache in step with it.
 * New messages and read receipts refresh the conversation lists and mark the threads stale (the
 * open thread is updated in place by the messages screen); unread totals go to the badge; the
 * dentist dashboard is refreshed; an appointment changed by the other side reloads the appointment
 * lists and its request; a finished reading of a devis reloads that request's reading; a reconnection
 * refetches every conversation and appointment query, and the patient's readings.
 */
export function useRealtimeSync(enabled = true): void {
  const queryClient = useQueryClient();
  useRealtimeEvents((notice) => {
    switch (notice.type) {
      case "resync":
        void queryClient.invalidateQueries({ queryKey: conversationKeys.all });
        for (const queryKey of DENTIST_WORK_KEYS) void queryClient.invalidateQueries({ queryKey });
        void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
        void queryClient.invalidateQueries({ queryKey: patientKeys.readings() });
        break;
      case "appointment":
        refreshAppointments(queryClient, notice);
        void queryClient.invalidateQueries({ queryKey: DENTIST_DASHBOARD_KEY });
        break;
      case "requests":
        // A patient sent a request: the dentist's lists, dashboard and 'Demandes' counter reload.
        for (const queryKey of DENTIST_WORK_KEYS) void queryClient.invalidateQueries({ queryKey });
        break;
      case "reading":
        // The patient's devis was read (issue 17): its reading and its request reload.
        void queryClient.invalidateQueries({ queryKey: patientKeys.reading(notice.request_id) });
        void queryClient.invalidateQueries({ queryKey: patientKeys.request(notice.request_id) });
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
