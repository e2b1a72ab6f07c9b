import type { ProfileRow } from "../db/types";

/**
 * Who is who, decided once (ADR 012). Areas are entered by role (patient, dentist) or by the admin
 * flag; the verified-dentist rule and the open statuses live here and nowhere else.
 */
export type Subject = Pick<ProfileRow, "role" | "is_admin" | "is_verified">;

/** A dentist whose registration the admins checked: the only dentists who see patients' requests. */
export function isVerifiedDentist(subject: Subject): boolean {
  return subject.role === "dentist" && subject.is_verified === true;
}

/**
 * A verified dentist who may take new work: see the open requests and send offers (issue 35). One
 * whose subscription lapsed (the actor's `limited`, from the subscription's limited_from at the
 * app's clock) keeps only what protects his patients: the requests whose accepted offer is his,
 * their documents, his conversations and appointments.
 */
export function mayTakeNewWork(actor: { profile: Subject; limited?: boolean | undefined }): boolean {
  return isVerifiedDentist(actor.profile) && actor.limited !== true;
}

/** Statuses of a request still looking for offers: the only ones open to every verified dentist. */
export const OPEN_REQUEST_STATUSES = ["new", "in_review"] as const;
