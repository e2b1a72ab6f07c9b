import { useSyncExternalStore } from "react";

/**
 * A value kept outside React, for what the landing page's initial bundle needs (react-query is
 * not in it): components read it with `useValue()` and render again when `set` changes it.
 */
export function createStore<T>(initial: T) {
  let current = initial;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const get = () => current;
  return {
    get,
    subscribe,
    /** Changes the value and tells every reader. */
    set(next: T): void {
      current = next;
      for (const listener of listeners) listener();
    },
    /** Tests only, between two renders: puts a value back without telling anyone. */
    replace(next: T): void {
      current = next;
    },
    useValue: (): T => useSyncExternalStore(subscribe, get, get),
  };
}
