import { type QueryClient, useQuery } from "@tanstack/react-query";
import { type Area, guardDecision, homePathFor } from "../../shared/policies/redirects";
import type { MeResponse, Profile } from "../../shared/schemas/profile";
import { ApiError, api } from "./api";
import { configQueryKey } from "./config";

/*
 * The session, light enough for the landing page's initial bundle (no zod here: the shared
 * schemas are only imported by the auth and area chunks).
 */

export const sessionQueryKey = ["session"] as const;

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

/**
 * The current session. While /api/me loads: "loading"; when it answers 401 or cannot be reached:
 * "signed-out" (pages still render); otherwise "signed-in" with the profile.
 */
export function useSession(): Session {
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (query.isPending) return { status: "loading", profile: null };
  const profile = query.data ?? null;
  return profile ? { status: "signed-in", profile } : { status: "signed-out", profile: null };
}

/** Forgets everything cached for the previous user (keeps only the public configuration). */
export function clearSessionCache(queryClient: QueryClient): void {
  const kept: unknown[] = [configQueryKey[0], sessionQueryKey[0]];
  queryClient.removeQueries({ predicate: (q) => !kept.includes(q.queryKey[0]) });
  queryClient.setQueryData(sessionQueryKey, null);
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
