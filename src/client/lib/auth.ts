import { useMutation, useQuery } from "@tanstack/react-query";
import type { Area } from "../../shared/policies/redirects";
import type {
  DentistSignupInput,
  LoginInput,
  PatientSignupInput,
  ResetLinkState,
} from "../../shared/schemas/account";
import { ACCOUNT_MESSAGES } from "../../shared/schemas/account";
import type { Profile } from "../../shared/schemas/profile";
import type { SecondFactorNeeded } from "../../shared/schemas/twoFactor";
import { api } from "./api";
import { securityKeys } from "./queryKeys";
import { refreshSession, setSession } from "./session";

export {
  areaOfPath,
  clearSessionCache,
  fetchSession,
  postLoginPath,
  refreshSession,
  type Session,
  type SessionStatus,
  safeNextPath,
  setSession,
  useSession,
} from "./session";

/** Auth calls report an unreachable service with the same French sentence as every other call. */
const AUTH = { networkMessage: ACCOUNT_MESSAGES.serviceUnreachable };

interface ProfileResponse {
  profile: Profile;
}
interface MessageResponse {
  message: string;
}

/**
 * What the password step answers: the profile (signed in), or (202) that the code of the person's
 * authenticator app is still needed (ADR 098), then sent with `useLoginCode`.
 */
export type LoginResult = ProfileResponse | SecondFactorNeeded;

export function useLogin() {
  return useMutation({
    mutationFn: (input: LoginInput) => api<LoginResult>("/api/account/login", { body: input, ...AUTH }),
    onSuccess: (result) => {
      if ("profile" in result) setSession(result.profile);
    },
  });
}

/** POST /api/account/login/code: the second step of a sign-in; signs in as a login does. */
export function useLoginCode() {
  return useMutation({
    mutationFn: (input: { code: string; trust_device: boolean }) =>
      api<ProfileResponse>("/api/account/login/code", { body: input, ...AUTH }).then((r) => r.profile),
    onSuccess: (profile) => setSession(profile),
  });
}

export type SignupInput =
  | ({ role: "patient" } & PatientSignupInput)
  | ({ role: "dentist" } & DentistSignupInput);

export function useSignup() {
  return useMutation({
    mutationFn: (input: SignupInput) =>
      api<ProfileResponse>("/api/account/signup", { body: input, ...AUTH }).then((r) => r.profile),
    onSuccess: (profile) => setSession(profile),
  });
}

/**
 * POST /api/account/logout. The caller navigates away first, then calls `clearSessionCache`, so a
 * protected page never sees the signed-out state and sends the visitor to its login page.
 */
export function useLogout() {
  return useMutation({
    mutationFn: () => api<MessageResponse>("/api/account/logout", { method: "POST", ...AUTH }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (input: { email: string; area: Area }) =>
      api<MessageResponse>("/api/account/forgot-password", { body: input, ...AUTH }),
  });
}

/** POST /api/account/email/confirm: the link sent to a new address makes it the account's (ADR 083). */
export function useConfirmEmailChange() {
  return useMutation({
    mutationFn: (token: string) =>
      api<MessageResponse>("/api/account/email/confirm", { body: { token }, ...AUTH }),
    // Signed in on this device: the session learns the new address.
    onSuccess: () => refreshSession(),
  });
}

/**
 * Whether the e-mailed reset link still opens, asked once when its page opens: a used or expired
 * one says so before a new password is typed for nothing. No answer (offline): the form shows,
 * and sending it says what the server says.
 */
export function useResetLinkState(token: string) {
  return useQuery({
    queryKey: securityKeys.resetLink(token),
    queryFn: ({ signal }) =>
      api<ResetLinkState>("/api/account/reset-password/check", { body: { token }, signal, ...AUTH }),
    enabled: token !== "",
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; password: string; password_confirmation: string }) =>
      api<MessageResponse>("/api/account/reset-password", { body: input, ...AUTH }),
  });
}
