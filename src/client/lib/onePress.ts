import { useRef } from "react";

/**
 * One decision at a time, not two for a double click. A mutation's `isPending` (which turns its
 * button into the loading state) reaches the page a task after `mutate`, through react-query's
 * batched notifications: a second click in between would send the same decision twice (the second
 * then refused with a 409 and an error toast, though the first succeeded). `once(start)` runs
 * `start(done)` unless the last one has not called `done` yet (give it as the mutation's `onSettled`):
 * a failure may be retried at once.
 */
export function useOneAtATime() {
  const running = useRef(false);
  return (start: (done: () => void) => void) => {
    if (running.current) return;
    running.current = true;
    start(() => {
      running.current = false;
    });
  };
}
