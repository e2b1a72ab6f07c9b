import { EventEmitter } from "node:events";
import pg from "pg";
import { reconnectDelay } from "../../shared/realtime";

/**
 * What one app instance tells the others (and itself) about conversations and appointments: ids only, never message
 * text or names (no medical data leaves the database through this channel). Each instance then
 * loads what its own sockets need.
 */
export type BusEvent =
  | { kind: "message"; conversationId: string; messageId: string; userIds: string[] }
  | { kind: "read"; conversationId: string; readerId: string; readAt: string; userIds: string[] }
  /** The support chat: to the patient and to every admin connected. */
  | { kind: "support"; patientId: string; messageId: string; userIds: string[] }
  /** The team's answers read by their patient or dentist: to that person's other tabs (no ids). */
  | { kind: "support-read"; userIds: string[] }
  /** An appointment changed (booked, confirmed, moved, cancelled): to its two parties. */
  | { kind: "appointment"; appointmentId: string; requestId: string; userIds: string[] }
  /**
   * A request changed by the other party (a dentist's reply or offer, an offer withdrawn, accepted or
   * its acceptance withdrawn): to the patient and the dentists concerned (ids only).
   */
  | { kind: "request"; requestId: string; userIds: string[] }
  /** A reading of the patient's devis finished or failed (issue 17): to the patient (ids only). */
  | { kind: "reading"; requestId: string; readingId: string; userIds: string[] }
  /** The requests open to dentists changed (one was sent): to the verified dentists connected (no ids). */
  | { kind: "requests" }
  /** The team's work changed (verifications, contact messages): to every admin connected (no ids). */
  | { kind: "team" }
  /** A person's sessions or rights changed: every instance drops their cached sessions (ADR 026). */
  | { kind: "sessions"; userId: string; id?: string };

/** What telling open screens after a commit needs: the bus, and a logger for a failed publish. */
export interface AnnounceDeps {
  bus: EventBus;
  log: { error(obj: object, msg: string): void };
}

export interface EventBus {
  publish(event: BusEvent): Promise<void>;
  subscribe(handler: (event: BusEvent) => void): void;
  /** Resolves once this instance receives events. */
  listening(): Promise<void>;
  /**
   * Null while this instance does not receive events; otherwise a number that changes each time it
   * starts receiving them again (events sent meanwhile were missed).
   */
  epoch(): number | null;
  /**
   * Resolves once this instance has handled every event published (committed) before the call.
   * Rejects when that cannot be known (the listening connection is down).
   */
  sync(): Promise<void>;
  /**
   * Calls `handler` each time a statement that wrote rows to a table a cached answer may read
   * commits, on any instance, with the table's name and the ids of the people whose answers it may
   * change, or null for everyone (the database's statement triggers, migrations 028 and 037; ADR 030,
   * ADR 052). Delivered on the same connection as the events, so `sync()` covers these too.
   */
  onTableChange(handler: (change: TableChange) => void): void;
  /**
   * Calls `handler` with the ids of the people whose user, profile or sessions a committed statement
   * updated or deleted, on any instance, or with null for everyone (the database's triggers,
   * migration 030; ADR 039). On the same connection as the events, so `sync()` covers these too.
   */
  onSessionsChange(handler: (userIds: string[] | null) => void): void;
  close(): Promise<void>;
}

/** A committed write (migration 037): the table, and whose cached answers it may change (null: everyone). */
export interface TableChange {
  table: string;
  userIds: string[] | null;
}

/**
 * A `sourio_changes` notification: `<table>:<ids>` or `<table>:*` (migration 037). Anything else
 * (a payload of migration 028's form, the table alone) concerns everyone.
 */
export function tableChangePayload(payload: string): TableChange {
  const colon = payload.indexOf(":");
  if (colon < 0) return { table: payload, userIds: null };
  const ids = payload.slice(colon + 1);
  return { table: payload.slice(0, colon), userIds: ids === "*" ? null : ids.split(",").filter(Boolean) };
}

/** The ids of a `sourio_sessions` notification, null for everyone. */
export function sessionsChangePayload(payload: string): string[] | null {
  if (payload === "*") return null;
  return payload.split(",").filter(Boolean);
}

/** The channel of the database's own notifications: a table and the people a committed write concerns. */
export const CHANGES_CHANNEL = "sourio_changes";

/** The channel of the people whose sessions or rights a write may have changed (migration 030). */
export const SESSIONS_CHANNEL = "sourio_sessions";

/** Subscribes to a channel of the embedded database (PGlite calls back before the query resolves). */
export type DatabaseListen = (channel: string, handler: (payload: string) => void) => Promise<unknown>;

/** One process (the embedded database): events go straight to this instance's sockets. */
export class LocalBus implements EventBus {
  private readonly emitter = new EventEmitter();
  private readonly changeHandlers: Array<(change: TableChange) => void> = [];
  private readonly sessionsHandlers: Array<(userIds: string[] | null) => void> = [];
  private readonly ready: Promise<void>;
  private listens: boolean;

  /** `listen`: the embedded database's notifications (table and sessions changes); absent in unit tests. */
  constructor(listen?: DatabaseListen) {
    this.listens = !listen;
    this.ready = listen
      ? Promise.all([
          listen(CHANGES_CHANNEL, (payload) => {
            const change = tableChangePayload(payload);
            for (const handler of this.changeHandlers) handler(change);
          }),
          listen(SESSIONS_CHANNEL, (payload) => {
            const userIds = sessionsChangePayload(payload);
            for (const handler of this.sessionsHandlers) handler(userIds);
          }),
        ]).then(() => {
          this.listens = true;
        })
      : Promise.resolve();
  }
  async publish(event: BusEvent) {
    // Asynchronous like the PostgreSQL bus: the caller's reply never waits for the sockets.
    setImmediate(() => this.emitter.emit("event", event));
  }
  subscribe(handler: (event: BusEvent) => void) {
    this.emitter.on("event", handler);
  }
  listening(): Promise<void> {
    return this.ready;
  }
  /** Null until the database's notifications are listened to. */
  epoch() {
    return this.listens ? 0 : null;
  }
  onTableChange(handler: (change: TableChange) => void) {
    this.changeHandlers.push(handler);
  }
  onSessionsChange(handler: (userIds: string[] | null) => void) {
    this.sessionsHandlers.push(handler);
  }
  /** The events of this process are handled by the next turns of its event loop. */
  sync(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
  async close() {
    this.emitter.removeAllListeners();
  }
}

export const CHANNEL = "sourio_events";

/**
 * Several instances sharing one PostgreSQL: NOTIFY on publish, one LISTEN connection per instance.
 * The listening connection reconnects after a loss (1, 2, 5, 10 s, then every 10 s); events sent
 * meanwhile are caught up by the clients, which resynchronise when their socket comes back.
 */
export class PgBus implements EventBus {
  private readonly handlers: Array<(event: BusEvent) => void> = [];
  private readonly changeHandlers: Array<(change: TableChange) => void> = [];
  private readonly sessionsHandlers: Array<(userIds: string[] | null) => void> = [];
  private client: pg.Client | null = null;
  private closed = false;
  private attempt = 0;
  private connections = 0;
  private ready: Promise<void>;
  /** The round trip on the listening connection in flight, and the one queued after it (sync). */
  private syncing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly notify: (channel: string, payload: string) => Promise<void>,
    private readonly log: { error(obj: object, msg: string): void },
  ) {
    this.ready = this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    let retried = false;
    const retry = () => {
      if (retried || this.closed) return;
      retried = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      const delay = reconnectDelay(this.attempt);
      this.attempt += 1;
      setTimeout(() => {
        if (!this.closed) this.ready = this.connect();
      }, delay).unref();
    };
    client.on("notification", (message) => {
      if (message.channel === CHANGES_CHANNEL) {
        const change = tableChangePayload(message.payload ?? "");
        for (const handler of this.changeHandlers) handler(change);
        return;
      }
      if (message.channel === SESSIONS_CHANNEL) {
        const userIds = sessionsChangePayload(message.payload ?? "*");
        for (const handler of this.sessionsHandlers) handler(userIds);
        return;
      }
      if (message.channel !== CHANNEL || !message.payload) return;
      let event: BusEvent;
      try {
        event = JSON.parse(message.payload) as BusEvent;
      } catch {
        return;
      }
      for (const handler of this.handlers) handler(event);
    });
    client.on("error", (error) => {
      this.log.error({ err: { message: error.message } }, "écoute temps réel interrompue");
      retry();
    });
    client.on("end", retry);
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      await client.query(`listen ${CHANGES_CHANNEL}`);
      await client.query(`listen ${SESSIONS_CHANNEL}`);
      this.client = client;
      this.connections += 1;
      this.attempt = 0;
    } catch (error) {
      this.log.error({ err: { message: (error as Error).message } }, "écoute temps réel impossible");
      retry();
    }
  }

  async publish(event: BusEvent) {
    await this.notify(CHANNEL, JSON.stringify(event));
  }

  subscribe(handler: (event: BusEvent) => void) {
    this.handlers.push(handler);
  }

  listening(): Promise<void> {
    return this.ready;
  }

  onTableChange(handler: (change: TableChange) => void) {
    this.changeHandlers.push(handler);
  }

  onSessionsChange(handler: (userIds: string[] | null) => void) {
    this.sessionsHandlers.push(handler);
  }

  epoch(): number | null {
    return this.client ? this.connections : null;
  }

  /**
   * A round trip on the listening connection: PostgreSQL sends a notification to an idle listener as
   * soon as it is committed, and on one connection what was sent first is read first, so once the
   * answer is read every notification committed before the query was sent has been handled.
   * Concurrent callers share round trips; a round trip already in flight may have been sent before
   * this call, so the caller then waits for the next one.
   */
  sync(): Promise<void> {
    const client = this.client;
    if (!client) return Promise.reject(new Error("écoute temps réel interrompue"));
    if (!this.syncing) {
      this.syncing = client
        .query("select 1")
        .then(() => undefined)
        .finally(() => {
          this.syncing = null;
        });
      return this.syncing;
    }
    this.queued ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.sync();
      });
    return this.queued;
  }

  async close() {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
