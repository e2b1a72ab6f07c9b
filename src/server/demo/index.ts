import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { addDays, parisLocalToDate, parisToday } from "../../shared/policies/offers";
import { rppsWithKey } from "../../shared/policies/verification";
import { offerInputSchema } from "../../shared/schemas/offers";
import { coverSchema } from "../../shared/schemas/quotes";
import { requestFieldsSchema } from "../../shared/schemas/requests";
import type { Actor } from "../access/actor";
import { recordDocumentAccess } from "../access/audit";
import { systemCreateAccount } from "../bootstrap";
import type { Mailer } from "../mail/mailer";
import { decideVerification } from "../modules/admin/admin.service";
import { bookAppointment, confirmAppointment } from "../modules/appointments/appointments.service";
import { handleWebhook, startCheckout } from "../modules/billing/billing.service";
import { dentistRequestsRepo } from "../modules/dentists/dentists.repo";
import { createRequest } from "../modules/new-request/new-request.service";
import { acceptOffer, submitOffer } from "../modules/offers/offers.service";
import { systemFindProfile, updateOwnProfile } from "../modules/profiles/profiles.repo";
import { requestVerification } from "../modules/profiles/profiles.service";
import { patientQuotesRepo } from "../modules/quotes/quotes.repo";
import { replyToRequest } from "../modules/requests/reply.service";
import { patientRequestsRepo } from "../modules/requests/requests.repo";
import { DEMO_ACCOUNTS, DEMO_PRACTICES, type DemoSeed, existingDemoAccounts, practiceDay } from "./accounts";
import { readConversation } from "./conversations";
import { demoDevisPdf } from "./devis-document";
import { demoPanoramicXray, demoSmilePhoto } from "./images";
import { DEMO_REQUESTS, type DemoLine, type DemoRequest } from "./requests";
import { seedReviews } from "./reviews";
import { storeSampleDocument } from "./sample-upload";

export { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount, type DemoSeed, demoStartupText } from "./accounts";

/** What the seed uses of the app: the same database, storage, bus and settings as the routes. */
export type DemoDeps = Pick<
  FastifyInstance,
  "db" | "auth" | "storage" | "config" | "bus" | "log" | "clock" | "billing"
>;

const ADMIN = "admin@demo.sourio.fr";
const PATIENT = "patient@demo.sourio.fr";
const DAY = 24 * 60 * 60 * 1000;

/** The demo's addresses are nobody's: its e-mails are not sent. */
const silentMailer: Mailer = { send: async () => {}, close: () => {} };

/** A demo person as the services see a signed-in one (their profile read afresh). */
type People = (email: string) => Promise<Actor>;

/**
 * The services' dependencies at a past moment: what the demo shows happened days ago, through the
 * same use cases as a real person's, with the time handed in as their clock.
 */
function servicesAt(app: DemoDeps, when: Date) {
  const { db, config, bus, log, storage } = app;
  return {
    db,
    config,
    bus,
    log,
    storage,
    mailer: silentMailer,
    brandName: config.brandName,
    clock: () => when,
  };
}

/**
 * The scheduled e-mails due at a time (jobs.ts's `sendScheduledEmails`, handed in by server.ts: the
 * jobs stand above the demo, ADR 031), each claimed as it is sent.
 */
export type DueEmails = (
  deps: Pick<DemoDeps, "db" | "config"> & { mailer: Mailer; now: Date; log: DemoDeps["log"] },
) => Promise<unknown>;

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY);

/**
 * Seeds the demo accounts and data when there is no demo account yet and no request yet. Other
 * accounts do not count: ADMIN_EMAIL's administrator, created just before on a first start, must not
 * keep the demo out. Every row comes from a service, acted by the demo person it belongs to (ADR 033).
 */
export async function seedDemoData(app: DemoDeps, sendDueEmails: DueEmails): Promise<DemoSeed> {
  const present = await existingDemoAccounts(app.db);
  if (present.length > 0) return { outcome: "present", accounts: present };
  const request = await app.db.selectFrom("requests").select("id").limit(1).executeTakeFirst();
  if (request) return { outcome: "skipped", accounts: [] };
  const now = app.clock();
  const person = await createPeople(app, now);
  await subscribeDrMartin(app, await person("dr.martin@demo.sourio.fr"));
  for (const demo of DEMO_REQUESTS) await seedRequest(app, person, demo, now);
  // Reviews and the history the public figures are measured on (issue 36): demo/reviews.ts.
  await seedReviews(
    { at: (when) => servicesAt(app, when), person, db: app.db, createAccount: app },
    { admin: ADMIN, patient: PATIENT, dentists: ["dr.martin@demo.sourio.fr", "dr.leroy@demo.sourio.fr"] },
    now,
  );
  await dateSignUps(app.db);
  // The e-mails its history called for went out as it happened (messages left unread days ago, the
  // invitation to review a past appointment, a trial's notice): claimed now, unsent, so that the mail
  // job's first run does not send them days late. What falls due from now on is sent as usual.
  const { db, config, log } = app;
  await sendDueEmails({ db, config, log, mailer: silentMailer, now: app.clock() });
  return { outcome: "created", accounts: [...DEMO_ACCOUNTS] };
}

/**
 * The demo accounts are signed up now (Better Auth dates them), then the seed has them act days and
 * weeks ago: each is dated the day before its first dated act (a request, an offer, the verification
 * asked for, pending or decided), the administrator before everyone, so that no list shows an account signed up after
 * what it did.
 */
async function dateSignUps(db: DemoDeps["db"]) {
  await sql`
    with firsts as (
      select p.id, p.is_admin, least(
        (select min(r.created_at) from requests r where r.patient_id = p.id),
        (select min(o.created_at) from offers o where o.dentist_id = p.id),
        p.verification_requested_at,
        -- A decision clears the request: the verified dentist asked the day before it (createPeople).
        p.verification_decided_at - interval '1 day'
      ) - interval '1 day' as signed_up
      from profiles p
      where p.email like '%@demo.sourio.fr'
    ),
    dated as (
      select f.id,
        case when f.is_admin then (select min(signed_up) from firsts) - interval '1 day' else f.signed_up end
          as signed_up
      from firsts f
    ),
    users_dated as (
      update users u set created_at = d.signed_up, updated_at = d.signed_up
      from dated d where u.id = d.id and d.signed_up < u.created_at
    )
    update profiles p set created_at = d.signed_up
    from dated d where p.id = d.id and d.signed_up < p.created_at
  `.execute(db);
}

/**
 * The accounts (signed up through Better Auth), the dentists' registration asked for and, for the
 * verified ones, granted by the demo administrator; the patient's profile and mutuelle.
 */
async function createPeople(app: DemoDeps, now: Date): Promise<People> {
  const ids = new Map<string, string>();
  for (const account of DEMO_ACCOUNTS) ids.set(account.email, await systemCreateAccount(app, account));
  const person: People = async (email) => {
    const userId = ids.get(email) ?? "";
    const profile = await systemFindProfile(app.db, userId);
    if (!profile) throw new Error(`compte de démonstration introuvable : ${email}`);
    return { userId, profile };
  };
  const admin = await person(ADMIN);
  for (const practice of DEMO_PRACTICES) {
    const dentist = await person(practice.email);
    const facts = {
      rpps: rppsWithKey(practice.rpps),
      practice_address: practice.address,
      practice_postcode: practice.postcode,
    };
    await updateOwnProfile(app.db, dentist, facts);
    await requestVerification(app.db, dentist, daysBefore(now, practice.askedDaysAgo));
    if (practice.verified) {
      const decided = servicesAt(app, daysBefore(now, practice.askedDaysAgo - 1));
      const deps = {
        ...decided,
        stopRenewal: (id: string) => app.billing.stopRenewal(id, "withdrawal", app.log),
      };
      await decideVerification(deps, admin, dentist.userId, "verify", "", facts);
    }
  }
  const patient = await person(PATIENT);
  // Dentists see the demo patient's age on the proposal page; her postal code (Lyon) gives the
  // distances to the dentists (Paris, Bordeaux, Marseille), ADR 019.
  await updateOwnProfile(app.db, patient, { birth_date: "1988-04-12", postal_code: "69003" });
  // 'Ma mutuelle': 200 % of the BR, Assurance Maladie included, a contrat responsable.
  const cover = coverSchema.parse({
    percent_of_br: 200,
    ro_included: true,
    annual_ceiling_cents: 150_000,
    implant_allowance_cents: 50_000,
    responsible: true,
  });
  await patientQuotesRepo(app.db, patient).saveCover(cover, now);
  return person;
}

/**
 * Dr Martin subscribes monthly through the local payment stand-in (its checkout, "Paiement
 * accepté") today, the day before his trial ends (he was verified 29 days ago): active, with the
 * invoice of his first month, through the billing service and its webhooks (paying a second month at
 * once gave an invoice dated today for next month's period). Dr Leroy stays in her trial (started by
 * her verification), Dr Bernard has none. With Stripe's keys there is no stand-in: Dr Martin stays in
 * his trial too.
 */
async function subscribeDrMartin(app: DemoDeps, martin: Actor) {
  const standIn = await app.billing.standIn();
  if (!standIn) return;
  const deps = {
    db: app.db,
    mailer: silentMailer,
    config: app.config,
    clock: app.clock,
    log: app.log,
    provider: () => app.billing.provider(),
    storage: app.storage,
  };
  const url = await startCheckout(deps, martin, "monthly");
  const sessionId = new URL(url).pathname.split("/").pop() ?? "";
  // Its webhooks go to the billing service with the demo's silent mailer (demo addresses get nothing).
  standIn.hold();
  await standIn.pay(sessionId, true);
  await standIn.release(undefined, async (payload, signature) => {
    await handleWebhook(deps, Buffer.from(payload), signature);
    return 200;
  });
}

/** A devis or offer line as the forms send it. */
const lineInput = (line: DemoLine) => ({
  code: line.code ?? "",
  act: line.act,
  tooth: line.tooth,
  fee_cents: line.euros * 100,
});

/** One request of the demo patient, then what the dentists and she did with it, in order. */
async function seedRequest(app: DemoDeps, person: People, demo: DemoRequest, now: Date) {
  const patient = await person(PATIENT);
  const sent = daysBefore(now, demo.daysAgo);
  const files = [];
  for (const doc of demo.documents) {
    // A devis dated five days before the request, the patient's own dentist's.
    // Her radiograph and photos, drawn: the radiograph shows what her request says (the 36 extracted).
    const content = doc.devis
      ? await demoDevisPdf({
          ...doc.devis,
          patient: patient.profile.full_name,
          day: parisToday(daysBefore(sent, 5)),
        })
      : doc.type === "xray"
        ? await demoPanoramicXray([36])
        : doc.type === "photo"
          ? await demoSmilePhoto()
          : undefined;
    files.push(await storeSampleDocument(app.storage, patient.userId, doc, content));
  }
  // The fields as the request form sends them, validated by the same schema as the route's.
  const input = requestFieldsSchema.parse({
    treatment_type: demo.treatment_type,
    description: demo.description,
    budget: demo.budget,
    quote_amount: demo.quoteEuros ? String(demo.quoteEuros) : undefined,
    quote_lines: demo.quoteLines ? JSON.stringify(demo.quoteLines.map(lineInput)) : undefined,
    urgency: demo.urgency,
    recipient: demo.toDentist ? (await person(demo.toDentist)).userId : "all",
    consent: "true",
    document_types: JSON.stringify(demo.documents.map((d) => d.type)),
  });
  // Not read at the seed: « Lire ce devis » reads them when the visitor asks (a reading per devis at
  // every first start would be work nobody looks at).
  const id = await createRequest(servicesAt(app, sent), patient, input, files, { queueReading: false });
  if (demo.cancelled) await patientRequestsRepo(app.db, patient, sent).cancel(id);
  // Each dentist opened the request page before reading its devis or answering it, as the product
  // records it: the patient's « Qui a consulté mes documents » and his 'Nouvelle' agree with what he did.
  const openings = [
    ...(demo.openedBy ?? []).map((access) => ({ email: access.email, at: daysBefore(now, access.daysAgo) })),
    ...(demo.replies ?? []).map((reply) => ({ email: reply.email, at: daysBefore(now, reply.daysAgo) })),
  ]
    .map((opening) => ({ ...opening, at: new Date(opening.at.getTime() - 20 * 60_000) }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const opening of openings)
    await dentistRequestsRepo(app.db, await person(opening.email)).markOpened(id, opening.at);
  for (const reply of demo.replies ?? []) {
    const dentist = await person(reply.email);
    const replied = daysBefore(now, reply.daysAgo);
    await replyToRequest(servicesAt(app, replied), dentist, id, reply.message);
    // The offer a few minutes after the reply: its message comes second in the conversation.
    const deps = servicesAt(app, new Date(replied.getTime() + 5 * 60_000));
    if (reply.offer)
      await seedOffer({ deps, patient, dentist, requestId: id, today: parisToday(now) }, reply.offer);
  }
  const [first] = await patientRequestsRepo(app.db, patient, now).documents(id);
  for (const access of demo.openedBy ?? []) {
    if (!first) break;
    const at = daysBefore(now, access.daysAgo);
    await recordDocumentAccess(
      app.db,
      await person(access.email),
      { id: first.id, request_id: id },
      access.action,
      at,
    );
  }
}

type Offer = NonNullable<NonNullable<DemoRequest["replies"]>[number]["offer"]>;

/**
 * The dentist's offer, at the time of the reply; when accepted, the patient accepts it then and asks
 * for the appointment, which the dentist confirms (its reminders are scheduled as for anyone).
 */
async function seedOffer(
  p: {
    deps: ReturnType<typeof servicesAt>;
    patient: Actor;
    dentist: Actor;
    requestId: string;
    today: string;
  },
  offer: Offer,
) {
  // Never on a Sunday (practiceDay).
  const slot = ([days, time]: [number, string]) => `${practiceDay(addDays(p.today, days))}T${time}`;
  const values = offerInputSchema.parse({
    amount_cents: offer.lines.reduce((sum, line) => sum + line.euros * 100, 0),
    comment: offer.comment,
    lines: offer.lines.map(lineInput),
    valid_until: addDays(p.today, offer.validDays),
    slots: offer.slots.map(slot),
  });
  const { offer: sent } = await submitOffer(p.deps, p.dentist, p.requestId, values);
  if (!offer.accepted) return;
  await acceptOffer(p.deps, p.patient, sent.id);
  await readConversation(p.deps.db, p.patient, p.requestId, p.dentist, p.deps.clock());
  if (!offer.appointment) return;
  const time = slot(offer.appointment);
  const asked = await bookAppointment(p.deps, p.patient, sent.id, [time]);
  await confirmAppointment(p.deps, p.dentist, asked.id, parisLocalToDate(time).toISOString());
}
