import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_MS, SESSION_CHANGED } from "../../shared/realtime";
import { makeProfile } from "../test/renderApp";
import {
  acquireRealtime,
  closeRealtime,
  conversationKeys,
  currentRealtime,
  DEAD_AFTER_MS,
  RealtimeConnection,
  type RealtimeNotice,
  releaseRealtime,
  type SocketLike,
  setRealtimeSocketFactory,
  useRealtimeSync,
} from "./realtime";
import { resetSessionStore, setSession } from "./session";

/** A WebSocket the test drives: it records when it was opened and whether it was closed. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  closed = false;
  readonly openedAt = Date.now();
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  /** The server says something. */
  send(event: object) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  /** The server closes the connection with this code. */
  closeWith(code: number) {
    this.closed = true;
    this.onclose?.({ code });
  }
  /** The connection drops (server restart, network loss). */
  drop() {
    this.closed = true;
    this.onerror?.({});
    this.onclose?.({});
  }
}

const factory = (url: string) => new FakeSocket(url);
const last = () => {
  const socket = FakeSocket.all.at(-1);
  if (!socket) throw new Error("aucune socket ouverte");
  return socket;
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
});

afterEach(() => {
  closeRealtime();
  setRealtimeSocketFactory(undefined);
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

describe("la connexion partagée de l'onglet", () => {
  it("une seule socket pour tous les écouteurs, fermée quand le dernier s'en va", () => {
    setRealtimeSocketFactory(factory);
    const a = acquireRealtime("u1");
    const b = acquireRealtime("u1");
    expect(a).toBe(b);
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0]?.url).toMatch(/^ws:\/\/.+\/api\/realtime$/);

    releaseRealtime(a);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all[0]?.closed).toBe(false);

    // Released then taken again at once (a remount): the socket is kept.
    releaseRealtime(b);
    const c = acquireRealtime("u1");
    vi.advanceTimersByTime(1);
    expect(c).toBe(a);
    expect(FakeSocket.all[0]?.closed).toBe(false);

    releaseRealtime(c);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all[0]?.closed).toBe(true);
    expect(currentRealtime()).toBeNull();
  });

  it("ferme la socket d'une autre personne (changement de compte)", () => {
    setRealtimeSocketFactory(factory);
    acquireRealtime("u1");
    acquireRealtime("u2");
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[0]?.closed).toBe(true);
    expect(FakeSocket.all[1]?.closed).toBe(false);
  });

  it("n'ouvre rien sans WebSocket disponible", () => {
    setRealtimeSocketFactory(null);
    const connection = acquireRealtime("u1");
    expect(connection.status).toBe("off");
    expect(FakeSocket.all).toHaveLength(0);
  });
});

describe("useRealtimeSync", () => {
  function mount(client: QueryClient) {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    return renderHook(() => useRealtimeSync(), { wrapper });
  }

  beforeEach(() => {
    resetSessionStore();
    setSession(makeProfile());
    setRealtimeSocketFactory(factory);
  });

  it("ouvre la connexion et la ferme au démontage (déconnexion)", () => {
    const client = new QueryClient();
    const view = mount(client);
    expect(FakeSocket.all).toHaveLength(1);
    view.unmount();
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all[0]?.closed).toBe(true);
  });

  it("ferme la connexion quand la session se termine", () => {
    const client = new QueryClient();
    mount(client);
    act(() => setSession(null));
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all[0]?.closed).toBe(true);
  });

  it("invalide les conversations et le tableau de bord après une reconnexion, pas avant", () => {
    const client = new QueryClient();
    client.setQueryData(conversationKeys.list(""), { pages: [], pageParams: [] });
    client.setQueryData(conversationKeys.thread("c1"), { pages: [], pageParams: [] });
    client.setQueryData(["dentist", "dashboard"], { unread_messages: 1 });
    client.setQueryData(["patient", "dashboard"], {});
    mount(client);
    const stale = () =>
      [
        conversationKeys.list(""),
        conversationKeys.thread("c1"),
        ["dentist", "dashboard"],
        ["patient", "dashboard"],
      ].map((key) => client.getQueryState(key)?.isInvalidated);

    act(() => last().send({ type: "ready", user_id: "u1" }));
    expect(stale()).toEqual([false, false, false, false]);

    act(() => last().drop());
    act(() => vi.advanceTimersByTime(1000));
    act(() => last().send({ type: "ready", user_id: "u1" }));
    expect(stale()).toEqual([true, true, true, false]);
  });

  it("recharge les rendez-vous et la demande quand l'autre partie change un rendez-vous", () => {
    const client = new QueryClient();
    client.setQueryData(["appointments", "upcoming", 1], { items: [] });
    client.setQueryData(["patient", "request", "r1"], {});
    client.setQueryData(["patient", "request", "r2"], {});
    mount(client);
    act(() => last().send({ type: "ready", user_id: "u1" }));
    act(() => last().send({ type: "appointment", appointment_id: "a1", request_id: "r1" }));
    const stale = (key: readonly string[] | (string | number)[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(["appointments", "upcoming", 1])).toBe(true);
    expect(stale(["patient", "request", "r1"])).toBe(true);
    expect(stale(["patient", "request", "r2"])).toBe(false);
  });

  it("recharge la lecture du devis et la demande quand la lecture est finie, pas celles d'une autre demande", () => {
    const client = new QueryClient();
    for (const id of ["r1", "r2"]) {
      client.setQueryData(["patient", "reading", id], null);
      client.setQueryData(["patient", "request", id], {});
    }
    mount(client);
    act(() => last().send({ type: "ready", user_id: "u1" }));
    act(() => last().send({ type: "reading", request_id: "r1", reading_id: "l1" }));
    const stale = (key: string[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(["patient", "reading", "r1"])).toBe(true);
    expect(stale(["patient", "request", "r1"])).toBe(true);
    expect(stale(["patient", "reading", "r2"])).toBe(false);
    expect(stale(["patient", "request", "r2"])).toBe(false);

    // A reading finished while the channel was down: the reconnection reloads every reading.
    act(() => last().drop());
    act(() => vi.advanceTimersByTime(1000));
    act(() => last().send({ type: "ready", user_id: "u1" }));
    expect(stale(["patient", "reading", "r2"])).toBe(true);
  });

  it("met à jour le total non lu et rafraîchit le tableau de bord du dentiste", () => {
    const client = new QueryClient();
    client.setQueryData(["dentist", "dashboard"], { unread_messages: 1 });
    mount(client);
    act(() => last().send({ type: "ready", user_id: "u1" }));
    act(() => last().send({ type: "unread", total: 4 }));
    expect(client.getQueryData(conversationKeys.unreadTotal())).toBe(4);
    expect(client.getQueryState(["dentist", "dashboard"])?.isInvalidated).toBe(true);
  });
});
