import { addDays, parisLocalToDate, parisToday } from "../../shared/policies/offers";
import { offerInputSchema } from "../../shared/schemas/offers";
import { requestFieldsSchema } from "../../shared/schemas/requests";
import type { Actor } from "../access/actor";
import { systemCreateAccount } from "../bootstrap";
import type { Db } from "../db/index";
import { bookAppointment, confirmAppointment } from "../modules/appointments/appointments.service";
import { dentistRequestsRepo } from "../modules/dentists/dentists.repo";
import { createRequest } from "../modules/new-request/new-request.service";
import { acceptOffer, submitOffer } from "../modules/offers/offers.service";
import { systemFindProfile, updateOwnProfile } from "../modules/profiles/profiles.repo";
import { answerReview, decideReview, writeReview } from "../modules/reviews/reviews.service";
import { DEMO_PASSWORD, practiceDay } from "./accounts";
import { readConversation } from "./conversations";

/*
 * The demo's reviews and the history behind the public figures (issue 36, ADR 046), kept apart from
 * the rest of the seed. Everything happens through the services, at past times: other patients
 * ("patients de démonstration", who never sign in) had appointments with the two verified dentists
 * over the last four weeks, reviewed them, and the team published the reviews; so every public figure
 * (patients, first-offer delay, saving, verified dentists, average rating) is measured on at least
 * 30 cases. The demo patient had two past appointments: one reviewed (and answered by Dr Martin),
 * one not yet (her dashboard invites her); one other patient's review waits in the team's queue.
 */

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** The seed's clocked services and its people, as demo/index.ts makes them. */
export interface ReviewSeedDeps {
  at: (
    when: Date,
  ) => Parameters<typeof writeReview>[0] &
    Parameters<typeof submitOffer>[0] &
    Parameters<typeof createRequest>[0] &
    Parameters<typeof bookAppointment>[0];
  person: (email: string) => Promise<Actor>;
  db: Db;
  createAccount: Parameters<typeof systemCreateAccount>[0];
}

/** How many other patients, and past appointments each (11 × 3 = 33: every figure has 30 cases). */
const OTHER_PATIENTS = 11;
const APPOINTMENTS_EACH = 3;

/**
 * When the n-th of those appointments' request was sent (n from 1): from 26 days ago, after both
 * dentists were verified (27 and 29 days ago, demo/accounts.ts; no dentist answers before), to 8 days
 * ago, late enough for its offer (up to two days later), the appointment (two days after the offer),
 * the review (the day after) and its publication (the day after that) to be past.
 */
const historyDaysAgo = (n: number) => 26 - ((n - 1) * 18) / (OTHER_PATIENTS * APPOINTMENTS_EACH - 1);

/** Their first names, and how each signs a review (« patiente » or « patient vérifié »). */
const FIRST_NAMES: ReadonlyArray<readonly [string, "patiente" | "patient"]> = [
  ["Lucie", "patiente"],
  ["Karim", "patient"],
  ["Nadia", "patiente"],
  ["Paul", "patient"],
  ["Chloé", "patiente"],
  ["Hugo", "patient"],
  ["Inès", "patiente"],
  ["Marc", "patient"],
  ["Léa", "patiente"],
  ["Omar", "patient"],
  ["Anne", "patiente"],
];
/**
 * Where they live: near one of the two verified practices (Paris 9e, Bordeaux), so that a dentist's
 * list shows their commune and distance, and its distance filter finds them (ADR 019, ADR 094).
 */
const POSTAL_CODES = [
  "75011",
  "33700",
  "92100",
  "33400",
  "93100",
  "33600",
  "94300",
  "33130",
  "78000",
  "33000",
  "75015",
];
const LAST_NAMES = [
  "Bernard",
  "Petit",
  "Roux",
  "Faure",
  "Girard",
  "Morel",
  "Blanc",
  "Guérin",
  "Henry",
  "Rousseau",
  "Lambert",
];
/** Written by women and men alike: nothing in them says which. */
const TEXTS = [
  "Accueil chaleureux, le Dr a pris le temps de m'expliquer chaque étape du soin et les alternatives possibles.",
  "Rendez-vous à l'heure, cabinet très propre, explications claires sur le devis. Je recommande.",
  "Très à l'écoute : j'appréhendais ce soin et tout s'est bien passé. Le prix était bien celui du devis.",
  "Bon contact, un peu d'attente en salle mais les soins ont été bien faits et bien expliqués.",
  "Le devis proposé a été respecté au centime près, et la couronne est très réussie.",
  "Soin précis et sans aucune douleur ; la radio m'a été montrée pour m'expliquer ce qui allait être fait.",
  "Deux séances comme prévu, un suivi par message entre les deux. Très satisfaisant.",
  "Cabinet un peu difficile à trouver, mais l'équipe est aimable et le travail soigné.",
  "On m'a bien expliqué ce que la mutuelle prendrait en charge avant de commencer. Rassurant.",
];

/** What the patient wrote and the dentist answered, for each treatment of a past appointment. */
const PAST_TREATMENT_WORDS = {
  crown: {
    description: "Couronne sur une molaire ; le devis de mon dentiste est recopié ligne par ligne.",
    comment: "Couronne céramo-métallique, garantie 5 ans.",
  },
  rootcanal: {
    description: "Dévitalisation d'une molaire ; le montant du devis de mon dentiste est indiqué.",
    comment: "Traitement de canal de la molaire en deux séances, radiographie de contrôle comprise.",
  },
  denture: {
    description:
      "Prothèse amovible pour remplacer deux dents ; le montant du devis de mon dentiste est indiqué.",
    comment: "Prothèse amovible partielle en résine, essayage et retouches compris.",
  },
} as const;

/**
 * One past appointment: the request `daysAgo` days ago, the dentist's offer `delayHours` later
 * (a devis of `quoteEuros`, an offer of `offerEuros`), accepted and booked at once, confirmed by the
 * dentist, two days later (a Sunday: the Monday) at `hour` o'clock.
 */
async function pastAppointment(
  deps: ReviewSeedDeps,
  p: {
    treatment?: "crown" | "rootcanal" | "denture";
    patient: Actor;
    dentist: Actor;
    daysAgo: number;
    delayHours: number;
    quoteEuros: number;
    offerEuros: number;
    hour: number;
  },
  now: Date,
) {
  const sent = new Date(now.getTime() - p.daysAgo * DAY);
  // A crown: the devis and the offer line by line (a ceramo-metal crown on 36), so that the public
  // saving compares like with like; the other treatments: the devis's amount only.
  const crown = (p.treatment ?? "crown") === "crown";
  const crownLine = (euros: number) => ({
    code: "HBLD734",
    act: "Couronne",
    tooth: 36,
    fee_cents: euros * 100,
  });
  const words = PAST_TREATMENT_WORDS[p.treatment ?? "crown"];
  const input = requestFieldsSchema.parse({
    treatment_type: p.treatment ?? "crown",
    description: words.description,
    quote_amount: String(p.quoteEuros),
    quote_lines: crown ? JSON.stringify([crownLine(p.quoteEuros)]) : undefined,
    urgency: "medium",
    recipient: "all",
    consent: "true",
    document_types: "[]",
  });
  const requestId = await createRequest(deps.at(sent), p.patient, input, [], { queueReading: false });
  const offered = new Date(sent.getTime() + p.delayHours * HOUR);
  // The dentist opened the request before answering it, as the product records it (the patient's
  // « Qui a consulté mes documents »).
  await dentistRequestsRepo(deps.db, p.dentist).markOpened(
    requestId,
    new Date(offered.getTime() - 20 * 60_000),
  );
  const slot = `${practiceDay(addDays(parisToday(offered), 2))}T${String(p.hour).padStart(2, "0")}:00`;
  const values = offerInputSchema.parse({
    amount_cents: p.offerEuros * 100,
    lines: crown ? [crownLine(p.offerEuros)] : undefined,
    comment: words.comment,
    valid_until: addDays(parisToday(offered), 30),
    slots: [slot],
  });
  const { offer } = await submitOffer(deps.at(offered), p.dentist, requestId, values);
  const decided = deps.at(new Date(offered.getTime() + HOUR));
  await acceptOffer(decided, p.patient, offer.id);
  await readConversation(deps.db, p.patient, requestId, p.dentist, decided.clock());
  const asked = await bookAppointment(decided, p.patient, offer.id, [slot]);
  const startsAt = parisLocalToDate(slot);
  await confirmAppointment(
    deps.at(new Date(offered.getTime() + 2 * HOUR)),
    p.dentist,
    asked.id,
    startsAt.toISOString(),
  );
  return { appointmentId: asked.id, startsAt };
}

/** A review written the day after the appointment, published by the team the day after (or left pending). */
async function review(
  deps: ReviewSeedDeps,
  p: {
    patient: Actor;
    admin: Actor;
    appointmentId: string;
    startsAt: Date;
    rating: number;
    text: string;
    publish: boolean;
    authorTitle?: "patiente" | "patient";
  },
) {
  const written = await writeReview(
    deps.at(new Date(p.startsAt.getTime() + DAY)),
    p.patient,
    p.appointmentId,
    {
      rating: p.rating,
      explanations: p.rating,
      listening: Math.max(1, p.rating - (p.rating % 2)),
      punctuality: null,
      text: p.text,
      author_title: p.authorTitle ?? "patiente",
    },
  );
  if (p.publish)
    await decideReview(deps.at(new Date(p.startsAt.getTime() + 2 * DAY)), p.admin, written.id, {
      decision: "publish",
    });
  return written.id;
}

export async function seedReviews(
  deps: ReviewSeedDeps,
  emails: { admin: string; patient: string; dentists: [string, string] },
  now: Date,
): Promise<void> {
  const admin = await deps.person(emails.admin);
  const dentists = [await deps.person(emails.dentists[0]), await deps.person(emails.dentists[1])] as const;

  // The other patients' appointments: a different day each (no dentist is booked twice at once).
  let n = 0;
  let pendingLeft = 1;
  for (let i = 0; i < OTHER_PATIENTS; i++) {
    const email = `patient${i + 2}@demo.sourio.fr`;
    const id = await systemCreateAccount(deps.createAccount, {
      email,
      password: DEMO_PASSWORD,
      role: "patient",
      firstName: FIRST_NAMES[i]?.[0] ?? "Alex",
      lastName: LAST_NAMES[i] ?? "Martin",
    });
    const profile = await systemFindProfile(deps.createAccount.db, id);
    if (!profile) throw new Error(`patient de démonstration introuvable : ${email}`);
    const patient: Actor = { userId: id, profile };
    await updateOwnProfile(deps.createAccount.db, patient, { postal_code: POSTAL_CODES[i] ?? null });
    for (let k = 0; k < APPOINTMENTS_EACH; k++) {
      n += 1;
      const dentist = dentists[n % 2] as Actor;
      const { appointmentId, startsAt } = await pastAppointment(
        deps,
        {
          patient,
          dentist,
          daysAgo: historyDaysAgo(n),
          delayHours: 4 + ((n * 7) % 44),
          quoteEuros: 1_200,
          offerEuros: 1_100 - ((n * 37) % 400),
          hour: 9 + (n % 8),
        },
        now,
      );
      const publish = !(k === APPOINTMENTS_EACH - 1 && pendingLeft > 0 && i === OTHER_PATIENTS - 1);
      if (!publish) pendingLeft -= 1;
      await review(deps, {
        patient,
        admin,
        appointmentId,
        startsAt,
        rating: publish ? (n % 5 === 0 ? 3 : n % 3 === 0 ? 4 : 5) : 2,
        text: publish
          ? (TEXTS[n % TEXTS.length] as string)
          : "Le soin était bien fait mais j'ai attendu quarante minutes sans explication, dommage.",
        publish,
        authorTitle: FIRST_NAMES[i]?.[1],
      });
    }
  }

  // The demo patient: Dr Martin (reviewed, published, answered), then Dr Leroy (not reviewed yet).
  const patient = await deps.person(emails.patient);
  const [martin, leroy] = dentists;
  const first = await pastAppointment(
    deps,
    {
      treatment: "rootcanal",
      patient,
      dentist: martin,
      daysAgo: 24,
      delayHours: 20,
      quoteEuros: 900,
      offerEuros: 750,
      hour: 18,
    },
    now,
  );
  const reviewId = await review(deps, {
    patient,
    admin,
    ...first,
    rating: 5,
    text: "Le Dr Martin m'a expliqué les deux options possibles avec leurs prix, sans me pousser. Soin rapide et sans douleur.",
    publish: true,
  });
  await answerReview(
    deps.at(new Date(first.startsAt.getTime() + 3 * DAY)),
    martin,
    reviewId,
    "Merci pour votre confiance, et au plaisir de vous revoir pour le contrôle.",
  );
  await pastAppointment(
    deps,
    {
      treatment: "denture",
      patient,
      dentist: leroy,
      daysAgo: 6,
      delayHours: 10,
      quoteEuros: 700,
      offerEuros: 560,
      hour: 17,
    },
    now,
  );
}
