/** The reconnecting socket: delays, the check after a close for changed sessions, the heartbeat. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_MS, SESSION_CHANGED } from "../../../shared/realtime";
import { FakeSocket, factory, last } from "../../test/realtimeSockets";
import { DEAD_AFTER_MS, RealtimeConnection, type RealtimeNotice } from "./connection";

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
});

afterEach(() => {
  vi.useRealTimers();
});

function connect() {
  const connection = new RealtimeConnection("ws://localhost/api/realtime", factory);
  const notices: RealtimeNotice[] = [];
  connection.subscribe((notice) => notices.push(notice));
  connection.start();
  return { connection, notices };
}

describe("RealtimeConnection : reconnexion", () => {
  it("ouvre une socket, puis se reconnecte après 1, 2, 5, 10 s, puis toutes les 10 s", () => {
    const { connection } = connect();
    expect(FakeSocket.all).toHaveLength(1);
    expect(connection.status).toBe("connecting");

    const started = Date.now();
    const gaps: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const before = FakeSocket.all.length;
      const droppedAt = Date.now();
      last().drop();
      expect(connection.status).toBe("reconnecting");
      // Nothing just before the delay, a new socket exactly at it.
      const delay = [1000, 2000, 5000, 10_000, 10_000, 10_000][i] as number;
      vi.advanceTimersByTime(delay - 1);
      expect(FakeSocket.all).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.all).toHaveLength(before + 1);
      gaps.push(last().openedAt - droppedAt);
    }
    expect(gaps).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
    expect(Date.now() - started).toBe(38_000);
  });

  it("repart de 1 s une fois reconnecté ('ready' reçu)", () => {
    connect();
    last().drop();
    vi.advanceTimersByTime(1000);
    last().drop();
    vi.advanceTimersByTime(2000);
    last().send({ type: "ready", user_id: "u1" });
    last().drop();
    vi.advanceTimersByTime(999);
    const count = FakeSocket.all.length;
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(count + 1);
  });

  it("demande une resynchronisation à chaque reconnexion, jamais à la première connexion", () => {
    const { notices } = connect();
    last().send({ type: "ready", user_id: "u1" });
    expect(notices.map((n) => n.type)).toEqual(["ready"]);

    last().drop();
    vi.advanceTimersByTime(1000);
    last().send({ type: "ready", user_id: "u1" });
    expect(notices.map((n) => n.type)).toEqual(["ready", "ready", "resync"]);

    last().drop();
    vi.advanceTimersByTime(1000);
    last().send({ type: "ready", user_id: "u1" });
    expect(notices.filter((n) => n.type === "resync")).toHaveLength(2);
  });

  it("transmet les événements et ignore ce qui n'est pas du JSON", () => {
    const { notices } = connect();
    last().send({ type: "ready", user_id: "u1" });
    last().onmessage?.({ data: "pas du json" });
    last().send({ type: "unread", total: 3 });
    expect(notices).toEqual([
      { type: "ready", user_id: "u1" },
      { type: "unread", total: 3 },
    ]);
  });

  it("ne se reconnecte plus une fois arrêtée", () => {
    const { connection } = connect();
    const socket = last();
    connection.stop();
    expect(socket.closed).toBe(true);
    expect(connection.status).toBe("closed");
    socket.drop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });
});

describe("RealtimeConnection : session changée (fermeture SESSION_CHANGED)", () => {
  function connectAs(stillSignedIn: () => Promise<boolean>) {
    const connection = new RealtimeConnection("ws://localhost/api/realtime", factory, stillSignedIn);
    connection.start();
    last().send({ type: "ready", user_id: "u1" });
    return connection;
  }

  it("demande qui est connecté avant de rouvrir, et rouvre pour la même personne", async () => {
    const check = vi.fn(async () => true);
    connectAs(check);
    last().closeWith(SESSION_CHANGED);
    await vi.advanceTimersByTimeAsync(1000);
    expect(check).toHaveBeenCalledTimes(1);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("n'ouvre aucune socket tant que la personne n'est plus connectée (pas de refus 401 en boucle)", async () => {
    let signedIn = false;
    const check = vi.fn(async () => signedIn);
    const connection = connectAs(check);
    last().closeWith(SESSION_CHANGED);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(check.mock.calls.length).toBeGreaterThan(2);
    expect(connection.status).toBe("reconnecting");
    // Its cookie renewed (a password change on this device): the next attempt opens.
    signedIn = true;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("une autre fermeture se reconnecte après le délai, sans redemander la session", async () => {
    const check = vi.fn(async () => true);
    connectAs(check);
    last().closeWith(1006);
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    expect(check).not.toHaveBeenCalled();
  });
});

describe("RealtimeConnection : battement de cœur", () => {
  it("tient pour morte une connexion silencieuse pendant deux battements, puis se reconnecte", () => {
    expect(DEAD_AFTER_MS).toBe(2 * HEARTBEAT_MS);
    const { connection } = connect();
    const first = last();
    first.send({ type: "ready", user_id: "u1" });
    vi.advanceTimersByTime(DEAD_AFTER_MS - 1);
    expect(first.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.closed).toBe(true);
    expect(connection.status).toBe("reconnecting");
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it("reste ouverte tant que les battements arrivent toutes les 30 s", () => {
    const { connection } = connect();
    const socket = last();
    socket.send({ type: "ready", user_id: "u1" });
    for (let i = 0; i < 10; i += 1) {
      vi.advanceTimersByTime(HEARTBEAT_MS);
      socket.send({ type: "heartbeat" });
    }
    expect(socket.closed).toBe(false);
    expect(FakeSocket.all).toHaveLength(1);
    expect(connection.status).toBe("open");
  });

  it("abandonne une connexion qui ne répond jamais", () => {
    connect();
    vi.advanceTimersByTime(DEAD_AFTER_MS);
    expect(FakeSocket.all[0]?.closed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
  });
});
