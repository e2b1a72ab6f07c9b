import { APPOINTMENT_LIMITS } from "./appointments";
import { labelled } from "./labels";

/**
 * Verified patient reviews (issue 36, ADR 046). Only the patient of an appointment booked through
 * Sourio that has taken place may review that dentist, once per appointment; the team publishes or
 * refuses each review; the dentist may answer once and report. These constants are shared by the
 * server (rules), the screens and the public page /avis (what is said there is what is done here).
 */
export const REVIEW_LIMITS = {
  textMin: 20,
  textMax: 2_000,
  answerMax: 2_000,
  reasonMax: 500,
  /** The author may edit her review this many days after writing it (it goes back to moderation). */
  editDays: 30,
  /** A published review stays online this many years after the appointment, then is deleted. */
  onlineYears: 3,
  /** A refused review is kept this many days after the decision (to answer a contest), then deleted. */
  refusedDays: 90,
  /** Reviews of a dentist shown per page, newest first. */
  pageSize: 10,
} as const;

export const { values: REVIEW_STATUSES, labels: REVIEW_STATUS_LABELS } = labelled({
  pending: "En attente de modération",
  published: "Publié",
  refused: "Refusé",
});
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** The optional detailed marks, with their French names. */
export const { values: REVIEW_ASPECTS, labels: REVIEW_ASPECT_LABELS } = labelled({
  explanations: "Explications",
  listening: "Écoute",
  punctuality: "Ponctualité",
});
export type ReviewAspect = (typeof REVIEW_ASPECTS)[number];

/** How the team closed a dentist's report on a review (the report and its reason are kept). */
export const { values: REVIEW_REPORT_DECISIONS, labels: REVIEW_REPORT_DECISION_LABELS } = labelled({
  kept: "avis gardé en ligne",
  withdrawn: "avis retiré",
});
export type ReviewReportDecision = (typeof REVIEW_REPORT_DECISIONS)[number];

/** How the author is presented: she chooses it when writing (the profile holds no gender). */
export const { values: REVIEW_AUTHOR_TITLES, labels: REVIEW_AUTHOR_TITLE_LABELS } = labelled({
  patiente: "patiente vérifiée",
  patient: "patient vérifié",
});
export type ReviewAuthorTitle = (typeof REVIEW_AUTHOR_TITLES)[number];

/** Automatic flags the moderation queue shows: what a review should not hold. */
export const { values: REVIEW_FLAGS, labels: REVIEW_FLAG_LABELS } = labelled({
  email: "Adresse e-mail",
  phone: "Numéro de téléphone",
  url: "Lien vers un site",
  insult: "Mot injurieux",
});
export type ReviewFlag = (typeof REVIEW_FLAGS)[number];

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/u;
/** French numbers (0X XX XX XX XX, +33 X …, with spaces, dots or dashes) and any 9+ digit run. */
const PHONE = /(?:\+|00)\s?33[\s.-]?[1-9](?:[\s.-]?\d{2}){4}|\b0[1-9](?:[\s.-]?\d{2}){4}\b|\d{9,}/;
const URL = /\bhttps?:\/\/|\bwww\.[\p{L}\p{N}-]+\.|\b[\p{L}\p{N}-]+\.(?:fr|com|net|org|eu|io|info|biz)\b/iu;
/** Common French insults, as whole words (accents and case ignored). */
const INSULTS = [
  "con",
  "conne",
  "connard",
  "connasse",
  "connards",
  "salaud",
  "salope",
  "enfoire",
  "encule",
  "merde",
  "merdique",
  "abruti",
  "abrutie",
  "cretin",
  "cretine",
  "debile",
  "idiot",
  "idiote",
  "imbecile",
  "charlatan",
  "escroc",
  "voleur",
  "voleuse",
  "pourri",
  "pourrie",
  "incompetent",
  "incompetente",
  "batard",
  "putain",
];
const INSULT = new RegExp(`(?:^|[^\\p{L}])(?:${INSULTS.join("|")})(?:$|[^\\p{L}])`, "u");

const folded = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The flags a text raises (in REVIEW_FLAGS order): the team reads them before publishing. */
export function reviewFlags(text: string): ReviewFlag[] {
  const flags: ReviewFlag[] = [];
  if (EMAIL.test(text)) flags.push("email");
  if (PHONE.test(text.replace(EMAIL, ""))) flags.push("phone");
  if (URL.test(text.replace(EMAIL, ""))) flags.push("url");
  if (INSULT.test(folded(text))) flags.push("insult");
  return flags;
}

/** "Marie D., patiente vérifiée": the first name and the initial of the last name, nothing more. */
export function reviewAuthorLabel(firstName: string, lastName: string, title: ReviewAuthorTitle): string {
  const first = firstName.trim() || "Anonyme";
  const initial = lastName.trim().charAt(0).toLocaleUpperCase("fr-FR");
  return `${first}${initial ? ` ${initial}.` : ""}, ${REVIEW_AUTHOR_TITLE_LABELS[title]}`;
}

const MONTHS = new Intl.DateTimeFormat("fr-FR", { month: "long", year: "numeric", timeZone: "Europe/Paris" });

/** "rendez-vous en novembre 2026" (the appointment's month in Paris). */
export function appointmentMonthLabel(startsAt: Date | string): string {
  return `rendez-vous en ${MONTHS.format(new Date(startsAt))}`;
}

/** Whether the author may still edit a review written at `createdAt`. */
export function mayEditReview(createdAt: Date | string, now: Date): boolean {
  return now.getTime() - new Date(createdAt).getTime() <= REVIEW_LIMITS.editDays * 86_400_000;
}

const APPOINTMENT_MS = APPOINTMENT_LIMITS.durationMinutes * 60_000;

/**
 * The latest start of an appointment that is over at `now` (its start plus its length,
 * APPOINTMENT_LIMITS.durationMinutes): the one rule of when its patient may review it, for the
 * dashboard's query and for the review itself ("une fois ce rendez-vous passé", /avis).
 */
export function latestStartOfPastAppointment(now: Date): Date {
  return new Date(now.getTime() - APPOINTMENT_MS);
}

/** Whether an appointment that starts at `startsAt` is over at `now`: from then on, it may be reviewed. */
export function appointmentIsOver(startsAt: Date | string, now: Date): boolean {
  return new Date(startsAt).getTime() <= latestStartOfPastAppointment(now).getTime();
}

/** "4,6" — one decimal, French comma. */
export function formatRating(average: number): string {
  return average.toLocaleString("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** "12 avis" / "1 avis" (invariable). */
export function reviewsCountLabel(count: number): string {
  return `${count.toLocaleString("fr-FR")} avis`;
}

/** The public page that says how reviews are collected and checked (French consumer code). */
export const REVIEWS_POLICY_PATH = "/avis";
