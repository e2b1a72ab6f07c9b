import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AccountSession,
  AccountSessionList,
  EmailChangeInput,
  PasswordChangeInput,
  SessionRevoked,
} from "../../../shared/schemas/account";
import { api, isApiError } from "../../lib/api";
import { securityKeys } from "../../lib/queryKeys";
import { refreshSession } from "../../lib/session";

/*
 * 'Sécurité' of the profile pages (patients, dentists): password change and connected devices.
 * Shared by both areas, hence here and not in a feature folder.
 */

export { securityKeys };

/** A 401 here means this device was signed out elsewhere: the session store learns it (→ login). */
function onSignedOut(error: unknown): void {
  if (isApiError(error) && error.status === 401) void refreshSession();
}

/** GET /api/account/sessions: the person's signed-in devices, newest first. */
export function useAccountSessions() {
  return useQuery({
    queryKey: securityKeys.sessions(),
    queryFn: async ({ signal }): Promise<AccountSession[]> => {
      try {
        return (await api<AccountSessionList>("/api/account/sessions", { signal })).sessions;
      } catch (error) {
        onSignedOut(error);
        throw error;
      }
    },
  });
}

/** POST /api/account/password: this device stays signed in (new cookie), the others are signed out. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      api<{ message: string }>("/api/account/password", { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions() }),
    onError: onSignedOut,
  });
}

/** POST /api/account/email: a link goes to the new address, which changes nothing until opened (ADR 083). */
export function useRequestEmailChange() {
  return useMutation({
    mutationFn: (input: EmailChangeInput) => api<{ message: string }>("/api/account/email", { body: input }),
    onError: onSignedOut,
  });
}

/** DELETE /api/account/sessions/:id: signs one of the person's other devices out. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<SessionRevoked>(`/api/account/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (result) => {
      if (result.signed_out) void refreshSession();
    },
    onError: onSignedOut,
    // Gone or not, the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions() }),
  });
}
