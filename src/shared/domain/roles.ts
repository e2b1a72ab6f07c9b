/** Roles of the product (ADR 003). Admin is a flag on the profile, never a role. */
export const ROLES = ["patient", "dentist"] as const;
export type Role = (typeof ROLES)[number];

export const DEFAULT_ROLE: Role = "patient";

export const ROLE_LABELS: Record<Role, string> = {
  patient: "Patient",
  dentist: "Dentiste",
};

/** Only patient or dentist is accepted; anything else becomes patient. */
export function normalizeRole(value: unknown): Role {
  return value === "dentist" ? "dentist" : DEFAULT_ROLE;
}
