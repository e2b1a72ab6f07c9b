import "@testing-library/jest-dom/vitest";
// The French zod messages, as in main.tsx.
import "../../shared/schemas/zod-fr";
// An unexpected console.error fails the test (allowConsoleError for the expected ones).
import "./console";
import { cleanup, configure } from "@testing-library/react";
import { toast } from "sonner";
import { afterAll, afterEach, vi } from "vitest";
import { resetConfigStore } from "../lib/config";
import { resetQueryClient } from "../lib/queryClient";
import { closeRealtime, setRealtimeSocketFactory } from "../lib/realtime";
import { resetSessionStore } from "../lib/session";
import { FakeSocket, FakeXhr } from "./fakes";

// The files of a worker share their modules and their document (vitest.config.ts, ADR 032's
// addendum): this file runs before each of them, and what a file could leave behind for the next
// one is put back here, as a fresh module graph and a fresh page would have it.

// findBy…/waitFor wait for what the screen needs (the element the data makes appear), never for a
// fixed time. How long they may wait is only the "it will never come" verdict, so it is generous:
// a lazy page or a fetch can take seconds on a loaded 2-core machine, and a flaky test blocks a
// landing as a failure does. Tests give no timeout of their own (ADR 028).
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // sonner keeps its toasts in its module and replays every toast not yet dismissed to the next
  // toaster that mounts: a toast left on screen by this test would reappear in the next one.
  toast.dismiss();
});

afterAll(() => {
  resetSessionStore();
  resetConfigStore();
  resetQueryClient();
  closeRealtime();
  setRealtimeSocketFactory(undefined);
  FakeXhr.sent = [];
  FakeXhr.last = null;
  FakeSocket.last = null;
  vi.useRealTimers();
  localStorage.clear();
  sessionStorage.clear();
  document.title = "";
  delete document.documentElement.dataset.ready;
});

// sonner puts its stylesheet (97 rules) in the document when it is first imported, the only one these
// tests have: the app's own CSS is not loaded here (the browser journeys see the real pages). jsdom
// matches every rule of it against an element each time testing library asks for its computed style,
// and a role query asks it for every element and its ancestors, a name for their ::before and ::after:
// without it the component tests took about 7 % less CPU (the `client` project alone, alternated on
// 01/12: 85.9 and 90.2 CPU-s with it, 78.5 and 84.3 without). No test reads what it styles.
for (const style of document.head.querySelectorAll("style"))
  if (style.textContent?.includes("[data-sonner-toaster]")) style.remove();

// jsdom lacks these browser APIs used by Radix, sonner and the router's scroll restoration.
Object.defineProperty(window, "matchMedia", {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
Object.defineProperty(window, "ResizeObserver", { writable: true, value: ResizeObserverStub });
window.scrollTo = () => {};
Element.prototype.scrollIntoView = () => {};
Element.prototype.hasPointerCapture = () => false;
// jsdom has no pointer capture; a sonner toast captures the pointer when pressed (its « Annuler »).
Element.prototype.setPointerCapture = () => {};
Element.prototype.releasePointerCapture = () => {};
// jsdom does not know HTML's <search> element (browsers do): React would warn that the tag is
// unrecognized. Its elements are HTMLUnknownElement, named so by their toStringTag: name them as
// the browser does (HTMLElement).
// Once per document: this file runs again before each file of the worker, and the descriptor read
// then would be this getter, not jsdom's.
const unknownTag = Object.getOwnPropertyDescriptor(HTMLUnknownElement.prototype, Symbol.toStringTag);
if (unknownTag && "value" in unknownTag) {
  Object.defineProperty(HTMLUnknownElement.prototype, Symbol.toStringTag, {
    configurable: true,
    get(this: HTMLElement) {
      return this.localName === "search" ? "HTMLElement" : unknownTag.value;
    },
  });
}
