import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router";

/** Typing pauses this long before a list asks the server (search is server-side). */
export const SEARCH_DEBOUNCE_MS = 300;

/** A page number read from the URL: 1 when it is absent or not a positive whole number. */
export function parsePage(value: string | null): number {
  return Math.max(1, Number.parseInt(value ?? "1", 10) || 1);
}

/**
 * A server-side list whose state lives in the URL, so Back and a reload keep it: `?page=` (the first
 * page left out) and `?q=`, what was typed in its search box, written once typing pauses and taking
 * the list back to its first page. Other parameters (filters) go through `update`.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const page = parsePage(params.get("page"));
  const [typed, setTyped] = useState(search);

  /** Sets these parameters, or removes those given null or "". */
  const update = useCallback(
    (changes: Record<string, string | null>, replace = false) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  useEffect(() => {
    const term = typed.trim();
    if (term === search) return;
    const timer = setTimeout(() => update({ q: term || null, page: null }, true), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search, update]);

  const goToPage = (next: number) => update({ page: next > 1 ? String(next) : null });

  /** Empties the search box and drops every parameter: the whole list, first page. */
  const reset = () => {
    setTyped("");
    setParams({}, { replace: true });
  };

  return { params, search, page, typed, setTyped, update, goToPage, reset };
}
