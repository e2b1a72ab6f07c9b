import type { AddressInfo } from "node:net";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueInvoice } from "./modules/invoices/invoices.service";
import { multipart } from "./testing/files";
import { openSocket } from "./testing/sockets";
import {
  ACTORS,
  type ActorName,
  addReviews,
  createWorld,
  DENTISTS,
  type PersonName,
  type World,
  type WorldReviews,
} from "./testing/world";

/**
 * The role × route matrix (issue 13, item 4). Every route of the OpenAPI document, and the hidden
 * routes registered beside it, is called by every actor of the world (testing/world.ts) on objects
 * of each owner; TABLE below is the one place that says what each call must answer.
 *
 * - A route missing from TABLE fails ("décidez qui peut appeler …"); a route of TABLE that the app
 *   no longer registers fails too.
 * - Routes with a body are called with a body that can never be valid (a JSON array, an empty
 *   multipart form): the guards and the ownership checks run before the body is validated, so an
 *   allowed caller gets 400 and a refused one 401/403/404, and nothing changes.
 * - Body-less changes (cancel, accept, withdraw, sign-out…) get fresh objects from the world's
 *   factories, one per caller expected to succeed.
 * - No response to a dentist may hold a patient's e-mail address or phone number.
 * - An error answer under /api has the one shape { error: { code, message } }.
 */

// ─── The table ───────────────────────────────────────────────────────────────────────────────────

/** A status, or a 200 whose body must show and/or hide some objects (lists). */
type Expect = number | { status: number; shows?: Handle[]; hides?: Handle[] };
/**
 * One expectation per actor, in this order. The last two (issue 35), a dentist in trial and one
 * whose subscription lapsed, own nothing in the world: a row of seven gives them the unverified
 * dentist's answer (what a dentist with nothing of his own gets), a row of nine says theirs.
 */
type Row =
  | readonly [
      anonymous: Expect,
      patientA: Expect,
      patientB: Expect,
      chosen: Expect,
      notChosen: Expect,
      unverified: Expect,
      admin: Expect,
    ]
  | readonly [
      anonymous: Expect,
      patientA: Expect,
      patientB: Expect,
      chosen: Expect,
      notChosen: Expect,
      unverified: Expect,
      admin: Expect,
      trial: Expect,
      lapsed: Expect,
    ];
/**
 * Objects (path parameter, or `?name=` query parameter: a handle or a plain value) → row; `-`
 * when the route takes none.
 * Handles: req:, doc:, offer:, conv:, att:, appt:, support:, contact:, avatar:, person:, session:,
 * reading:, review: name an object of the world; auth:, static: and page: the rest of a path; "a+b" fills
 * a route's path parameters in order.
 */
type Rows = Record<string, Row>;
type Handle = string;

const everyone = (s: Expect): Row => [s, s, s, s, s, s, s, s, s];
/** Any signed-in person; anonymous 401. */
const signedIn = (s: Expect): Row => [401, s, s, s, s, s, s, s, s];
/** Patient area: the two patients; dentists and the admin (no patient role) 403. */
const patients = (a: Expect, b: Expect = a): Row => [401, a, b, 403, 403, 403, 403];
/**
 * Dentist area: the five dentists; patients and the admin (no dentist role) 403. The dentist in
 * trial sees what every verified dentist sees (the not-chosen one's answer unless said), the lapsed
 * one what a dentist who sees no request sees (the unverified one's unless said).
 */
const dentists = (
  chosen: Expect,
  notChosen: Expect = chosen,
  unverified: Expect = notChosen,
  trial: Expect = notChosen,
  lapsed: Expect = unverified,
): Row => [401, 403, 403, chosen, notChosen, unverified, 403, trial, lapsed];
/** Admin area: only the admin. */
const admins = (s: Expect): Row => [401, 403, 403, 403, 403, 403, s];
/** A 200 list that shows these objects and hides those. */
const list = (shows: Handle[], hides: Handle[] = []): Expect => ({ status: 200, shows, hides });

/**
 * A verified-dentist route on one request. Who sees which request:
 *   A's open request (sent to all)          chosen ✓   notChosen ✓
 *   A's finished request (chosen's offer)   chosen ✓   notChosen 404
 *   A's request sent by name to the chosen  chosen ✓   notChosen 404
 *   A's cancelled request                   404        404
 *   B's open request (sent to all)          chosen ✓   notChosen ✓
 * The unverified dentist sees no request (its lists are empty), so each one is 404 to it, as to a
 * stranger: an object it may not see is one it cannot tell from a missing one.
 */
const dentistsOnRequest = (ok: number): Rows => ({
  "req:openA": dentists(ok, ok, 404),
  "req:finishedA": dentists(ok, 404, 404),
  "req:namedA": dentists(ok, 404, 404),
  "req:cancelledA": dentists(404, 404, 404),
  "req:openB": dentists(ok, ok, 404),
});

const REQUESTS_OF_A = ["req:openA", "req:finishedA", "req:cancelledA", "req:namedA"];
const ALL_REQUESTS = [...REQUESTS_OF_A, "req:openB"];

/** Lists: what each one must show, and what it must hide. */
const L = {
  requestsOfA: list(REQUESTS_OF_A, ["req:openB"]),
  requestsOfB: list(["req:openB"], REQUESTS_OF_A),
  dashboardOfA: list(["req:openA"], ["req:openB"]),
  chosenRequests: list(["req:openA", "req:namedA", "req:openB"], ["req:cancelledA"]),
  otherRequests: list(["req:openA", "req:openB"], ["req:finishedA", "req:namedA", "req:cancelledA"]),
  noRequest: list([], ALL_REQUESTS),
  chosenOffers: list(
    ["offer:chosenOnOpenA", "offer:acceptedOnFinishedA", "offer:chosenOnOpenB"],
    ["offer:otherOnOpenA", "offer:closedOnFinishedA"],
  ),
  otherOffers: list(
    ["offer:otherOnOpenA", "offer:closedOnFinishedA"],
    ["offer:chosenOnOpenA", "offer:acceptedOnFinishedA", "offer:chosenOnOpenB"],
  ),
  noOffer: list([], ["offer:chosenOnOpenA", "offer:otherOnOpenA", "offer:acceptedOnFinishedA"]),
  withAppointment: list(["appt:A"]),
  noAppointment: list([], ["appt:A"]),
  conversationsOfA: list(
    ["conv:chosenOpenA", "conv:otherOpenA", "conv:chosenFinishedA", "conv:otherFinishedA"],
    ["conv:chosenOpenB"],
  ),
  conversationsOfB: list(
    ["conv:chosenOpenB"],
    ["conv:chosenOpenA", "conv:otherOpenA", "conv:chosenFinishedA", "conv:otherFinishedA"],
  ),
  chosenConversations: list(
    ["conv:chosenOpenA", "conv:chosenFinishedA", "conv:chosenOpenB"],
    ["conv:otherOpenA", "conv:otherFinishedA"],
  ),
  otherConversations: list(
    ["conv:otherOpenA", "conv:otherFinishedA"],
    ["conv:chosenOpenA", "conv:chosenFinishedA", "conv:chosenOpenB"],
  ),
  noConversation: list(
    [],
    [
      "conv:chosenOpenA",
      "conv:otherOpenA",
      "conv:chosenFinishedA",
      "conv:otherFinishedA",
      "conv:chosenOpenB",
    ],
  ),
  supportOfA: list(["support:imageA"], ["support:textB"]),
  supportOfB: list(["support:textB"], ["support:imageA"]),
  noSupport: list([], ["support:imageA", "support:textB"]),
  verifiedDentists: list(["person:chosen", "person:notChosen"], ["person:unverified"]),
  chosenInvoices: list(["invoice:chosen"], ["invoice:notChosen"]),
  otherInvoices: list(["invoice:notChosen"], ["invoice:chosen"]),
  noInvoice: list([], ["invoice:chosen", "invoice:notChosen"]),
} as const;

/** The table: route → object → what each actor gets. */
// biome-ignore format: an aligned table reads better than a formatted one
const TABLE: Record<string, Rows> = {
  // System, public pages and the API's description.           anonymous patientA patientB chosen notChosen unverified admin
  "GET /api/health":                             { "-": everyone(200) },
  "GET /api/config":                             { "-": everyone(200) },
  "GET /api/public/stats":                       { "-": everyone(200) },
  "GET /api/openapi.json":                       { "-": everyone(200) },
  "GET /api/docs":                               { "-": everyone(200) },
  "GET /api/docs/":                              { "-": everyone(200) },
  "GET /api/docs/json":                          { "-": everyone(200) },
  "GET /api/docs/yaml":                          { "-": everyone(200) },
  "GET /api/docs/static/index.html":             { "-": everyone(302) },
  "GET /api/docs/static/swagger-initializer.js": { "-": everyone(200) },
  "GET /api/docs/static/*":                      { "static:swagger-ui.css": everyone(200) },
  "GET /robots.txt":                             { "-": everyone(200) },
  "GET /sitemap.xml":                            { "-": everyone(200) },
  "GET /favicon.ico":                            { "-": everyone(301) },
  // Prometheus's scrape: its bearer token (METRICS_TOKEN) only, never a session (plugins/metrics.ts).
  "GET /metrics":                                { "-": everyone(401) },
  // npm run backup's request to the running server: its start's token only (modules/system/backup.routes.ts).
  "POST /internal/backup":                       { "-": everyone(401) },

  // Account (public), and the signed-in person's security page (another person's session: 404).
  "POST /api/account/signup":             { "-": everyone(400) },
  "POST /api/account/login":              { "-": everyone(400) },
  // The second step of a two-step sign-in (ADR 098): its pending cookie is the proof, no session.
  "POST /api/account/login/code":         { "-": everyone(400) },
  "POST /api/account/logout":             { "-": everyone(200) },
  "POST /api/account/forgot-password":    { "-": everyone(400) },
  "POST /api/account/reset-password":     { "-": everyone(400) },
  "POST /api/account/reset-password/check": { "-": everyone(400) },
  "POST /api/account/password":           { "-": signedIn(400) },
  "POST /api/account/email":              { "-": signedIn(400) },
  "POST /api/account/email/confirm":      { "-": everyone(400) },
  "GET /api/account/sessions":            { "-": signedIn(200) },
  // Two-step sign-in of one's own account (ADR 098).
  "GET /api/account/two-factor":              { "-": signedIn(200) },
  "POST /api/account/two-factor/setup":       { "-": signedIn(400) },
  "POST /api/account/two-factor/confirm":     { "-": signedIn(400) },
  "POST /api/account/two-factor/backup-codes": { "-": signedIn(400) },
  "POST /api/account/two-factor/disable":     { "-": signedIn(400) },
  "DELETE /api/account/two-factor/remembered-devices": { "-": signedIn(200) },
  "DELETE /api/account/sessions":         { "-": signedIn(200) },
  "DELETE /api/account/sessions/{id}":    { "session:patientA": [401, 200, 404, 404, 404, 404, 404] },
  // 'Télécharger mes données': each person their own archive (the admin: profile, sessions, events).
  "GET /api/account/export":              { "-": signedIn(200) },
  "POST /api/account/delete":             { "-": signedIn(400) },
  // Better Auth behind /api/auth/*: only its harmless endpoints answer.
  "GET /api/auth/*": {
    "auth:get-session":            everyone(404),
    "auth:list-sessions":          everyone(404),
    "auth:ok":                     everyone(404),
  },
  "POST /api/auth/*": {
    "auth:sign-out":               everyone(200),
    "auth:revoke-other-sessions":  signedIn(200),
    "auth:revoke-session":         everyone(404),
    "auth:sign-in/email":          everyone(404),
    "auth:sign-up/email":          everyone(404),
    "auth:update-user":            everyone(404),
    "auth:change-password":        everyone(404),
  },
  // The WebSocket: 101 is the upgrade.
  "GET /api/realtime":                    { "-": signedIn(101) },

  // Profiles. Verified dentists were verified and the unverified one has already asked: 409.
  "GET /api/me":                          { "-": signedIn(200) },
  "PATCH /api/me":                        { "-": signedIn(400) },
  "PATCH /api/me/email-preferences":      { "-": signedIn(400) },
  "POST /api/me/verification-request":    { "-": dentists(409) },
  "POST /api/me/avatar":                  { "-": signedIn(400) },
  // Avatars are public images (ADR 005).
  "GET /api/avatars/{userId}/{file}":     { "avatar:patientA": everyone(200), "avatar:chosen": everyone(200) },
  "POST /api/contact":                    { "-": everyone(400) },

  // The patient area: own requests only (another patient's: 404).
  "GET /api/patient/dashboard":           { "-": patients(L.dashboardOfA, L.requestsOfB) },
  "GET /api/patient/requests":            { "-": patients(L.requestsOfA, L.requestsOfB) },
  "POST /api/patient/requests":           { "-": patients(400) },
  "GET /api/dentists/verified":           { "-": patients(L.verifiedDentists) },
  //                                                              anonymous patientA patientB chosen notChosen unverified admin
  "GET /api/patient/requests/{id}": {
    "req:openA":       patients(200, 404),
    "req:finishedA":   patients(200, 404),
    "req:cancelledA":  patients(200, 404),
    "req:namedA":      patients(200, 404),
    "req:openB":       patients(404, 200),
  },
  "POST /api/patient/requests/{id}/cancel": {
    "req:openA":       patients(200, 404),
    "req:finishedA":   patients(409, 404),
    "req:cancelledA":  patients(409, 404),
    "req:namedA":      patients(200, 404),
    "req:openB":       patients(404, 200),
  },
  "POST /api/patient/requests/{id}/consent/withdraw": {
    "req:openA":       patients(200, 404),
    "req:finishedA":   patients(409, 404),
    "req:cancelledA":  patients(409, 404),
    "req:namedA":      patients(200, 404),
    "req:openB":       patients(404, 200),
  },
  // Sending a request addressed to one dentist to all (ADR 073). No body here: 400 to the owner,
  // 404 to anyone else's request before the body is looked at.
  "POST /api/patient/requests/{id}/open-to-all": {
    "req:openA":       patients(400, 404),
    "req:finishedA":   patients(400, 404),
    "req:cancelledA":  patients(400, 404),
    "req:namedA":      patients(400, 404),
    "req:openB":       patients(404, 400),
  },
  "DELETE /api/patient/requests/{id}": {
    "req:openA":       patients(200, 404),
    "req:finishedA":   patients(409, 404),
    "req:cancelledA":  patients(200, 404),
    "req:namedA":      patients(200, 404),
    "req:openB":       patients(404, 200),
  },
  "PUT /api/patient/requests/{id}/quote": {
    "req:openA":       patients(400, 404),
    "req:finishedA":   patients(400, 404),
    "req:cancelledA":  patients(400, 404),
    "req:namedA":      patients(400, 404),
    "req:openB":       patients(404, 400),
  },
  "GET /api/patient/requests/{id}/access-log": {
    "req:openA":       patients(200, 404),
    "req:finishedA":   patients(200, 404),
    "req:cancelledA":  patients(200, 404),
    "req:namedA":      patients(200, 404),
    "req:openB":       patients(404, 200),
  },
  "GET /api/patient/requests/{id}/comparison": {
    "req:openA":       patients(200, 404),
    "req:finishedA":   patients(200, 404),
    "req:cancelledA":  patients(200, 404),
    "req:namedA":      patients(200, 404),
    "req:openB":       patients(404, 200),
  },
  // Reading the uploaded devis (issue 17): the patient's own requests only. Two or three path
  // parameters: "a+b" fills them in order. A's open request has a finished reading (page 1 read);
  // B's is still queued (409 on a second reading).
  "GET /api/patient/requests/{id}/reading": {
    "req:openA":       patients(200, 404),
    "req:finishedA":   patients(200, 404),
    "req:cancelledA":  patients(200, 404),
    "req:namedA":      patients(200, 404),
    "req:openB":       patients(404, 200),
  },
  "POST /api/patient/requests/{id}/documents/{documentId}/read": {
    "req:openA+doc:openA":          patients(202, 404),
    "req:finishedA+doc:finishedA":  patients(409, 404),
    "req:openA+doc:openB":          patients(400, 404),
    "req:openB+doc:openB":          patients(404, 409),
  },
  // Issue 34: a document's type corrected by the request's patient. No body here: 400 to the owner,
  // 404 to anyone else's request before the body is looked at.
  "PATCH /api/patient/requests/{id}/documents/{documentId}": {
    "req:openA+doc:openA":          patients(400, 404),
    "req:finishedA+doc:finishedA":  patients(400, 404),
    "req:openB+doc:openB":          patients(404, 400),
  },
  "POST /api/patient/requests/{id}/reading/{readingId}/dismiss": {
    "req:openA+reading:openA":      patients(200, 404),
    "req:openB+reading:openB":      patients(404, 200),
    "req:openA+reading:openB":      patients(404, 404),
  },
  "GET /api/patient/requests/{id}/reading/{readingId}/pages/{page}": {
    "req:openA+reading:openA+page:1":  patients(200, 404),
    "req:openA+reading:openA+page:2":  patients(404, 404),
    "req:openB+reading:openA+page:1":  patients(404, 404),
  },
  "GET /api/patient/cover":          { "-": patients(200) },
  "PUT /api/patient/cover":          { "-": patients(400) },
  "DELETE /api/patient/cover":       { "-": patients(200) },
  "POST /api/patient/offers/{id}/accept": {
    "offer:chosenOnOpenA":        patients(200, 404),
    "offer:otherOnOpenA":         patients(200, 404),
    "offer:acceptedOnFinishedA":  patients(409, 404),
    "offer:closedOnFinishedA":    patients(409, 404),
    "offer:chosenOnOpenB":        patients(404, 200),
  },
  "POST /api/patient/offers/{id}/unaccept": {
    "offer:acceptedOnFinishedA":  patients(200, 404),
    "offer:chosenOnOpenA":        patients(409, 404),
    "offer:chosenOnOpenB":        patients(404, 409),
  },
  "POST /api/patient/offers/{id}/appointment": {
    "offer:acceptedOnFinishedA":  patients(400, 404),
    "offer:chosenOnOpenA":        patients(400, 404),
    "offer:chosenOnOpenB":        patients(404, 400),
  },

  // Documents (a signed-in route): whoever may read the request, its patient and the admins.
  //                                  anonymous patientA patientB chosen notChosen unverified admin trial lapsed
  "GET /api/documents/{id}/file": {
    "doc:openA":                     [401,      200,     404,     200,   200,      404,       200,  200,  404],
    "doc:finishedA":                 [401,      200,     404,     200,   404,      404,       200,  404,  404],
    "doc:namedA":                    [401,      200,     404,     200,   404,      404,       200,  404,  404],
    "doc:cancelledA":                [401,      200,     404,     404,   404,      404,       200,  404,  404],
    "doc:openB":                     [401,      404,     200,     200,   200,      404,       200,  200,  404],
  },

  // The dentist area. Lists: the unverified dentist gets an empty one (the product's choice).
  "GET /api/dentist/dashboard":       { "-": dentists(L.chosenRequests, L.otherRequests, L.noRequest) },
  "GET /api/dentist/requests":        { "-": dentists(L.chosenRequests, L.otherRequests, L.noRequest) },
  "GET /api/dentist/todo-count":      { "-": dentists(200) },
  "GET /api/dentist/offers":          { "-": dentists(L.chosenOffers, L.otherOffers, L.noOffer, L.noOffer) },
  "GET /api/dentist/requests/{id}":                 dentistsOnRequest(200),
  "GET /api/dentist/requests/{id}/documents.zip":   dentistsOnRequest(200),
  "GET /api/dentist/requests/{id}/offer":           dentistsOnRequest(200),
  "POST /api/dentist/requests/{id}/assign":         dentistsOnRequest(200),
  // Set aside (ADR 091): only a request he has not answered (both answered A's open request, the
  // chosen one B's too and his accepted ones: 409), not sent to him by name (409); the trial dentist
  // has answered none.
  "POST /api/dentist/requests/{id}/set-aside": {
    "req:openA":      dentists(409, 409, 404, 200),
    "req:finishedA":  dentists(409, 404, 404),
    "req:namedA":     dentists(409, 404, 404),
    "req:cancelledA": dentists(404, 404, 404),
    "req:openB":      dentists(409, 200, 404, 200),
  },
  "DELETE /api/dentist/requests/{id}/set-aside":    dentistsOnRequest(200),
  // Several at once (ADR 091's addendum): the invalid body is refused once past the guard.
  "POST /api/dentist/requests/set-aside":           { "-": dentists(400) },
  "POST /api/dentist/requests/{id}/reply":          dentistsOnRequest(400),
  "POST /api/dentist/requests/{id}/offers":         dentistsOnRequest(400),
  // Sourio's invoices to dentists (issue 35): a dentist's own only (another's: 404).
  "GET /api/dentist/billing-profile":  { "-": dentists(200) },
  "PUT /api/dentist/billing-profile":  { "-": dentists(400) },
  "GET /api/dentist/invoices":         { "-": dentists(L.chosenInvoices, L.otherInvoices, L.noInvoice, L.noInvoice) },
  "GET /api/dentist/invoices/{id}/pdf": {
    "invoice:chosen":                 dentists(200, 404, 404),
    "invoice:notChosen":              dentists(404, 200, 404, 404),
  },
  "POST /api/dentist/offers/{id}/withdraw": {
    "offer:chosenOnOpenA":        dentists(200, 404, 404),
    "offer:otherOnOpenA":         dentists(404, 200, 404, 404),
    "offer:acceptedOnFinishedA":  dentists(409, 404, 404),
    "offer:closedOnFinishedA":    dentists(404, 409, 404, 404),
  },

  // Appointments: their patient and their dentist; nobody else (the admin is no party: 404).
  //                                  anonymous patientA              patientB            chosen                notChosen           unverified          admin
  "GET /api/appointments": {
    "-":                             [401,      L.withAppointment,    L.noAppointment,    L.withAppointment,    L.noAppointment,    L.noAppointment,    L.noAppointment],
    "?request=req:finishedA":        [401,      L.withAppointment,    L.noAppointment,    L.withAppointment,    L.noAppointment,    L.noAppointment,    L.noAppointment],
  },
  //                                  anonymous patientA patientB chosen notChosen unverified admin
  "POST /api/appointments/{id}/confirm":     { "appt:A": [401, 400, 404, 400, 404, 404, 404] },
  "POST /api/appointments/{id}/propose":     { "appt:A": [401, 400, 404, 400, 404, 404, 404] },
  "POST /api/appointments/{id}/cancel":      { "appt:A": [401, 200, 404, 200, 404, 404, 404] },
  "GET /api/appointments/{id}/calendar.ics": { "appt:A": [401, 200, 404, 200, 404, 404, 404] },

  // Conversations: their two parties only. The not-chosen dentist keeps his own.
  //                                  anonymous patientA              patientB            chosen                  notChosen              unverified          admin
  "GET /api/conversations": {
    "-":                             [401,      L.conversationsOfA,   L.conversationsOfB, L.chosenConversations,  L.otherConversations,  L.noConversation,   L.noConversation],
  },
  //                                  anonymous patientA patientB chosen notChosen unverified admin
  "GET /api/conversations/{id}/messages": {
    "conv:chosenOpenA":              [401,      200,     404,     200,   404,      404,       404],
    "conv:otherOpenA":               [401,      200,     404,     404,   200,      404,       404],
    "conv:chosenFinishedA":          [401,      200,     404,     200,   404,      404,       404],
    "conv:otherFinishedA":           [401,      200,     404,     404,   200,      404,       404],
    "conv:chosenOpenB":              [401,      404,     200,     200,   404,      404,       404],
  },
  "POST /api/conversations/{id}/messages": {
    "conv:chosenOpenA":              [401,      400,     404,     400,   404,      404,       404],
    "conv:otherOpenA":               [401,      400,     404,     404,   400,      404,       404],
    "conv:chosenFinishedA":          [401,      400,     404,     400,   404,      404,       404],
    "conv:otherFinishedA":           [401,      400,     404,     404,   400,      404,       404],
    "conv:chosenOpenB":              [401,      404,     400,     400,   404,      404,       404],
  },
  "POST /api/conversations/{id}/read": {
    "conv:chosenOpenA":              [401,      200,     404,     200,   404,      404,       404],
    "conv:otherFinishedA":           [401,      200,     404,     404,   200,      404,       404],
    "conv:chosenOpenB":              [401,      404,     200,     200,   404,      404,       404],
  },
  "GET /api/conversations/attachments/{id}": {
    "att:fromAToOther":              [401,      200,     404,     404,   200,      404,       404],
    "att:fromChosenToA":             [401,      200,     404,     200,   404,      404,       404],
    "att:fromBToChosen":             [401,      404,     200,     200,   404,      404,       404],
  },

  // Support: each patient's and dentist's own thread (issue 16); its images also to the admins.
  "GET /api/support/messages":            { "-": [401, L.supportOfA, L.supportOfB, L.noSupport, L.noSupport, L.noSupport, 403] },
  "POST /api/support/messages":           { "-": [401, 400, 400, 400, 400, 400, 403] },
  "POST /api/support/read":               { "-": [401, 200, 200, 200, 200, 200, 403] },
  "GET /api/support/access":              { "-": [401, 200, 200, 200, 200, 200, 403] },
  "GET /api/support/unread":              { "-": [401, 200, 200, 200, 200, 200, 403] },
  "GET /api/support/messages/{id}/image": { "support:imageA": [401, 200, 404, 404, 404, 404, 200] },

  // The admin area: the admin only.
  "GET /api/admin/stats":                                   { "-": admins(200) },
  "GET /api/admin/retention":                               { "-": admins(200) },
  "GET /api/admin/users":                                   { "?role=patient": admins(list(["person:patientA", "person:patientB"], ["person:admin"])),
                                                              "?role=dentist": admins(list(["person:chosen", "person:unverified"])) },
  "GET /api/admin/verification-requests":                   { "-": admins(list(["person:unverified"])) },
  "POST /api/admin/dentists/{id}/verification":             { "person:unverified": admins(400) },
  "POST /api/admin/users/{id}/erase":                       { "person:new": admins(200) },
  // Suspension (ADR 092): the body (an array) refused once the admin is known; lifting one that
  // is not suspended changes nothing.
  "POST /api/admin/users/{id}/suspension":                  { "person:patientA": admins(400) },
  "DELETE /api/admin/users/{id}/suspension":                { "person:patientA": admins(200) },
  // Its end changed (the addendum of 06/12): the body refused as the suspension's.
  "PATCH /api/admin/users/{id}/suspension":                 { "person:patientA": admins(400) },
  // Two-step sign-in removed by the team (ADR 098): patientA has none, nothing changes.
  "DELETE /api/admin/users/{id}/two-factor":                { "person:patientA": admins(409) },
  "GET /api/admin/contact":                                 { "-": admins(list(["contact:withFile"])) },
  "POST /api/admin/contact/{id}/handled":                   { "contact:withFile": admins(200) },
  "DELETE /api/admin/contact/{id}/handled":                 { "contact:withFile": admins(200) },
  "GET /api/admin/contact/{id}/file":                       { "contact:withFile": admins(200) },
  "GET /api/admin/audit":                                   { "-": admins(200) },
  "GET /api/admin/support/threads":                         { "-": admins(list(["person:patientA", "person:patientB"])),
                                                              "?role=dentist": admins(list([], ["person:patientA", "person:patientB"])),
                                                              "?unread=1": admins(list(["person:patientB"])) },
  // Sourio's invoices (issue 35): each dentist's own; the admin sees every dentist's and the register.
  "GET /api/admin/dentists/{id}/invoices":                  { "person:chosen": admins(L.chosenInvoices),
                                                              "person:patientA": admins(404) },
  "GET /api/admin/invoices/{id}/pdf":                       { "invoice:chosen": admins(200) },
  "GET /api/admin/invoices/register.csv":                   { "-": admins(200) },
  "GET /api/admin/support/threads/{patientId}/messages":    { "person:patientA": admins(list(["support:imageA"], ["support:textB"])) },
  "POST /api/admin/support/threads/{patientId}/read":       { "person:patientA": admins(200) },
  "POST /api/admin/support/threads/{patientId}/messages":   { "person:patientA": admins(400) },
  // Subscriptions (issue 35). The world's verified dentists are in trial (no provider subscription:
  // portal, cancel and reactivate 409), the lapsed one's ended; the unverified one has none (403).
  "GET /api/dentist/subscription":             { "-": dentists(200) },
  "POST /api/dentist/subscription/checkout":   { "-": dentists(400) },
  "POST /api/dentist/subscription/portal":     { "-": dentists(409, 409, 403, 409, 409) },
  "POST /api/dentist/subscription/cancel":     { "-": dentists(409, 409, 403, 409, 409) },
  "POST /api/dentist/subscription/reactivate": { "-": dentists(409, 409, 403, 409, 409) },
  // A change of plan (ADR 096): the body refused first; none planned to drop.
  "POST /api/dentist/subscription/plan":        { "-": dentists(400) },
  "DELETE /api/dentist/subscription/plan":      { "-": dentists(409, 409, 403, 409, 409) },
  "GET /api/admin/subscriptions":              { "-": admins(list(["person:chosen", "person:trial", "person:lapsed"], ["person:unverified"])) },
  // The payment provider's webhook: public, its signature is the proof (none here: 400).
  "POST /api/billing/webhook":                 { "-": everyone(400) },

  // Reviews (issue 36): the author (A wrote review:A of the chosen dentist, published), the dentist
  // it is about, the team; patients read a verified dentist's published reviews.
  //                                  anonymous patientA patientB chosen notChosen unverified admin
  "GET /api/patient/reviews":                 { "-": patients(list(["review:A"]), list([], ["review:A"])) },
  "POST /api/patient/appointments/{id}/review": { "appt:A": patients(400, 404) },
  "PUT /api/patient/reviews/{id}":            { "review:A": patients(400, 404) },
  "DELETE /api/patient/reviews/{id}":         { "review:A": patients(200, 404) },
  "GET /api/dentists/{id}/reviews":           { "person:chosen": patients(list(["review:A"])),
                                                "person:unverified": patients(404),
                                                "person:patientA": patients(404) },
  "GET /api/dentist/reviews":                 { "-": dentists(list(["review:A"]), list([], ["review:A"]), list([], ["review:A"])) },
  "POST /api/dentist/reviews/{id}/answer":    { "review:A": dentists(400, 404, 404) },
  "POST /api/dentist/reviews/{id}/report":    { "review:A": dentists(400, 404, 404) },
  "GET /api/admin/reviews":                   { "?status=published": admins(list(["review:A"])) },
  "POST /api/admin/reviews/{id}/decision":    { "review:A": admins(400) },
};

// ─── How each call is made ───────────────────────────────────────────────────────────────────────

/** Routes whose body is a multipart form (OpenAPI has no body schema for them). */
const MULTIPART = new Set([
  "POST /api/me/avatar",
  "POST /api/contact",
  "POST /api/patient/requests",
  "POST /api/conversations/{id}/messages",
  "POST /api/support/messages",
]);

/** Body-less changes: each caller expected to succeed gets its own fresh object (or session). */
const FRESH = new Set([
  "POST /api/account/logout",
  "POST /api/auth/*",
  "DELETE /api/account/sessions/{id}",
  "POST /api/patient/requests/{id}/cancel",
  "POST /api/patient/requests/{id}/consent/withdraw",
  "DELETE /api/patient/requests/{id}",
  "POST /api/dentist/requests/{id}/assign",
  "POST /api/dentist/offers/{id}/withdraw",
  "POST /api/patient/offers/{id}/accept",
  "POST /api/patient/offers/{id}/unaccept",
  "POST /api/appointments/{id}/cancel",
  "POST /api/admin/users/{id}/erase",
  "DELETE /api/patient/reviews/{id}",
]);

/** Routes the OpenAPI document hides on purpose, and the swagger UI's own files. */
const HIDDEN = new Set([
  "GET /api/openapi.json",
  "GET /api/docs",
  "GET /api/docs/",
  "GET /api/docs/json",
  "GET /api/docs/yaml",
  "GET /api/docs/static/index.html",
  "GET /api/docs/static/swagger-initializer.js",
  "GET /api/docs/static/*",
  "GET /robots.txt",
  "GET /sitemap.xml",
  "GET /favicon.ico",
  "GET /metrics",
  "POST /internal/backup",
  "GET /api/auth/*",
  "POST /api/auth/*",
  "GET /api/realtime",
]);

interface Cell {
  route: string;
  object: string;
  actor: ActorName;
  expected: Expect;
  phase: 1 | 2 | 3;
}

const statusOf = (e: Expect) => (typeof e === "number" ? e : e.status);
const methodOf = (route: string) => route.split(" ")[0] as string;
const pathOf = (route: string) => route.split(" ")[1] as string;

function cells(): Cell[] {
  const all: Cell[] = [];
  for (const [route, rows] of Object.entries(TABLE))
    for (const [object, row] of Object.entries(rows))
      ACTORS.forEach((actor, i) => {
        const method = methodOf(route);
        const phase = method === "GET" ? 1 : FRESH.has(route) ? 3 : 2;
        all.push({ route, object, actor, expected: (row[i] ?? row[5]) as Expect, phase });
      });
  return all.sort((a, b) => a.phase - b.phase);
}
const CELLS = cells();

let world: World;
let reviews: WorldReviews;
let openapi: { paths: Record<string, Record<string, unknown>> };
/** Fresh objects shared by the callers of a row who are expected to be refused. */
const sharedFresh = new Map<string, Promise<{ id: string; cookie?: string }>>();

/** The reading queued at the upload of each request of the world (its devis), by request name. */
const readings: Record<string, string> = {};
/** An invoice issued to each verified dentist (issue 35). */
const invoices: Record<string, string> = {};

beforeAll(async () => {
  world = await createWorld();
  reviews = await addReviews(world);
  openapi = (await world.call("anonymous", { method: "GET", url: "/api/openapi.json" })).json();
  const db = world.ctx.app.db;
  for (const [name, requestId] of Object.entries(world.requests)) {
    const row = await db
      .selectFrom("quote_readings")
      .select("id")
      .where("request_id", "=", requestId)
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    readings[name] = row.id;
  }
  // A's open request: read (one page), as the runner leaves it.
  const result = {
    lines: [],
    total_cents: null,
    lines_total_cents: 0,
    total_matches: null,
    patient_name: null,
    practitioner_name: null,
    practitioner_number: null,
    confidence: 0,
  };
  await db
    .updateTable("quote_readings")
    .set({
      status: "done",
      kind: "text_pdf",
      pages: 1,
      result: JSON.stringify(result),
      finished_at: new Date(),
    })
    .where("id", "=", readings.openA as string)
    .execute();
  for (const dentist of ["chosen", "notChosen"] as const) {
    const invoice = await db.transaction().execute((trx) =>
      issueInvoice(
        trx,
        {
          dentistId: world.people[dentist].id,
          paymentRef: `matrix_${dentist}`,
          planLabel: "Abonnement Sourio Cabinet — mensuel",
          periodStart: "2026-11-01",
          periodEnd: "2026-11-30",
          amountHtCents: 8900,
          issuedAt: new Date("2026-11-01T08:00:00Z"),
        },
        { seller: world.ctx.app.config.invoiceSeller },
      ),
    );
    invoices[dentist] = invoice.id;
  }
}, 180_000);
afterAll(async () => world?.ctx.close());

/** The id (or path fragment) an object handle stands for in the world. */
function resolve(handle: Handle): string {
  const [kind, name = ""] = handle.split(/:(.*)/s) as [string, string?];
  const w = world as unknown as Record<string, Record<string, string>>;
  const table: Record<string, Record<string, string> | undefined> = {
    req: w.requests,
    doc: w.documents,
    offer: w.offers,
    conv: w.conversations,
    att: w.attachments,
    support: w.support,
    contact: w.contact,
    avatar: w.avatars,
    appt: { A: world.appointmentA },
    review: { A: reviews.A },
    reading: readings,
    invoice: invoices,
    page: { [name]: name },
    person: Object.fromEntries(Object.entries(world.people).map(([k, p]) => [k, p.id])),
    auth: { [name]: name },
    static: { [name]: name },
  };
  const id = table[kind]?.[name];
  if (!id) throw new Error(`objet inconnu : ${handle}`);
  return id;
}

/** A fresh object of the same kind as the handle (or a fresh session of the caller). */
async function freshObject(cell: Cell): Promise<{ id: string; cookie?: string }> {
  const { object, actor, route } = cell;
  const f = world.fresh;
  const people = world.people;
  // Routes about the caller's own session: a new one, so the world's cookie stays signed in.
  if (route === "POST /api/account/logout" || object === "auth:sign-out") {
    if (actor === "anonymous") return { id: object === "-" ? "" : "sign-out" };
    const { cookie } = await f.session(actor);
    return { id: object === "-" ? "" : "sign-out", cookie };
  }
  if (object.startsWith("auth:")) return { id: resolve(object) };
  if (object.startsWith("session:"))
    return { id: (await f.session(object.slice(8) as PersonName)).sessionId };
  switch (object) {
    case "req:openA":
      return { id: (await f.openRequest("patientA")).requestId };
    case "req:namedA":
      return { id: (await f.openRequest("patientA", people.chosen.id)).requestId };
    case "req:openB":
      return { id: (await f.openRequest("patientB")).requestId };
    case "req:finishedA":
      return { id: (await f.finished()).requestId };
    case "req:cancelledA":
      return { id: (await f.cancelled()).requestId };
    case "offer:chosenOnOpenA":
      return { id: (await f.openWithOffers()).chosenOffer };
    case "offer:otherOnOpenA":
      return { id: (await f.openWithOffers()).otherOffer };
    case "offer:acceptedOnFinishedA":
      return { id: (await f.finished()).acceptedOffer };
    case "offer:closedOnFinishedA":
      return { id: (await f.finished()).closedOffer };
    case "offer:chosenOnOpenB":
      return { id: await f.offer("chosen", (await f.openRequest("patientB")).requestId) };
    case "appt:A":
      return { id: (await f.appointment()).appointmentId };
    case "review:A":
      return { id: await reviews.fresh() };
    case "person:new":
      return { id: (await f.patient()).id };
    default:
      throw new Error(`pas de fabrique pour ${object}`);
  }
}

/** The request a cell sends: URL with its object, a body that cannot be valid where there is one. */
async function requestFor(cell: Cell): Promise<{ options: InjectOptions; cookie?: string }> {
  const { route, object } = cell;
  const method = methodOf(route);
  let target: { id: string; cookie?: string } = { id: "" };
  if (FRESH.has(route)) {
    if (statusOf(cell.expected) < 300) target = await freshObject(cell);
    else {
      const key = `${route} ${object}`;
      if (!sharedFresh.has(key)) sharedFresh.set(key, freshObject({ ...cell, actor: "anonymous" }));
      target = await (sharedFresh.get(key) as Promise<{ id: string }>);
    }
  } else if (object.includes("+")) target = { id: object.split("+").map(resolve).join("+") };
  else if (object !== "-" && !object.startsWith("?")) target = { id: resolve(object) };

  let url = pathOf(route);
  if (object.includes("+")) for (const id of target.id.split("+")) url = url.replace(/\{[^}]+\}/, id);
  else if (object.startsWith("avatar:")) url = target.id;
  else if (url.endsWith("*")) url = url.slice(0, -1) + target.id;
  else url = url.replace(/\{[^}]+\}/, target.id);
  if (object.startsWith("?")) {
    const [name, value] = object.slice(1).split("=") as [string, string];
    url += `?${name}=${value.includes(":") ? resolve(value) : value}`;
  }

  const options: InjectOptions = { method: method as InjectOptions["method"], url };
  const operation = openapi.paths[pathOf(route)]?.[method.toLowerCase()] as
    | { requestBody?: { content?: Record<string, unknown> } }
    | undefined;
  if (MULTIPART.has(route)) {
    const body = multipart({});
    options.payload = body.payload;
    options.headers = body.headers;
  } else if (operation?.requestBody?.content?.["application/json"] || route === "POST /api/auth/*") {
    // No JSON body schema of the API accepts an array.
    options.payload = object === "auth:sign-out" || object === "auth:revoke-other-sessions" ? {} : [];
  }
  return { options, ...(target.cookie ? { cookie: target.cookie } : {}) };
}

let listening: Promise<string> | undefined;
/** The status of a WebSocket upgrade, as a browser opens it: 101 when it opens, else the refusal's. */
async function upgrade(actor: ActorName): Promise<{ status: number; body: string }> {
  listening ??= world.ctx.app
    .listen({ port: 0, host: "127.0.0.1" })
    .then(() => `http://127.0.0.1:${(world.ctx.app.server.address() as AddressInfo).port}`);
  try {
    const { ws } = await openSocket(await listening, world.cookieOf(actor));
    ws.terminate();
    return { status: 101, body: "" };
  } catch (error) {
    return { status: Number(/HTTP (\d{3})/.exec(String(error))?.[1] ?? 0), body: String(error) };
  }
}

const patientSecrets = () =>
  (["patientA", "patientB"] as const).flatMap((p) =>
    [world.people[p].email, world.people[p].phone].filter((s): s is string => Boolean(s)),
  );

describe("role × route matrix", () => {
  it(`covers every route of the OpenAPI document (${CELLS.length} cells)`, () => {
    const documented = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const undecided = documented.filter((route) => !TABLE[route]);
    expect(undecided.map((route) => `décidez qui peut appeler ${route}`)).toEqual([]);
    console.info(
      `matrice : ${Object.keys(TABLE).length} routes, ${ACTORS.length} acteurs, ${CELLS.length} cellules`,
    );
  });

  it("covers every registered route, hidden ones included, and lists no route that is gone", () => {
    const registered = registeredRoutes(world.ctx.app.printRoutes());
    const documented = new Set(
      Object.entries(openapi.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const undecided = registered.filter((route) => !TABLE[route]);
    expect(undecided.map((route) => `décidez qui peut appeler ${route}`)).toEqual([]);
    const gone = Object.keys(TABLE).filter((route) =>
      HIDDEN.has(route) ? !registered.includes(route) : !documented.has(route),
    );
    expect(gone.map((route) => `${route} n'existe plus (ou n'est plus dans l'OpenAPI)`)).toEqual([]);
    const notHidden = [...HIDDEN].filter((route) => documented.has(route));
    expect(notHidden.map((route) => `${route} est documentée : retirez-la de HIDDEN`)).toEqual([]);
  });

  it("builds a world whose admin is neither patient nor dentist", () => {
    expect(world.adminHasNoRole, "profiles.role ne peut pas être null").toBe(true);
  });

  describe.each([
    [1, "reads"],
    [2, "writes with a body that cannot be valid"],
    [3, "body-less writes on fresh objects"],
  ] as const)("%i. %s", (phase, _title) => {
    const ofPhase = CELLS.filter((c) => c.phase === phase);
    it.each(
      ofPhase.map((c) => [`${c.route} · ${c.object} · ${c.actor} → ${statusOf(c.expected)}`, c] as const),
    )("%s", async (_name, cell) => {
      const expected = statusOf(cell.expected);
      let status: number;
      let body: string;
      let response: LightMyRequestResponse | undefined;
      if (cell.route === "GET /api/realtime") ({ status, body } = await upgrade(cell.actor));
      else {
        const { options, cookie } = await requestFor(cell);
        response = await world.call(cell.actor, options, cookie);
        status = response.statusCode;
        body = response.body;
      }
      // A preview or reading that failed: why its process ended (a crash, a signal), from the app's log.
      const stops = status === expected ? [] : world.readingStops();
      expect
        .soft(
          status,
          `${cell.route} (${cell.object}) en tant que ${cell.actor} : ${body.slice(0, 300)}${stops.length > 0 ? `\n${stops.join("\n")}` : ""}`,
        )
        .toBe(expected);

      // One error shape under /api.
      if (response && status >= 400 && status < 500 && pathOf(cell.route).startsWith("/api/")) {
        let parsed: unknown;
        try {
          parsed = response.json();
        } catch {
          parsed = body;
        }
        expect
          .soft(parsed, `forme de l'erreur de ${cell.route} en tant que ${cell.actor}`)
          .toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      }

      // A dentist never receives a patient's e-mail address or phone number.
      if ((DENTISTS as readonly string[]).includes(cell.actor))
        for (const secret of patientSecrets())
          expect.soft(body.includes(secret), `${cell.route} donne « ${secret} » à ${cell.actor}`).toBe(false);

      // Lists: what they must show and must not.
      if (typeof cell.expected === "object" && status === expected) {
        for (const handle of cell.expected.shows ?? [])
          expect
            .soft(body.includes(resolve(handle)), `${cell.route} montre ${handle} à ${cell.actor}`)
            .toBe(true);
        for (const handle of cell.expected.hides ?? [])
          expect
            .soft(body.includes(resolve(handle)), `${cell.route} cache ${handle} à ${cell.actor}`)
            .toBe(false);
      }
    });
  });
});

/**
 * The routes Fastify has registered (from printRoutes' radix tree: a route's path is the
 * concatenation of its nodes), as "METHOD /path/{param}"; HEAD and OPTIONS are left out.
 */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split("\n")) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 4));
    if (!match) continue;
    stack.length = depth;
    stack.push(match[1] ?? "");
    const path = stack.join("").replace(/:(\w+)/g, "{$1}");
    for (const method of (match[2] ?? "").split(", ").filter(Boolean))
      if (method !== "HEAD" && method !== "OPTIONS") routes.push(`${method} ${path}`);
  }
  return [...new Set(routes)];
}
