import type { QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type Area, guardDecision, homePathFor } from "../../shared/policies/redirects";
import type { MeResponse, Profile } from "../../shared/schemas/profile";
import { ApiError, api } from "./api";
import { createStore } from "./store";

/*
 * The session, light enough for the landing page's initial bundle: no zod and no react-query here
 * (the shared schemas and the query cache are only loaded with the auth and area chunks). The
 * session lives in this small store; react-query code updates it through setSession, and
 * clearSessionCache empties both on sign-out.
 */

export type SessionStatus = "loading" | "signed-out" | "signed-in";

export interface Session {
  status: SessionStatus;
  profile: Profile | null;
}

/** GET /api/me: 401 means signed out (profile null); other failures are thrown. */
export async function fetchSession(signal?: AbortSignal): Promise<Profile | null> {
  try {
    const { profile } = await api<MeResponse>("/api/me", { signal });
    return profile;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}

/** A session older than this is checked again when a page that reads it mounts. */
const SESSION_STALE_MS = 5 * 60_000;

const LOADING: Session = { status: "loading", profile: null };
const store = createStore(LOADING);
let loadedAt = 0;
let pending: Promise<void> | null = null;
/** Bumped by setSession so an older /api/me answer never overwrites a newer known state. */
let version = 0;

/**
 * How many calls of this signed-in tab the server answered « Veuillez vous connecter » (401) since
 * the session was last known: its session ended (expired, or signed out from another tab) while the
 * page stayed open. The shell then asks for the password again over the page (ADR 102).
 */
const ended = createStore(0);

/** A call was refused as signed out (401) while this tab believes it is signed in. */
export function noteSessionEnded(): void {
  if (store.get().status === "signed-in") ended.set(ended.get() + 1);
}

/** The count of `noteSessionEnded` since the session was last set (0: nothing refused). */
export function useSessionEnded(): number {
  return ended.useValue();
}

/** Records the signed-in profile (after login, sign-up or a profile update) or null (signed out). */
export function setSession(profile: Profile | null): void {
  version += 1;
  loadedAt = Date.now();
  if (ended.get() !== 0) ended.set(0);
  store.set(profile ? { status: "signed-in", profile } : { status: "signed-out", profile: null });
}

/** Asks /api/me again (once at a time); an unreachable service reads as signed out. */
export function refreshSession(): Promise<void> {
  if (pending) return pending;
  const started = version;
  pending = fetchSession()
    .catch(() => null)
    .then((profile) => {
      if (version === started) setSession(profile);
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Tests only: forget everything (each test renders a fresh app). */
export function resetSessionStore(): void {
  version += 1;
  loadedAt = 0;
  pending = null;
  store.replace(LOADING);
  ended.replace(0);
}

/**
 * The current session. While /api/me loads: "loading"; when it answers 401 or cannot be reached:
 * "signed-out" (pages still render); otherwise "signed-in" with the profile.
 */
export function useSession(): Session {
  useEffect(() => {
    if (store.get().status === "loading" || Date.now() - loadedAt > SESSION_STALE_MS) void refreshSession();
  }, []);
  return store.useValue();
}

/** Forgets everything cached for the previous user (keeps only the public configuration). */
export function clearSessionCache(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "config" });
  setSession(null);
}

/** The protected area a path belongs to, or null for public paths. */
export function areaOfPath(path: string): Area | null {
  const pathname = path.split(/[?#]/)[0] ?? "";
  if (/^\/admin(\/|$)/.test(pathname) && !/^\/admin\/(login|forgot-password)$/.test(pathname)) return "admin";
  if (/^\/patient(\/|$)/.test(pathname)) return "patient";
  if (
    /^\/dentist(\/|$)/.test(pathname) &&
    !/^\/dentist\/(login|signup|forgot-password|benefits)$/.test(pathname)
  ) {
    return "dentist";
  }
  return null;
}

/** Keeps `next` only when it is a path of this site ("/…", never "//host" or "/\host"). */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next?.startsWith("/") || next.startsWith("//")) return null;
  // No backslash ("/\\host" is "//host" for browsers) and no control character.
  for (const char of next) if (char.charCodeAt(0) < 0x20 || char === "\\") return null;
  return next;
}

/** Where to go after login: `next` when this person may open it, otherwise their home page. */
export function postLoginPath(profile: Profile, next: string | null | undefined): string {
  const target = safeNextPath(next);
  if (target) {
    const area = areaOfPath(target);
    if (area === null || guardDecision(profile, area).allow) return target;
  }
  return homePathFor(profile, "login");
}
