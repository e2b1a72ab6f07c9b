import { render, waitFor } from "@testing-library/react";
import { type Location, MemoryRouter, useLocation } from "react-router";
import { vi } from "vitest";
import { DEFAULT_PLAN_PRICES_HT_CENTS } from "../../shared/domain/subscription";
import { planPriceDtos } from "../../shared/schemas/billing";
import { ERROR_CODES, MESSAGES } from "../../shared/schemas/common";
import type { Profile } from "../../shared/schemas/profile";
import { Providers } from "../app/Providers";
import { AppRoutes, preloadPageGroups } from "../app/routes";
import { resetConfigStore } from "../lib/config";
import { getQueryClient, resetQueryClient } from "../lib/queryClient";
import { resetSessionStore } from "../lib/session";

// The page groups are lazy chunks. Importing one the first time (transform and evaluation of its
// modules) can take seconds on a busy machine, longer than testing-library waits for what a page
// shows: every test file that renders the app has them all loaded before its first test.
await preloadPageGroups();

type Handler = (body: unknown) => { status: number; body?: unknown };

export function json(status: number, body?: unknown) {
  return { status, body };
}

/**
 * An endpoint that fails as the server does on an unexpected error (500) until `recover()`, then
 * gives `answer()`: for the tests of 'Réessayer'.
 */
export function failingUntilRecovered(answer: () => { status: number; body?: unknown }) {
  let failing = true;
  return {
    respond: () =>
      failing ? json(500, { error: { code: ERROR_CODES.internal, message: MESSAGES.internal } }) : answer(),
    recover: () => {
      failing = false;
    },
  };
}

/** A stubbed answer as the fetch Response the API would give (JSON, or an empty body). */
export function toResponse(answer: { status: number; body?: unknown }): Response {
  return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
    status: answer.status,
    headers: { "Content-Type": "application/json" },
  });
}

export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    email: "marie.curie@example.fr",
    role: "patient",
    first_name: "Marie",
    last_name: "Curie",
    full_name: "Marie Curie",
    phone_number: null,
    city: null,
    bio: "",
    specialties: [],
    avatar_url: null,
    email_preferences: { messages: true, reminders: true, reviews: true, new_requests: true },
    is_admin: false,
    is_verified: false,
    rpps: null,
    practice_address: null,
    practice_postcode: null,
    postal_code: null,
    verification_requested_at: null,
    birth_date: null,
    verification_refusal_reason: null,
    verification_state: "none",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

/** An administrator's session: Alex Admin, as the admin screens' tests sign in. */
export function makeAdmin(): Profile {
  return makeProfile({
    id: "00000000-0000-4000-8000-0000000000ad",
    email: "admin@sourio.fr",
    role: null,
    first_name: "Alex",
    last_name: "Admin",
    full_name: "Alex Admin",
    is_admin: true,
  });
}

/**
 * Stubs fetch to our own API: `me` is the session (null → 401), `handlers` answer other calls by
 * "METHOD /path" (two-step sign-in's state is off unless a handler says otherwise). Unknown calls
 * answer 404 in the API's error shape.
 */
export function stubApi(me: Profile | null, handlers: Record<string, Handler> = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const key = `${init?.method ?? "GET"} ${url.pathname}`;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    let answer: { status: number; body?: unknown };
    if (handlers[key]) answer = handlers[key](body);
    else if (key === "GET /api/me") {
      answer = me
        ? json(200, { profile: me })
        : json(401, {
            error: { code: "UNAUTHENTICATED", message: "Veuillez vous connecter pour continuer." },
          });
    } else if (key === "GET /api/account/two-factor") {
      // 'Sécurité' of every profile page asks it: off, unless a test says otherwise.
      answer = json(200, { enabled: false, remembered_devices: 0 });
    } else if (key === "GET /api/config") {
      answer = json(200, {
        brand_name: "Sourio",
        contact_email: "contact@sourio.fr",
        plans: planPriceDtos(DEFAULT_PLAN_PRICES_HT_CENTS, "Sourio"),
      });
    } else answer = json(404, { error: { code: "NOT_FOUND", message: "Ressource introuvable." } });
    return toResponse(answer);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** What the tests read of the router: the current location, kept up to date. */
export interface TestRouter {
  state: { location: Location };
}

function LocationProbe({ router }: { router: TestRouter }) {
  router.state.location = useLocation();
  return null;
}

/** Renders the real route table at `path` in a memory router, with fresh stores and query cache. */
export function renderApp(path: string) {
  resetSessionStore();
  resetConfigStore();
  resetQueryClient();
  const router: TestRouter = {
    state: { location: { pathname: "", search: "", hash: "", state: null, key: "" } },
  };
  const utils = render(
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <LocationProbe router={router} />
      <Providers>
        <AppRoutes />
      </Providers>
    </MemoryRouter>,
  );
  return { router, client: getQueryClient(), ...utils };
}

/**
 * Waits until the query client has nothing in flight (no fetch, no mutation): what a test awaits
 * before checking that something did NOT happen (a second call, a request never made), instead of
 * sleeping for a guessed time (ADR 028).
 */
export async function settled(): Promise<void> {
  const client = getQueryClient();
  await waitFor(() => {
    if (client.isFetching() > 0 || client.isMutating() > 0) throw new Error("requêtes en cours");
  });
}
