import type { SocketLike } from "../lib/realtime";

/** The live channel's tests: sockets they drive, all recorded in the order they were opened. */

/** A WebSocket the test drives: it records when it was opened and whether it was closed. */
export class FakeSocket implements SocketLike {
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

/** Opens a FakeSocket (give it to the connection or to setRealtimeSocketFactory). */
export const factory = (url: string) => new FakeSocket(url);
/** The socket opened last. */
export const last = () => {
  const socket = FakeSocket.all.at(-1);
  if (!socket) throw new Error("aucune socket ouverte");
  return socket;
};
