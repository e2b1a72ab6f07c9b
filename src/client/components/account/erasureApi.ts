import { useMutation } from "@tanstack/react-query";
import type { AccountErasureInput } from "../../../shared/schemas/account";
import { api } from "../../lib/api";

/*
 * 'Supprimer mon compte' of the profile pages (patients, dentists; RGPD art. 17). Shared by both
 * areas, hence here and not in a feature folder.
 */

/**
 * POST /api/account/delete with the password: erases the account and clears the session cookies.
 * The caller leaves the protected page, then empties the cache (see ErasureCard).
 */
export function useEraseAccount() {
  return useMutation({
    mutationFn: (input: AccountErasureInput) =>
      api<{ message: string }>("/api/account/delete", { body: input }),
  });
}
