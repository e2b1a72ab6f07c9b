import type { Role } from "../domain/roles";

/** The parts of a profile that decide where a signed-in person belongs. */
export interface AccessSubject {
  role: Role | string | null | undefined;
  is_admin: boolean;
}

export type Area = "patient" | "dentist" | "admin";

/**
 * Where people land: after login or when already logged in, admin → /admin/dashboard,
 * patient → /patient/dashboard, dentist → /dentist/dashboard. A user with no known role goes to
 * /choose-role from the login pages and to /signup from the /index redirector.
 */
export function homePathFor(subject: AccessSubject | null | undefined, from: "login" | "index"): string {
  if (!subject) return from === "index" ? "/" : "/login";
  if (subject.is_admin) return "/admin/dashboard";
  if (subject.role === "patient") return "/patient/dashboard";
  if (subject.role === "dentist") return "/dentist/dashboard";
  return from === "login" ? "/choose-role" : "/signup";
}

/** Protected routes: where a signed-out visitor of an area is sent. */
export function loginPathFor(area: Area): string {
  if (area === "admin") return "/admin/login";
  if (area === "dentist") return "/dentist/login";
  return "/login";
}

/** True when the subject may enter the area: admin needs is_admin, the others the matching role. */
export function mayEnterArea(subject: AccessSubject, area: Area): boolean {
  if (area === "admin") return subject.is_admin === true;
  return subject.role === area;
}

/**
 * The decision a protected route takes once the session is known: stay, go to the area's login
 * page when signed out, or go to / when the person lacks the role or the admin flag.
 */
export function guardDecision(
  subject: AccessSubject | null | undefined,
  area: Area,
): { allow: true } | { allow: false; redirectTo: string } {
  if (!subject) return { allow: false, redirectTo: loginPathFor(area) };
  if (!mayEnterArea(subject, area)) return { allow: false, redirectTo: "/" };
  return { allow: true };
}
