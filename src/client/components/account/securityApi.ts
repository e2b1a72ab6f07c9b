import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AccountSession,
  AccountSessionList,
  EmailChangeInput,
  OtherSessionsRevoked,
  PasswordChangeInput,
  SessionRevoked,
} from "../../../shared/schemas/account";
import type {
  TwoFactorCodes,
  TwoFactorConfirmInput,
  TwoFactorPasswordInput,
  TwoFactorSetup,
  TwoFactorStatus,
} from "../../../shared/schemas/twoFactor";
import { api, isApiError } from "../../lib/api";
import { securityKeys } from "../../lib/queryKeys";
import { refreshSession } from "../../lib/session";

/*
 * 'Sécurité' of the profile pages (patients, dentists): password change, two-step sign-in and
 * connected devices.
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

/** DELETE /api/account/sessions: signs every other device out; this one stays. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<OtherSessionsRevoked>("/api/account/sessions", { method: "DELETE" }),
    onError: onSignedOut,
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions() }),
  });
}

/** GET /api/account/two-factor: whether a code of the person's app is asked after the password. */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: securityKeys.twoFactor(),
    queryFn: async ({ signal }): Promise<TwoFactorStatus> => {
      try {
        return await api<TwoFactorStatus>("/api/account/two-factor", { signal });
      } catch (error) {
        onSignedOut(error);
        throw error;
      }
    },
  });
}

/**
 * A POST of two-step sign-in (ADR 098). One that turns it on or off (`enabled`) writes the new state
 * at once, and the devices are read again (turning it on renews this device's session); a 409 says
 * the page's state was stale: it is read again.
 */
function useTwoFactorPost<I, O>(path: string, enabled?: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => api<O>(`/api/account/two-factor${path}`, { body: input }),
    onSuccess: () => {
      if (enabled === undefined) return;
      // Turned on or off, no device is remembered any more (the server forgets them when it goes off).
      queryClient.setQueryData<TwoFactorStatus>(securityKeys.twoFactor(), { enabled, remembered_devices: 0 });
      void queryClient.invalidateQueries({ queryKey: securityKeys.sessions() });
    },
    onError: (error) => {
      onSignedOut(error);
      if (isApiError(error) && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: securityKeys.twoFactor() });
    },
  });
}

/** DELETE …/remembered-devices: every remembered device asks the code again; the count is read again. */
export function useForgetRememberedDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ message: string }>("/api/account/two-factor/remembered-devices", { method: "DELETE" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: securityKeys.twoFactor() }),
    onError: onSignedOut,
  });
}

/** POST …/setup with the password: the app's secret and the recovery codes; nothing is on yet. */
export const useTwoFactorSetup = () => useTwoFactorPost<TwoFactorPasswordInput, TwoFactorSetup>("/setup");

/** POST …/confirm with the app's first code: turns it on. */
export const useConfirmTwoFactor = () =>
  useTwoFactorPost<TwoFactorConfirmInput, { message: string }>("/confirm", true);

/** POST …/disable with the password. */
export const useDisableTwoFactor = () =>
  useTwoFactorPost<TwoFactorPasswordInput, { message: string }>("/disable", false);

/** POST …/backup-codes with the password: ten new recovery codes, the old ones no longer work. */
export const useRenewBackupCodes = () =>
  useTwoFactorPost<TwoFactorPasswordInput, TwoFactorCodes>("/backup-codes");
