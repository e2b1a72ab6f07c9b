import { useMutation } from "@tanstack/react-query";
import type { MeResponse, Profile, ProfileUpdateInput } from "../../../shared/schemas/profile";
import { api } from "../../lib/api";
import { setSession } from "../../lib/session";
import { postMultipart } from "../../lib/upload";

/**
 * The dentist profile's calls (one hook per endpoint). Each answer is the signed-in profile and
 * becomes the session (setSession), so the header, the dashboard and this page agree.
 */

/** PATCH /api/me: identity, biography, specialties, RPPS number and practice address. */
export function useUpdateDentistProfile() {
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) =>
      api<MeResponse>("/api/me", { method: "PATCH", body: input }).then((r) => r.profile),
    onSuccess: (profile) => setSession(profile),
  });
}

/** POST /api/me/avatar (field `avatar`, JPG or PNG, 5 Mo). */
export function useUploadDentistAvatar() {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append("avatar", file, file.name);
      return postMultipart<{ profile: Profile }>("/api/me/avatar", body).then((r) => r.data.profile);
    },
    onSuccess: (profile) => setSession(profile),
  });
}

/** POST /api/me/verification-request: puts the dentist in the admins' verification queue. */
export function useRequestVerification() {
  return useMutation({
    mutationFn: () =>
      api<MeResponse>("/api/me/verification-request", { method: "POST" }).then((r) => r.profile),
    onSuccess: (profile) => setSession(profile),
  });
}
