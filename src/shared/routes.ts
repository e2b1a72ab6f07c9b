/**
 * Every page path of the client (src/client/app/routes.tsx), as react-router patterns: the server
 * answers 404 (with the app, which shows the French 404 page) for any other path. A test checks
 * that each <Route path> of the client is covered here, so the two lists cannot drift apart.
 * ":name" is one segment; a trailing "?" makes that segment optional.
 */
/** The public content pages, open to anyone: pre-rendered to HTML at build time (client/prerender.tsx). */
export const PUBLIC_CONTENT_PATHS = [
  "/",
  "/how-it-works",
  "/faq",
  "/dentist/benefits",
  "/privacy",
  "/avis",
  "/terms",
  "/contact",
  "/upload-devis",
] as const;

export const APP_ROUTE_PATTERNS = [
  ...PUBLIC_CONTENT_PATHS,
  "/login",
  "/dentist/login",
  "/admin/login",
  "/signup",
  "/dentist/signup",
  "/choose-role",
  "/forgot-password",
  "/dentist/forgot-password",
  "/admin/forgot-password",
  "/reset-password",
  "/confirm-email",
  "/index",

  "/patient",
  "/patient/dashboard",
  "/patient/messages",
  "/patient/upload",
  "/patient/request/:id",
  "/patient/request/:id/compare",
  "/patient/requests",
  "/patient/appointments",
  "/patient/profile",
  "/patient/reviews",
  "/patient/reviews/new/:appointmentId",
  "/patient/reviews/:id/edit",
  "/patient/dentists/:id/reviews",
  "/patient/help",

  "/dentist",
  "/dentist/dashboard",
  "/dentist/messages/:id?",
  "/dentist/quote-requests",
  "/dentist/quote-request/:id",
  "/dentist/patient-submission/:id",
  "/dentist/offers",
  "/dentist/appointments",
  "/dentist/subscription",
  "/dentist/reviews",
  "/dentist/profile",
  "/dentist/help",

  "/admin",
  "/admin/dashboard",
  "/admin/chat-messages",
  "/admin/verifications",
  "/admin/contact",
  "/admin/audit",
  "/admin/account",
  "/admin/retention",
  "/admin/subscriptions",
  "/admin/reviews",
] as const;

function segmentsOf(path: string): string[] {
  return path.split("/").filter((segment) => segment.length > 0);
}

/** True when the pattern matches the path (react-router rules: ":id" one segment, "?" optional). */
export function matchesRoutePattern(pattern: string, pathname: string): boolean {
  const want = segmentsOf(pattern);
  const have = segmentsOf(pathname);
  let i = 0;
  for (const segment of want) {
    const optional = segment.endsWith("?");
    const name = optional ? segment.slice(0, -1) : segment;
    const value = have[i];
    if (value === undefined) {
      if (optional) continue;
      return false;
    }
    if (name.startsWith(":")) {
      i++;
      continue;
    }
    if (name !== value) {
      if (optional) continue;
      return false;
    }
    i++;
  }
  return i === have.length;
}

/** True when the client has a page at this path (trailing slashes ignored). */
export function isAppPath(pathname: string, patterns: readonly string[] = APP_ROUTE_PATTERNS): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return patterns.some((pattern) => matchesRoutePattern(pattern, decoded));
}
