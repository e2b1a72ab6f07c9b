/** The tab's one shared connection, and the query cache it keeps fresh (useRealtimeSync). */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSocket, factory, last } from "../../test/realtimeSockets";
import { makeProfile } from "../../test/renderApp";
import { conversationKeys, dentistKeys, offerKeys, patientKeys } from "../queryKeys";
import { resetSessionStore, setSession } from "../session";
import { useRealtimeSync } from "./sync";
import {
  acquireRealtime,
  closeRealtime,
  currentRealtime,
  releaseRealtime,
  setRealtimeSocketFactory,
  writesSettled,
} from "./tab";

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
});

afterEach(() => {
  closeRealtime();
  setRealtimeSocketFactory(undefined);
  vi.useRealTimers();
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

  it("invalide les conversations, les tableaux de bord et les demandes après une reconnexion, pas avant", () => {
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
    // A reply or an offer missed meanwhile changed the patient's dashboard too.
    expect(stale()).toEqual([true, true, true, true]);
  });

  it("recharge la demande, ses listes et les propositions quand l'autre partie la change, jamais le détail vu par le dentiste", () => {
    const client = new QueryClient();
    const keys = {
      page: patientKeys.request("r1"),
      other: patientKeys.request("r2"),
      comparison: patientKeys.comparison("r1"),
      list: patientKeys.requests("", 1, 20),
      dashboard: patientKeys.dashboard(),
      offer: offerKeys.mine("r1"),
      offers: offerKeys.list(null, 1),
      dentistList: dentistKeys.requests({ status: "all" }, 20),
      detail: dentistKeys.request("r1"),
    };
    for (const key of Object.values(keys)) client.setQueryData(key, {});
    mount(client);
    act(() => last().send({ type: "ready", user_id: "u1" }));
    act(() => last().send({ type: "request", request_id: "r1" }));
    const stale = Object.fromEntries(
      Object.entries(keys).map(([name, key]) => [name, client.getQueryState(key)?.isInvalidated]),
    );
    expect(stale).toEqual({
      page: true,
      other: false,
      comparison: true,
      list: true,
      dashboard: true,
      offer: true,
      offers: true,
      dentistList: true,
      // Loading it records a view in the patient's access history: only the dentist reloads it.
      detail: false,
    });
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

describe("writesSettled", () => {
  it("attend que les écritures de l'onglet aient répondu (le nouveau cookie) avant de redemander qui est connecté", async () => {
    vi.useRealTimers();
    const client = new QueryClient();
    let finish: () => void = () => {};
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    });
    const writing = mutation.execute(undefined);
    let settled = false;
    const waiting = writesSettled(client).then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    finish();
    await writing;
    await waiting;
    expect(settled).toBe(true);
    // Nothing being written: at once; a write that never answers is waited for 10 s at most.
    await writesSettled(client);
    client
      .getMutationCache()
      .build(client, { mutationFn: () => new Promise<void>(() => {}) })
      .execute(undefined);
    const started = Date.now();
    await writesSettled(client, 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
