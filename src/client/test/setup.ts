import "@testing-library/jest-dom/vitest";
// The French zod messages, as in main.tsx.
import "../../shared/schemas/zod-fr";
// An unexpected console.error fails the test (allowConsoleError for the expected ones).
import "./console";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// findBy…/waitFor wait for what the screen needs (the element the data makes appear), never for a
// fixed time. How long they may wait is only the "it will never come" verdict, so it is generous:
// a lazy page or a fetch can take seconds on a loaded 2-core machine, and a flaky test blocks a
// landing as a failure does. Tests give no timeout of their own (ADR 028).
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

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
// jsdom does not know HTML's <search> element (browsers do): React would warn that the tag is
// unrecognized. Its elements are HTMLUnknownElement, named so by their toStringTag: name them as
// the browser does (HTMLElement).
const unknownTag = Object.getOwnPropertyDescriptor(HTMLUnknownElement.prototype, Symbol.toStringTag);
Object.defineProperty(HTMLUnknownElement.prototype, Symbol.toStringTag, {
  configurable: true,
  get(this: HTMLElement) {
    return this.localName === "search" ? "HTMLElement" : unknownTag?.value;
  },
});
