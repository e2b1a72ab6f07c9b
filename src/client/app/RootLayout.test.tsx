/** The scroll to a link's #hash: found when it renders, kept in view while the page above it loads. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { scrollToHash } from "./RootLayout";

class RecordingObserver {
  static last: RecordingObserver | undefined;
  disconnected = false;
  constructor(readonly callback: () => void) {
    RecordingObserver.last = this;
  }
  observe() {}
  unobserve() {}
  disconnect() {
    this.disconnected = true;
  }
  /** What the browser does when the observed body's size changes. */
  resize() {
    if (!this.disconnected) this.callback();
  }
}

describe("scrollToHash", () => {
  let scrolled: HTMLElement[];
  const original = { observer: window.ResizeObserver, scroll: Element.prototype.scrollIntoView };

  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ["requestAnimationFrame", "cancelAnimationFrame", "setTimeout", "clearTimeout", "performance"],
    });
    scrolled = [];
    RecordingObserver.last = undefined;
    window.ResizeObserver = RecordingObserver as unknown as typeof ResizeObserver;
    Element.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this);
    };
    document.body.innerHTML = "<main></main>";
  });
  afterEach(() => {
    vi.useRealTimers();
    window.ResizeObserver = original.observer;
    Element.prototype.scrollIntoView = original.scroll;
    document.body.innerHTML = "";
  });

  const section = () => {
    const heading = document.createElement("h2");
    heading.id = "securite";
    document.querySelector("main")?.append(heading);
    return heading;
  };

  it("waits for the section to render, then keeps it in view while the page above it grows", () => {
    const stop = scrollToHash("#securite");
    vi.advanceTimersByTime(3000);
    expect(scrolled).toEqual([]);
    const heading = section();
    vi.advanceTimersByTime(20);
    expect(scrolled).toEqual([heading]);
    // A section above it loaded its data: the page grew, the heading is brought back.
    RecordingObserver.last?.resize();
    expect(scrolled).toEqual([heading, heading]);
    // The person scrolls: from then on the page is theirs.
    window.dispatchEvent(new Event("wheel"));
    RecordingObserver.last?.resize();
    expect(scrolled).toHaveLength(2);
    expect(RecordingObserver.last?.disconnected).toBe(true);
    stop();
  });

  it("holds a few seconds only, and gives up on a section that never renders", () => {
    const heading = section();
    scrollToHash("#securite");
    expect(scrolled).toEqual([heading]);
    vi.advanceTimersByTime(5000);
    RecordingObserver.last?.resize();
    expect(scrolled).toHaveLength(1);

    scrollToHash("#absente");
    vi.advanceTimersByTime(11_000);
    const late = document.createElement("div");
    late.id = "absente";
    document.body.append(late);
    vi.advanceTimersByTime(1000);
    expect(scrolled).not.toContain(late);
  });
});
