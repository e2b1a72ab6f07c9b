import { HEARTBEAT_MS, type RealtimeEvent, reconnectDelay, SESSION_CHANGED } from "../../../shared/realtime";

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
