import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { startTrial } from "../../shared/domain/subscription";
import { rppsWithKey } from "../../shared/policies/verification";
import { columnsOfState, startTrialOnVerification } from "../access/subscription";
import { ensureAdmin } from "../bootstrap";
import { multipart, tinyPdf, tinyPng } from "./files";
import {
  createTestContext,
  sessionCookie,
  signUpDentist,
  signUpPatient,
  type TestContext,
  uniqueEmail,
} from "./harness";

/**
 * A small, complete world for the role × route matrix and the bad-input tests (issue 13), built
 * through the public API; the database is written directly only where the product has no API
 * (verifying a dentist, making an administrator who is neither patient nor dentist).
 *
 * Who is who:
 * - patientA: Alice, with a phone number; owns the open, finished, cancelled and "named" requests.
 * - patientB: Bruno, with one open request.
 * - chosen: Dr Claire Leroy, verified; her offer on A's finished request was accepted (confirmed
 *   appointment); she also offered on A's and B's open requests; A's "named" request is hers alone.
 * - notChosen: Dr Nicolas Martin, verified; offered on A's finished request (his offer got closed)
 *   and on A's open request; he has conversations with A.
 * - unverified: Dr Ulysse Bernard, profile complete, verification asked for, not verified.
 * - trial: Dr Théo Petit, verified, in his 30-day trial (issue 35); he has nothing of his own yet.
 * - lapsed: Dr Laure Simon, verified, whose subscription ended (issue 35): no new requests, no
 *   offers; nothing of her own either (what a lapsed dentist keeps is shown in billing.test.ts).
 * Every verified dentist's trial starts with the world, as the admins' verification starts it.
 * - admin: is_admin, and no patient or dentist role (role null when the schema allows it).
 */

/** Saturday 21 November 2026, 10:00 in Paris: the world's fixed clock. */
export const WORLD_NOW = new Date("2026-11-21T09:00:00Z");

export const ACTORS = [
  "anonymous",
  "patientA",
  "patientB",
  "chosen",
  "notChosen",
  "unverified",
  "admin",
  "trial",
  "lapsed",
] as const;
export type ActorName = (typeof ACTORS)[number];
export type PersonName = Exclude<ActorName, "anonymous">;
export const DENTISTS: readonly PersonName[] = ["chosen", "notChosen", "unverified", "trial", "lapsed"];

export interface Person {
  id: string;
  email: string;
  password: string;
  cookie: string;
  phone: string | null;
}

export interface OpenWithOffers {
  requestId: string;
  documentId: string;
  chosenOffer: string;
  otherOffer: string;
  chosenConversation: string;
  otherConversation: string;
}

export interface Finished extends OpenWithOffers {
  /** The chosen dentist's offer, accepted. */
  acceptedOffer: string;
  /** The other dentist's offer, closed by the acceptance. */
  closedOffer: string;
}

export interface World {
  ctx: TestContext;
  people: Record<PersonName, Person>;
  /** Whether the admin's profile could be given no role (false: it kept 'patient'). */
  adminHasNoRole: boolean;
  requests: { openA: string; finishedA: string; cancelledA: string; namedA: string; openB: string };
  documents: { openA: string; finishedA: string; cancelledA: string; namedA: string; openB: string };
  offers: {
    /** Sent offers on A's open request. */
    chosenOnOpenA: string;
    otherOnOpenA: string;
    /** A's finished request: the chosen dentist's accepted offer, the other's closed one. */
    acceptedOnFinishedA: string;
    closedOnFinishedA: string;
    chosenOnOpenB: string;
  };
  conversations: {
    chosenOpenA: string;
    otherOpenA: string;
    chosenFinishedA: string;
    otherFinishedA: string;
    chosenOpenB: string;
  };
  attachments: {
    /** Sent by A to the not-chosen dentist (A's open request). */
    fromAToOther: string;
    /** Sent by the chosen dentist to A (A's open request). */
    fromChosenToA: string;
    /** Sent by B to the chosen dentist (B's open request). */
    fromBToChosen: string;
  };
  /** A's confirmed appointment with the chosen dentist (finished request). */
  appointmentA: string;
  /** A's support message with an image; B's text-only one. */
  support: { imageA: string; textB: string };
  contact: { withFile: string };
  /** Public avatar URLs. */
  avatars: { patientA: string; chosen: string };

  /**
   * The app's log lines about its reading processes ("processus de lecture arrêté": why, exit code,
   * signal), for the message of a failed call: a preview or reading that fails says why its process
   * ended.
   */
  readingStops(): string[];
  /** Sends a request as this actor (anonymous: no cookie), from its own client address. */
  call(actor: ActorName, options: InjectOptions, cookie?: string): Promise<LightMyRequestResponse>;
  cookieOf(actor: ActorName): string | undefined;
  fresh: Factories;
}

export interface Factories {
  /** A new open request of this patient, sent to every verified dentist (or to one by id). */
  openRequest(
    owner: "patientA" | "patientB",
    recipient?: string,
  ): Promise<{ requestId: string; documentId: string }>;
  /** A new open request of A with a sent offer (and conversation) from each verified dentist. */
  openWithOffers(): Promise<OpenWithOffers>;
  /** A new finished request of A: the chosen dentist's offer accepted, the other's closed. */
  finished(): Promise<Finished>;
  /** A new cancelled request of A. */
  cancelled(): Promise<{ requestId: string; documentId: string }>;
  /** A new confirmed appointment between A and the chosen dentist (on a new finished request). */
  appointment(): Promise<{ appointmentId: string } & Finished>;
  /** A new sent offer of this verified dentist on this request (its id). */
  offer(dentist: "chosen" | "notChosen", requestId: string): Promise<string>;
  /** A new signed-in session of this person (its cookie and its id). */
  session(person: PersonName): Promise<{ cookie: string; sessionId: string }>;
  /** A new patient of nobody's world (to be erased): its id, cookie and password. */
  patient(): Promise<{ id: string; email: string; cookie: string; password: string }>;
}

const PASSWORD = "Sourire-Sain-2026";
/** The world's offers: their slots are never an appointment's time below (ADR 038: refused). */
export const OFFER = {
  amount_cents: 90_000,
  comment: "Couronne céramo-métallique, garantie 5 ans.",
  valid_until: "2026-12-31",
  slots: ["2026-12-03T10:30", "2026-12-04T14:00"],
};
/** The first appointment's time; the others are on the hour from 5 December on. */
const FIRST_APPOINTMENT = "2026-12-03T09:30";

/** Builds a fresh database and application with the world in it (about a hundred API calls). */
export async function createWorld(): Promise<World> {
  // A metrics token, so that GET /metrics is there to refuse (no session opens it: bearer only).
  // The warnings are kept in memory, never printed: only those about the reading processes are read.
  const readingStops: string[] = [];
  const ctx = await createTestContext({
    clock: () => WORLD_NOW,
    env: { METRICS_TOKEN: "world-metrics-token-world-metrics-token-0123", LOG_LEVEL: "warn" },
    logStream: {
      write(line: string) {
        if (line.includes("processus de lecture")) readingStops.push(line.trim());
      },
    },
  });
  const { app } = ctx;

  // Every call comes from its own address, so that the per-IP limits of the account and contact
  // routes (which the matrix and the fuzz call many times) never answer 429 in their place.
  let address = 0;
  const nextAddress = () => {
    address += 1;
    return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
  };
  const raw = (options: InjectOptions, cookie?: string) =>
    app.inject({
      remoteAddress: nextAddress(),
      ...options,
      headers: { ...(options.headers ?? {}), ...(cookie ? { cookie } : {}) },
    });
  const expectStatus = (response: LightMyRequestResponse, status: number, what: string) => {
    if (response.statusCode !== status)
      throw new Error(
        `world: ${what} answered ${response.statusCode} (expected ${status}): ${response.body}`,
      );
    return response;
  };
  const send = async (
    cookie: string,
    method: "POST" | "PATCH",
    url: string,
    payload: unknown,
    status = 200,
  ) =>
    expectStatus(
      await raw({ method, url, payload: payload as InjectOptions["payload"] }, cookie),
      status,
      `${method} ${url}`,
    ).json();
  const sendMultipart = async (
    cookie: string | undefined,
    url: string,
    fields: Record<string, string>,
    files: Parameters<typeof multipart>[1],
    status: number,
  ) => {
    const body = multipart(fields, files);
    return expectStatus(
      await raw({ method: "POST", url, payload: body.payload, headers: body.headers }, cookie),
      status,
      `POST ${url}`,
    ).json();
  };

  // People.
  const signedUp = (
    response: LightMyRequestResponse,
    body: Record<string, unknown>,
    cookie: string,
    phone: string | null,
  ): Person => ({
    id: response.json().profile.id,
    email: String(body.email),
    password: PASSWORD,
    cookie,
    phone,
  });
  const patient = async (first: string, last: string, phone: string | null): Promise<Person> => {
    const { response, cookie, body } = await signUpPatient(app, {
      first_name: first,
      last_name: last,
      password: PASSWORD,
    });
    expectStatus(response, 201, "patient sign-up");
    const person = signedUp(response, body, cookie, phone);
    if (phone) await send(cookie, "PATCH", "/api/me", { full_name: `${first} ${last}`, phone_number: phone });
    return person;
  };
  const dentist = async (
    first: string,
    last: string,
    phone: string,
    rpps: string,
    verified: boolean,
  ): Promise<Person> => {
    const { response, cookie, body } = await signUpDentist(app, {
      first_name: first,
      last_name: last,
      phone_number: phone,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expectStatus(response, 201, "dentist sign-up");
    const person = signedUp(response, body, cookie, phone);
    await send(cookie, "PATCH", "/api/me", {
      full_name: `${first} ${last}`,
      city: "Paris",
      phone_number: phone,
      rpps: rppsWithKey(rpps),
      practice_address: "12 rue de la Paix",
      practice_postcode: "75002",
    });
    await send(cookie, "POST", "/api/me/verification-request", undefined);
    // No API verifies a dentist but the admin's decision; the matrix has its own admin, and this
    // world keeps the admins' queue as it was (the unverified dentist waits in it).
    if (verified) {
      await app.db.updateTable("profiles").set({ is_verified: true }).where("id", "=", person.id).execute();
      await startTrialOnVerification(app.db, person.id, WORLD_NOW);
    }
    return person;
  };

  const patientA = await patient("Alice", "Durand", "0611223344");
  const patientB = await patient("Bruno", "Petit", "0655667788");
  const chosen = await dentist("Claire", "Leroy", "0142000001", "1000111111", true);
  const notChosen = await dentist("Nicolas", "Martin", "0142000002", "1000222222", true);
  const unverified = await dentist("Ulysse", "Bernard", "0491000003", "1000333333", false);
  const trial = await dentist("Théo", "Petit", "0142000004", "1000444444", true);
  const lapsed = await dentist("Laure", "Simon", "0142000005", "1000555555", true);
  // Her subscription ended yesterday (cancelled at the end of its paid period).
  const ended = { ...startTrial(new Date(WORLD_NOW.getTime() - 60 * 86_400_000)) };
  await app.db
    .updateTable("subscriptions")
    .set(
      columnsOfState(
        {
          ...ended,
          status: "canceled",
          statusSince: new Date(WORLD_NOW.getTime() - 86_400_000),
          plan: "monthly",
        },
        WORLD_NOW,
      ),
    )
    .where("dentist_id", "=", lapsed.id)
    .execute();

  const adminEmail = uniqueEmail("admin");
  await ensureAdmin({ db: app.db, auth: app.auth }, adminEmail, PASSWORD);
  let adminHasNoRole = true;
  try {
    // An admin who is neither patient nor dentist (migration 013 lets role be null).
    await app.db.updateTable("profiles").set({ role: null }).where("email", "=", adminEmail).execute();
  } catch {
    adminHasNoRole = false;
  }
  const adminLogin = expectStatus(
    await raw({
      method: "POST",
      url: "/api/account/login",
      payload: { email: adminEmail, password: PASSWORD },
    }),
    200,
    "admin login",
  );
  const admin: Person = {
    id: adminLogin.json().profile.id,
    email: adminEmail,
    password: PASSWORD,
    cookie: sessionCookie(adminLogin),
    phone: null,
  };
  const people: Record<PersonName, Person> = {
    patientA,
    patientB,
    chosen,
    notChosen,
    unverified,
    admin,
    trial,
    lapsed,
  };
  const cookieOf = (actor: ActorName) => (actor === "anonymous" ? undefined : people[actor].cookie);

  // Avatars (public images).
  const avatar = async (person: Person) =>
    (
      await sendMultipart(
        person.cookie,
        "/api/me/avatar",
        {},
        [{ field: "avatar", name: "moi.png", type: "image/png", content: tinyPng(64, 64) }],
        200,
      )
    ).profile.avatar_url as string;
  const avatars = { patientA: await avatar(patientA), chosen: await avatar(chosen) };

  // Factories.
  const openRequest = async (owner: "patientA" | "patientB", recipient?: string) => {
    const person = people[owner];
    const created = await sendMultipart(
      person.cookie,
      "/api/patient/requests",
      {
        treatment_type: "crown",
        description: "Couronne sur la 36, devis de mon dentiste joint.",
        consent: "true",
        quote_amount: "1200",
        recipient: recipient ?? "all",
        document_types: '["quote","xray"]',
      },
      [
        { field: "files", name: "devis.pdf", type: "application/pdf", content: tinyPdf() },
        { field: "files", name: "radio.png", type: "image/png", content: tinyPng() },
      ],
      201,
    );
    const requestId = created.id as string;
    const document = await app.db
      .selectFrom("documents")
      .select("id")
      .where("request_id", "=", requestId)
      .orderBy("position")
      .executeTakeFirstOrThrow();
    return { requestId, documentId: document.id };
  };
  const offer = async (who: Person, requestId: string) => {
    const sent = await send(who.cookie, "POST", `/api/dentist/requests/${requestId}/offers`, OFFER, 201);
    return { offerId: sent.offer.id as string, conversationId: sent.conversation_id as string };
  };
  const openWithOffers = async (): Promise<OpenWithOffers> => {
    const { requestId, documentId } = await openRequest("patientA");
    const a = await offer(chosen, requestId);
    const b = await offer(notChosen, requestId);
    return {
      requestId,
      documentId,
      chosenOffer: a.offerId,
      otherOffer: b.offerId,
      chosenConversation: a.conversationId,
      otherConversation: b.conversationId,
    };
  };
  const finished = async (): Promise<Finished> => {
    const open = await openWithOffers();
    await send(patientA.cookie, "POST", `/api/patient/offers/${open.chosenOffer}/accept`, undefined);
    return { ...open, acceptedOffer: open.chosenOffer, closedOffer: open.otherOffer };
  };
  const cancelled = async () => {
    const created = await openRequest("patientA");
    await send(patientA.cookie, "POST", `/api/patient/requests/${created.requestId}/cancel`, undefined);
    return created;
  };
  let appointments = 0;
  const appointment = async () => {
    const done = await finished();
    // Each at its own time: the chosen dentist is never booked twice at one time (ADR 038).
    const n = appointments++;
    const pad = (value: number) => String(value).padStart(2, "0");
    const slot =
      n === 0 ? FIRST_APPOINTMENT : `2026-12-${pad(5 + (n % 20))}T${pad(8 + Math.floor(n / 20))}:00`;
    const booked = await send(
      patientA.cookie,
      "POST",
      `/api/patient/offers/${done.acceptedOffer}/appointment`,
      { slots: [slot] },
      201,
    );
    const appointmentId = booked.appointment.id as string;
    await send(chosen.cookie, "POST", `/api/appointments/${appointmentId}/confirm`, {
      starts_at: booked.appointment.options[0],
    });
    return { appointmentId, ...done };
  };
  const session = async (name: PersonName) => {
    const person = people[name];
    const login = expectStatus(
      await raw({
        method: "POST",
        url: "/api/account/login",
        payload: { email: person.email, password: person.password },
      }),
      200,
      "login",
    );
    const cookie = sessionCookie(login);
    const token = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)).split(".")[0] ?? "";
    const row = await app.db
      .selectFrom("sessions")
      .select("id")
      .where("token", "=", token)
      .executeTakeFirstOrThrow();
    return { cookie, sessionId: row.id };
  };
  const fresh: Factories = {
    openRequest,
    openWithOffers,
    finished,
    cancelled,
    appointment,
    session,
    offer: async (name, requestId) => (await offer(people[name], requestId)).offerId,
    patient: async () => {
      const email = uniqueEmail("fresh");
      const { response, cookie } = await signUpPatient(ctx.app, { email, password: PASSWORD });
      return { id: response.json().profile.id as string, email, cookie, password: PASSWORD };
    },
  };

  // Objects.
  const openA = await openWithOffers();
  const withAppointment = await appointment();
  const cancelledA = await cancelled();
  const namedA = await openRequest("patientA", chosen.id);
  const openB = await openRequest("patientB");
  const onOpenB = await offer(chosen, openB.requestId);

  const message = async (who: Person, conversationId: string, body: string, file?: "pdf" | "png") => {
    const files = file
      ? [
          file === "pdf"
            ? { field: "files", name: "ordonnance.pdf", type: "application/pdf", content: tinyPdf() }
            : { field: "files", name: "photo.png", type: "image/png", content: tinyPng() },
        ]
      : [];
    const sent = await sendMultipart(
      who.cookie,
      `/api/conversations/${conversationId}/messages`,
      { body },
      files,
      201,
    );
    return (sent.attachments?.[0]?.id as string | undefined) ?? "";
  };
  const fromAToOther = await message(patientA, openA.otherConversation, "Voici mon ordonnance.", "pdf");
  const fromChosenToA = await message(
    chosen,
    openA.chosenConversation,
    "Une photo du modèle de couronne.",
    "png",
  );
  await message(patientA, withAppointment.chosenConversation, "Merci, à bientôt.");
  await message(patientA, withAppointment.otherConversation, "Merci pour votre proposition.");
  const fromBToChosen = await message(patientB, onOpenB.conversationId, "Ma radio récente.", "png");

  const supportImage = await sendMultipart(
    patientA.cookie,
    "/api/support/messages",
    { body: "Voici une capture de l'écran." },
    [{ field: "image", name: "capture.png", type: "image/png", content: tinyPng() }],
    201,
  );
  const supportText = await sendMultipart(
    patientB.cookie,
    "/api/support/messages",
    { body: "Bonjour" },
    [],
    201,
  );

  const contact = await sendMultipart(
    undefined,
    "/api/contact",
    {
      name: "Jeanne Visiteuse",
      email: uniqueEmail("contact"),
      treatment_type: "crown",
      message: "Bonjour, voici le devis de mon dentiste.",
    },
    [{ field: "file", name: "devis.pdf", type: "application/pdf", content: tinyPdf() }],
    201,
  );

  return {
    ctx,
    readingStops: () => [...readingStops],
    people,
    adminHasNoRole,
    requests: {
      openA: openA.requestId,
      finishedA: withAppointment.requestId,
      cancelledA: cancelledA.requestId,
      namedA: namedA.requestId,
      openB: openB.requestId,
    },
    documents: {
      openA: openA.documentId,
      finishedA: withAppointment.documentId,
      cancelledA: cancelledA.documentId,
      namedA: namedA.documentId,
      openB: openB.documentId,
    },
    offers: {
      chosenOnOpenA: openA.chosenOffer,
      otherOnOpenA: openA.otherOffer,
      acceptedOnFinishedA: withAppointment.acceptedOffer,
      closedOnFinishedA: withAppointment.closedOffer,
      chosenOnOpenB: onOpenB.offerId,
    },
    conversations: {
      chosenOpenA: openA.chosenConversation,
      otherOpenA: openA.otherConversation,
      chosenFinishedA: withAppointment.chosenConversation,
      otherFinishedA: withAppointment.otherConversation,
      chosenOpenB: onOpenB.conversationId,
    },
    attachments: { fromAToOther, fromChosenToA, fromBToChosen },
    appointmentA: withAppointment.appointmentId,
    support: { imageA: supportImage.id as string, textB: supportText.id as string },
    contact: { withFile: contact.id as string },
    avatars,
    call: (actor, options, cookie) => raw(options, cookie ?? cookieOf(actor)),
    cookieOf,
    fresh,
  };
}

/**
 * The world of a test file: created before its tests (handed to `set`), closed after them.
 * `let w: World; setUpWorld((world) => { w = world; });`
 */
export function setUpWorld(set: (world: World) => void, timeout = 120_000): void {
  let world: World | undefined;
  beforeAll(async () => {
    world = await createWorld();
    set(world);
  }, timeout);
  afterAll(async () => {
    await world?.ctx.close();
  });
}

/** The reviews of the world (issue 36): A's published review of the chosen dentist, and a factory. */
export interface WorldReviews {
  /** A's review of a past appointment with the chosen dentist, published by the admin. */
  A: string;
  /** A new review of A (pending) on a new past appointment with the chosen dentist. */
  fresh(): Promise<string>;
}

const REVIEW_TEXT = {
  rating: 4,
  explanations: 5,
  listening: null,
  punctuality: 4,
  text: "Rendez-vous à l'heure, soins expliqués clairement.",
  author_title: "patiente",
};

/**
 * Adds reviews to a world (the matrix and the fuzz call it; other tests keep the world as it was).
 * An appointment is moved into the past in the database: the product has no API for time passing.
 */
export async function addReviews(world: World): Promise<WorldReviews> {
  const { app } = world.ctx;
  let past = 0;
  const fresh = async () => {
    const { appointmentId } = await world.fresh.appointment();
    past += 1;
    await app.db
      .updateTable("appointments")
      .set({ starts_at: new Date(WORLD_NOW.getTime() - past * 3_600_000 - 86_400_000) })
      .where("id", "=", appointmentId)
      .execute();
    const written = await world.call("patientA", {
      method: "POST",
      url: `/api/patient/appointments/${appointmentId}/review`,
      payload: REVIEW_TEXT,
    });
    if (written.statusCode !== 201)
      throw new Error(`world: review answered ${written.statusCode}: ${written.body}`);
    return written.json().review.id as string;
  };
  const A = await fresh();
  // A decision carries the version the team read (the review's updated_at in its list).
  const listed = await world.call("admin", { method: "GET", url: "/api/admin/reviews?status=pending" });
  const items: { id: string; updated_at: string }[] = listed.json().items;
  const version = items.find((item) => item.id === A)?.updated_at;
  const published = await world.call("admin", {
    method: "POST",
    url: `/api/admin/reviews/${A}/decision`,
    payload: { decision: "publish", version },
  });
  if (published.statusCode !== 200) throw new Error(`world: publishing answered ${published.statusCode}`);
  return { A, fresh };
}
