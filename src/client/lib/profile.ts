import { useMutation } from "@tanstack/react-query";
import type {
  EmailPreferencesUpdate,
  MeResponse,
  Profile,
  ProfileUpdateInput,
} from "../../shared/schemas/profile";
import { api } from "./api";
import { setSession } from "./session";
import { postMultipart } from "./upload";

/*
 * The signed-in person's own profile, for every area's profile page. Each answer is the profile
 * and becomes the session (setSession), so the header, the dashboards and the page agree.
 */

/** PATCH /api/me (patients: name, phone, city; dentists also biography, specialties, RPPS, practice). */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) =>
      api<MeResponse>("/api/me", { method: "PATCH", body: input }).then((r) => r.profile),
    onSuccess: (profile) => setSession(profile),
  });
}

/** PATCH /api/me/email-preferences (ADR 081): the e-mails one may stop, those sent change. */
export function useSaveEmailPreferences() {
  return useMutation({
    mutationFn: (input: EmailPreferencesUpdate) =>
      api<MeResponse>("/api/me/email-preferences", { method: "PATCH", body: input }).then((r) => r.profile),
    onSuccess: (profile) => setSession(profile),
  });
}

/** POST /api/me/avatar (field `avatar`, JPG or PNG, 5 Mo). */
export function useUploadAvatar() {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append("avatar", file, file.name);
      return postMultipart<{ profile: Profile }>("/api/me/avatar", body).then((r) => r.data.profile);
    },
    onSuccess: (profile) => setSession(profile),
  });
}
