import { useMutation } from "@tanstack/react-query";
import type { MeResponse } from "../../../shared/schemas/profile";
import { api } from "../../lib/api";
import { setSession } from "../../lib/session";

/* The dentist profile's own call; name, photo and the other fields go through lib/profile.ts. */

/** POST /api/me/verification-request: puts the dentist in the admins' verification queue. */
export function useRequestVerification() {
  return useMutation({
    mutationFn: () =>
      api<MeResponse>("/api/me/verification-request", { method: "POST" }).then((r) => r.profile),
    onSuccess: (profile) => setSession(profile),
  });
}
