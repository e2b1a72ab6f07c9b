import type { WebSocket } from "ws";
import { HEARTBEAT_MS, type RealtimeEvent, SESSION_CHANGED } from "../../../shared/realtime";
import type { Db } from "../../db/index";
import type { BusEvent, EventBus } from "../../realtime/bus";
import { loggableError } from "../../redact";
import { loadMessages, unreadTotal } from "../conversations/conversations.repo";
import { loadSupportMessages } from "../support/support.repo";

/** When an upgrade began checking its session (RealtimeHub.mark). */
export interface UpgradeMark {
  seq: number;
  at: number;
}

/** An upgrade longer than this (it takes milliseconds) is closed as it is added, to be safe. */
const UPGRADE_WINDOW_MS = 60_000;

/**
 * This instance's open sockets, by person. Bus events (from any instance) are turned into pushes
 * for the parties connected here, and nobody else: the event names its parties, and the message
 * itself is loaded from the database by id.
 */
export class RealtimeHub {
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private readonly alive = new WeakSet<WebSocket>();
  /** Connected admins: they receive every support chat message. */
  private readonly admins = new Set<string>();
  /** Connected verified dentists: told (without any content) when a request is sent. */
  private readonly dentists = new Set<string>();
  /**
   * Connected dentists not verified (pending, or verification withdrawn): no patient data reaches
   * them (D6), so no message, read receipt, unread count or appointment of their conversations.
   */
  private readonly unverified = new Set<string>();
  private readonly heartbeat: NodeJS.Timeout;
  /**
   * Closes counted (closeSessionsOf), and when each person's last one happened: a socket whose
   * upgrade checked the session before a close of its person (or of everyone) is closed as it is
   * added. Entries older than UPGRADE_WINDOW_MS are forgotten at the heartbeat.
   */
  private closes = 0;
  private readonly closedAt = new Map<string, { seq: number; at: number }>();
  private everyoneClosedAt = { seq: 0, at: 0 };

  constructor(
    private readonly db: Db,
    bus: EventBus,
    private readonly log: { error(obj: object, msg: string): void },
    heartbeatMs = HEARTBEAT_MS,
  ) {
    bus.subscribe((event) => {
      this.deliver(event).catch((error) =>
        this.log.error({ err: loggableError(error) }, "diffusion temps réel impossible"),
      );
    });
    // The same for a write the database reports (migration 030, ADR 039), whoever made it (an
    // operator's SQL, a script): the people whose user, profile or sessions changed, or everyone.
    bus.onSessionsChange((userIds) => this.closeSessionsOf(userIds));
    // Every 30 s: a ping frame (a socket that did not answer the previous one is closed) and a
    // heartbeat message the browser can see, so both sides notice a dead connection.
    this.heartbeat = setInterval(() => this.beat(), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Sockets open on this instance (for the bench and the health of the process). */
  get size(): number {
    let n = 0;
    for (const set of this.sockets.values()) n += set.size;
    return n;
  }

  /** Taken before an upgrade checks its session, and given to `add` with the socket. */
  mark(): UpgradeMark {
    return { seq: this.closes, at: Date.now() };
  }

  /** Whether this person's sockets were closed since `mark` (or it is too old to tell). */
  private closedSince(userId: string, mark: UpgradeMark): boolean {
    if (Date.now() - mark.at > UPGRADE_WINDOW_MS) return true;
    const last = Math.max(this.closedAt.get(userId)?.seq ?? 0, this.everyoneClosedAt.seq);
    return last > mark.seq;
  }

  /**
   * A socket of a person, opened under the rights its upgrade checked (a change of them closes it:
   * the `sessions` event). `since`: the upgrade's mark; when the person's sessions changed
   * meanwhile, it is closed at once like the others were.
   */
  add(
    userId: string,
    socket: WebSocket,
    rights: { isAdmin: boolean; dentist: "verified" | "unverified" | null },
    since?: UpgradeMark,
  ): void {
    if (since && this.closedSince(userId, since)) {
      socket.close(SESSION_CHANGED, "session modifiée");
      return;
    }
    // The newest socket's rights are the person's (an older one, opened before a change of them,
    // is being closed): each flag set or cleared, not only set.
    const flag = (set: Set<string>, on: boolean) => (on ? set.add(userId) : set.delete(userId));
    flag(this.admins, rights.isAdmin);
    flag(this.dentists, rights.dentist === "verified");
    flag(this.unverified, rights.dentist === "unverified");
    let set = this.sockets.get(userId);
    if (!set) {
      set = new Set();
      this.sockets.set(userId, set);
    }
    set.add(socket);
    this.alive.add(socket);
    socket.on("pong", () => this.alive.add(socket));
    socket.on("close", () => {
      set.delete(socket);
      if (set.size === 0) {
        this.sockets.delete(userId);
        this.admins.delete(userId);
        this.dentists.delete(userId);
        this.unverified.delete(userId);
      }
    });
    this.send(socket, { type: "ready", user_id: userId });
  }

  private beat() {
    const old = Date.now() - UPGRADE_WINDOW_MS;
    for (const [userId, last] of this.closedAt) if (last.at < old) this.closedAt.delete(userId);
    for (const set of this.sockets.values()) {
      for (const socket of set) {
        if (!this.alive.has(socket)) {
          socket.terminate();
          continue;
        }
        this.alive.delete(socket);
        socket.ping();
        this.send(socket, { type: "heartbeat" });
      }
    }
  }

  private send(socket: WebSocket, event: RealtimeEvent) {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
  }

  private sendTo(userId: string, event: RealtimeEvent) {
    for (const socket of this.sockets.get(userId) ?? []) this.send(socket, event);
  }

  /**
   * Closes the sockets of these people (all of them for null): they were opened under a session or
   * rights that may have changed. The browser asks who is signed in and reconnects, or stays out.
   */
  private closeSessionsOf(userIds: readonly string[] | null) {
    const last = { seq: ++this.closes, at: Date.now() };
    if (userIds === null) this.everyoneClosedAt = last;
    else for (const id of userIds) this.closedAt.set(id, last);
    const sets = userIds === null ? [...this.sockets.values()] : userIds.map((id) => this.sockets.get(id));
    for (const set of sets) for (const socket of set ?? []) socket.close(SESSION_CHANGED, "session modifiée");
  }

  private async deliver(event: BusEvent) {
    // A person's sessions or rights changed (sign-out, password, erasure, verification, admin flag):
    // their sockets were opened under the old state, so they are closed; the browser reconnects at
    // once through the session check of the upgrade, or stays out.
    if (event.kind === "sessions") {
      this.closeSessionsOf([event.userId]);
      return;
    }
    if (event.kind === "support") {
      const targets = new Set([...event.userIds.filter((id) => this.sockets.has(id)), ...this.admins]);
      if (targets.size === 0) return;
      const [message] = await loadSupportMessages(this.db, [event.messageId]);
      if (!message) return;
      for (const userId of targets) this.sendTo(userId, { type: "support", message });
      return;
    }
    if (event.kind === "support-read") {
      // Their own help thread: a dentist not (or no longer) verified has one too.
      for (const userId of event.userIds) this.sendTo(userId, { type: "support_read" });
      return;
    }
    if (event.kind === "requests") {
      // Every verified dentist here (the event names none: a request sent to all concerns them all).
      for (const userId of this.dentists) this.sendTo(userId, { type: "requests" });
      return;
    }
    if (event.kind === "team") {
      for (const userId of this.admins) this.sendTo(userId, { type: "team" });
      return;
    }
    // The parties connected here, but an unverified dentist: what follows is patient data (D6).
    const here = event.userIds.filter((id) => this.sockets.has(id) && !this.unverified.has(id));
    if (here.length === 0) return;
    if (event.kind === "appointment") {
      for (const userId of here)
        this.sendTo(userId, {
          type: "appointment",
          appointment_id: event.appointmentId,
          request_id: event.requestId,
        });
      return;
    }
    if (event.kind === "request") {
      for (const userId of here) this.sendTo(userId, { type: "request", request_id: event.requestId });
      return;
    }
    if (event.kind === "reading") {
      for (const userId of here)
        this.sendTo(userId, { type: "reading", request_id: event.requestId, reading_id: event.readingId });
      return;
    }
    if (event.kind === "message") {
      const [message] = await loadMessages(this.db, [event.messageId]);
      if (!message) return;
      for (const userId of here)
        this.sendTo(userId, { type: "message", conversation_id: event.conversationId, message });
      for (const userId of here)
        if (userId !== message.sender_id)
          this.sendTo(userId, { type: "unread", total: await unreadTotal(this.db, userId) });
    } else {
      for (const userId of here)
        this.sendTo(userId, {
          type: "read",
          conversation_id: event.conversationId,
          reader_id: event.readerId,
          read_at: event.readAt,
        });
      if (here.includes(event.readerId))
        this.sendTo(event.readerId, { type: "unread", total: await unreadTotal(this.db, event.readerId) });
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const set of this.sockets.values()) for (const socket of set) socket.close(1001, "arrêt du serveur");
    this.sockets.clear();
  }
}
