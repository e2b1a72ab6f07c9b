import type { DentistStatus } from "../domain/dentist";

export const REPLY_REFUSED = "Cette demande a déjà reçu une réponse.";

/** Spec §4 / D7: a dentist replies to a request only while their own status on it is pending. */
export function mayReply(status: DentistStatus): boolean {
  return status === "pending";
}
