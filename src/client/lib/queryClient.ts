import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ERROR_CODES } from "../../shared/schemas/common";
import { isApiError } from "./api";
import { noteSessionEnded } from "./session";

/** Any read or change refused as signed out: the session ended while the page was open (ADR 102). */
function onFailure(error: unknown): void {
  if (isApiError(error) && error.status === 401 && error.code === ERROR_CODES.unauthenticated)
    noteSessionEnded();
}

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    queryCache: new QueryCache({ onError: onFailure }),
    mutationCache: new MutationCache({ onError: onFailure }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors (4xx) will not change on retry; network failures and 5xx get one more try.
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
          return failureCount < 1;
        },
      },
      // Offline, a change is tried anyway (the default pauses it until the browser is back online, its
      // button busy with no word): it fails at once with the network's French message, and the form
      // keeps what was typed. Reads keep the default (paused, not failed, while offline).
      mutations: { retry: false, networkMode: "always" },
    },
  });
  // A message being written is kept until sent or cleared (or sign-out empties the cache), not
  // dropped five minutes after its conversation was left.
  client.setQueryDefaults(["message-draft"], { gcTime: Number.POSITIVE_INFINITY });
  return client;
}

let shared: QueryClient | null = null;

/**
 * The one query client of the app. It is created with the first chunk that needs it (auth pages,
 * signed-in areas), never by the landing page's initial bundle.
 */
export function getQueryClient(): QueryClient {
  shared ??= createQueryClient();
  return shared;
}

/** Tests only: a fresh cache for each rendered app. */
export function resetQueryClient(): void {
  shared?.clear();
  shared = null;
}
