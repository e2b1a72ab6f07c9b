import type { DentistSort } from "../../shared/domain/geo";
import type { OfferState } from "../../shared/domain/offers";
import type { AppointmentScope } from "../../shared/schemas/appointments";

/**
 * Every query key of the client, in one place. A key is an array whose first items name its area
 * ("patient", "dentist", "admin", "conversations", "appointments"...): invalidating a prefix reloads
 * everything under it, so a feature that must refresh another's data (a booking reloads the patient's
 * request, a live event reloads the dentist's lists) names the key here instead of copying its array.
 * Sign-out drops every query but "config" (lib/session.ts).
 */

export const patientKeys = {
  all: ["patient"] as const,
  dashboard: () => ["patient", "dashboard"] as const,
  /** Every page and search of the patient's request list. */
  requestLists: () => ["patient", "requests"] as const,
  requests: (search: string, page: number, pageSize: number) =>
    ["patient", "requests", { search, page, pageSize }] as const,
  request: (id: string) => ["patient", "request", id] as const,
  cover: () => ["patient", "cover"] as const,
  comparisons: () => ["patient", "comparison"] as const,
  comparison: (id: string) => ["patient", "comparison", id] as const,
  /** The latest reading of every request's devis (issue 17). */
  readings: () => ["patient", "reading"] as const,
  /** The request's latest reading of its devis; lib/realtime/sync.ts refreshes it by this key. */
  reading: (id: string) => ["patient", "reading", id] as const,
};

/** The verified dentists (the patient's list); a dentist's profile change reloads them. */
export const dentistsKeys = {
  all: ["dentists"] as const,
  verified: (sort: DentistSort = "name") => ["dentists", "verified", sort] as const,
};

export const dentistKeys = {
  all: ["dentist"] as const,
  dashboard: () => ["dentist", "dashboard"] as const,
  /** Every page and filter of the dentist's request list. */
  requestLists: () => ["dentist", "requests"] as const,
  requests: <F extends object>(filters: F, pageSize: number) =>
    ["dentist", "requests", { ...filters, pageSize }] as const,
  request: (id: string) => ["dentist", "request", id] as const,
  /** The menu's counters: 'Demandes' (requests to answer), 'Rendez-vous' (appointments to confirm). */
  todoCount: () => ["dentist", "todo-count"] as const,
  /**
   * What a change of his work changes (a request sent, answered, set aside): the dashboard, the
   * request lists, the menu's counter. Never a request's detail: loading it records a view in the
   * patient's access history.
   */
  work: () =>
    [
      ["dentist", "dashboard"],
      ["dentist", "requests"],
      ["dentist", "todo-count"],
    ] as const,
};

export const offerKeys = {
  mine: (requestId: string) => ["dentist", "request", requestId, "offer"] as const,
  /** Any request's `mine` query (never the request's detail beside it: loading that records a view). */
  isMine: (key: readonly unknown[]) => key[0] === "dentist" && key[1] === "request" && key[3] === "offer",
  lists: () => ["dentist", "offers"] as const,
  list: (state: OfferState | null, page: number) => ["dentist", "offers", { state, page }] as const,
};

/** Appointments of both sides: any booking change refreshes all of them. */
export const appointmentKeys = {
  all: ["appointments"] as const,
  mine: (when: AppointmentScope, page: number) => ["appointments", when, page] as const,
  ofRequest: (requestId: string) => ["appointments", "request", requestId] as const,
};

export const conversationKeys = {
  all: ["conversations"] as const,
  lists: () => ["conversations", "list"] as const,
  list: (search: string) => ["conversations", "list", { search }] as const,
  threads: () => ["conversations", "thread"] as const,
  thread: (id: string) => ["conversations", "thread", id] as const,
  unreadTotal: () => ["conversations", "unread-total"] as const,
  /** A message being written in a conversation, not sent yet (no query: set and read by the composer). */
  draft: (id: string) => ["message-draft", id] as const,
};

/** A patient's or a dentist's side of the support chat. */
export const supportKeys = {
  thread: () => ["support", "thread"] as const,
  access: () => ["support", "access"] as const,
  /** The team's answers not yet read (the header's « Besoin d'aide ? » badge). */
  unread: () => ["support", "unread"] as const,
};

export const securityKeys = {
  sessions: () => ["account", "sessions"] as const,
  twoFactor: () => ["account", "two-factor"] as const,
  /** Whether a password reset link still opens (its page, signed out). */
  resetLink: (token: string) => ["account", "reset-link", token] as const,
};

export type AdminUserRole = "patient" | "dentist";
export type SupportFilterRole = "all" | "patient" | "dentist";

export const adminKeys = {
  all: ["admin"] as const,
  stats: () => ["admin", "stats"] as const,
  retention: () => ["admin", "retention"] as const,
  users: (role: AdminUserRole, search: string, page: number, suspended = false) =>
    ["admin", "users", role, { search, page, suspended }] as const,
  usersOf: (role: AdminUserRole) => ["admin", "users", role] as const,
  queue: (page: number) => ["admin", "queue", page] as const,
  queues: () => ["admin", "queue"] as const,
  contact: (page: number) => ["admin", "contact", page] as const,
  contacts: () => ["admin", "contact"] as const,
  audit: (type: string, person: string, page: number) => ["admin", "audit", { type, person, page }] as const,
  /** The support inbox: its lists and its threads. */
  support: () => ["admin", "support"] as const,
  threads: () => ["admin", "support", "threads"] as const,
  threadList: (search: string, page: number, role: SupportFilterRole = "all", unread = false) =>
    ["admin", "support", "threads", { search, page, role, unread }] as const,
  thread: (patientId: string) => ["admin", "support", "thread", patientId] as const,
};

/** Sourio's invoices (issue 35): the dentist's billing profile and invoices, a dentist's as the team sees them. */
export const invoiceKeys = {
  billingProfile: () => ["dentist", "billing-profile"] as const,
  ownAll: () => ["dentist", "invoices"] as const,
  own: (page: number) => ["dentist", "invoices", page] as const,
  ofDentist: (dentistId: string, page: number) => ["admin", "invoices", dentistId, page] as const,
};

/** Reviews (issue 36): the patient's own, a dentist's published ones, the dentist's, the team's queue. */
export const reviewKeys = {
  all: ["reviews"] as const,
  mine: () => ["reviews", "mine"] as const,
  ofDentist: (id: string, page: number) => ["reviews", "dentist", id, page] as const,
  received: (page: number) => ["reviews", "received", page] as const,
  moderation: (status: string, dentist: string | null, page: number) =>
    ["reviews", "moderation", { status, dentist, page }] as const,
};
