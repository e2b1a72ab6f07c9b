/** A patient may cancel a request that is neither completed nor already cancelled (ADR 007). */
export function mayCancelRequest(status: string): boolean {
  return status === "new" || status === "in_review";
}

/**
 * Issue 14: a patient may delete a request (its documents, offers, conversations and files) unless
 * they accepted an offer on it (accepted, or completed): that offer is the chosen dentist's record of the
 * treatment; it goes with the patient's account, pseudonymised, not before.
 */
export function mayDeleteRequest(status: string): boolean {
  return status !== "accepted" && status !== "completed";
}
