import type { RealtimeEvent } from "../../shared/realtime";
import { closeRealtime, type SocketLike, setRealtimeSocketFactory } from "../lib/realtime";

/** A stand-in for XMLHttpRequest (uploads go through lib/upload.ts): the test decides progress and answer. */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  static last: FakeXhr | null = null;
  method = "";
  url = "";
  body: FormData | null = null;
  status = 0;
  responseText = "";
  withCredentials = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
    FakeXhr.last = this;
  }
  progress(fraction: number) {
    const total = 10_000;
    this.upload.onprogress?.({ lengthComputable: true, loaded: fraction * total, total } as ProgressEvent);
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

/** After each test that opened the live channel: close it and drop the test's socket factory. */
export function resetRealtime() {
  closeRealtime();
  setRealtimeSocketFactory(undefined);
}

/** A WebSocket driven by the test: `push` is the server speaking. */
export class FakeSocket implements SocketLike {
  static last: FakeSocket | null = null;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor() {
    FakeSocket.last = this;
  }
  close() {}
  push(event: RealtimeEvent) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
}

/** The first bytes of a PDF, a JPEG, a PNG (the upload form checks them), else one byte. */
function startOf(type: string): BlobPart {
  if (type === "application/pdf") return "%PDF-1.4";
  if (type === "image/jpeg") return new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
  if (type === "image/png") return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return "x";
}

/** A file of the given declared size (its content is its format's first bytes: only they and the size are checked client-side). */
export function fakeFile(name: string, type: string, size = 2048): File {
  const f = new File([startOf(type)], name, { type });
  Object.defineProperty(f, "size", { value: size });
  return f;
}
