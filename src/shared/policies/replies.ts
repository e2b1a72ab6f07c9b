import type { DentistStatus } from "../domain/dentist";

export const REPLY_REFUSED = "Cette demande a déjà reçu une réponse.";

/** A dentist replies to a request only while their own status on it is pending (ADR 007). */
export function mayReply(status: DentistStatus): boolean {
  return status === "pending";
}
