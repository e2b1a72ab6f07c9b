import "@testing-library/jest-dom/vitest";
// The French zod messages, as in main.tsx.
import "../../shared/schemas/zod-fr";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// findBy…/waitFor wait for what the screen needs: a lazy page or a fetch can take longer than the
// default second on a loaded 2-core machine (a flaky test blocks a landing as a failure does).
configure({ asyncUtilTimeout: 5000 });

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
