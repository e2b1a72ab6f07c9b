/**
 * The patient's journey on one request (issue 16, ADR 016): one state derived from the stored
 * request status, its open offers and its live appointment, with the one next thing to do. The
 * server computes it for every list and page; the screens only show it.
 */

/** The steps in their order; 'cancelled' stands apart. */
export const JOURNEY_STEPS = [
  "sent",
  "compare",
  "accepted",
  "appointment_pending",
  "appointment_confirmed",
  "done",
] as const;
export const JOURNEY_STATES = [...JOURNEY_STEPS, "cancelled"] as const;
export type JourneyState = (typeof JOURNEY_STATES)[number];

const NNBSP = "\u202f";

/** What the request page and the lists say of each state. */
export const JOURNEY_LABELS: Record<JourneyState, string> = {
  sent: "Envoyée",
  compare: "Propositions à comparer",
  accepted: `Proposition acceptée${NNBSP}: choisissez un créneau`,
  appointment_pending: "Rendez-vous à confirmer",
  appointment_confirmed: "Rendez-vous confirmé",
  done: "Terminée",
  cancelled: "Annulée",
};

/** Short names of the steps, for the step indicator (it must fit 375 px). */
export const JOURNEY_STEP_NAMES: Record<(typeof JOURNEY_STEPS)[number], string> = {
  sent: "Envoyée",
  compare: "Propositions",
  accepted: "Proposition acceptée",
  appointment_pending: "Rendez-vous à confirmer",
  appointment_confirmed: "Rendez-vous confirmé",
  done: "Terminée",
};

export const JOURNEY_TONES: Record<JourneyState, "yellow" | "blue" | "green" | "gray"> = {
  sent: "yellow",
  compare: "blue",
  accepted: "blue",
  appointment_pending: "yellow",
  appointment_confirmed: "green",
  done: "green",
  cancelled: "gray",
};

/** The anchor of the booking section of the request page. */
export const BOOKING_ANCHOR = "rendez-vous";
/** The anchor of the dentists' replies on the request page (the reply e-mail's link leads there). */
export const REPLIES_ANCHOR = "reponses";

export interface JourneyInput {
  id: string;
  /** The stored request status: new, in_review, accepted, completed (before issue 16), cancelled. */
  status: string;
  /** Offers still open to the patient's choice: sent and not expired. */
  open_offers: number;
  /** The request's live appointment (pending or confirmed), if any. */
  appointment: { status: "pending" | "confirmed"; starts_at: string | Date | null } | null;
}

export interface Journey {
  state: JourneyState;
  label: string;
  open_offers: number;
  /** The patient's next action: the primary button, or null when there is nothing to do but wait. */
  next: { label: string; path: string } | null;
  /** One sentence saying what happens now. */
  hint: string;
}

const pluralRules = new Intl.PluralRules("fr-FR");

/** "1 proposition", "2 propositions". */
export function offersCount(count: number): string {
  return `${count} ${pluralRules.select(count) === "one" ? "proposition" : "propositions"}`;
}

/** The state alone. */
export function journeyStateOf(input: JourneyInput, now: Date): JourneyState {
  switch (input.status) {
    case "cancelled":
      return "cancelled";
    case "completed":
      return "done";
    case "accepted": {
      const a = input.appointment;
      if (!a) return "accepted";
      if (a.status === "pending") return "appointment_pending";
      return a.starts_at !== null && new Date(a.starts_at).getTime() <= now.getTime()
        ? "done"
        : "appointment_confirmed";
    }
    default:
      return input.open_offers > 0 ? "compare" : "sent";
  }
}

/** The journey of one request at `now`: state, label and the patient's next action. */
export function journeyOf(input: JourneyInput, now: Date): Journey {
  const state = journeyStateOf(input, now);
  const page = `/patient/request/${input.id}`;
  const booking = `${page}#${BOOKING_ANCHOR}`;
  const base = { state, label: JOURNEY_LABELS[state], open_offers: input.open_offers };
  switch (state) {
    case "sent":
      // A dentist took it on or answered in words (D8 « En cours »): his answers are on the page.
      if (input.status === "in_review")
        return {
          ...base,
          label: TAKEN_LABEL,
          next: { label: "Voir les réponses", path: `${page}#${REPLIES_ANCHOR}` },
          hint: `Un dentiste s'occupe de votre demande : ses réponses s'affichent sur cette page, et un e-mail vous prévient de chacune.`,
        };
      return {
        ...base,
        next: null,
        hint: "Votre demande a été envoyée. Un e-mail vous préviendra de chaque réponse des dentistes.",
      };
    case "compare":
      return {
        ...base,
        label: `${offersCount(input.open_offers)} à comparer`,
        next: {
          label:
            input.open_offers === 1 ? "Voir la proposition" : `Comparer ${offersCount(input.open_offers)}`,
          path: `${page}/compare`,
        },
        hint: "Comparez les propositions reçues, puis acceptez celle qui vous convient.",
      };
    case "accepted":
      return {
        ...base,
        next: { label: "Choisir un créneau", path: booking },
        hint: `Choisissez un créneau de rendez-vous${NNBSP}: le dentiste le confirmera. Vous pouvez encore changer d'avis.`,
      };
    case "appointment_pending":
      return {
        ...base,
        next: { label: "Voir le rendez-vous", path: booking },
        hint: "Le rendez-vous attend une confirmation. Vous pouvez encore changer d'avis jusque-là.",
      };
    case "appointment_confirmed":
      return {
        ...base,
        next: { label: "Voir le rendez-vous", path: booking },
        hint: "Votre rendez-vous est confirmé.",
      };
    case "done":
      return { ...base, next: null, hint: `Le rendez-vous a eu lieu${NNBSP}: cette demande est terminée.` };
    case "cancelled":
      return { ...base, next: null, hint: "Cette demande est annulée." };
  }
}

/** A journey that still asks something of the patient or of a dentist. */
export function isJourneyActive(state: JourneyState): boolean {
  return state !== "done" && state !== "cancelled";
}

/** A 'sent' request a dentist took on or answered in words (D8): its rows say « En cours ». */
export const TAKEN_LABEL = "En cours";

/** What the search tells apart: the states, and a 'sent' request taken on ('taken') from one not yet. */
export type JourneySearchState = JourneyState | "taken";

/**
 * What the patient's search of her requests matches for each state: the label her lists show
 * ("2 propositions à comparer" holds « propositions à comparer »; « Envoyée » only what reads so,
 * not « En cours »), and « en cours » or « active » for a state still active (the dashboard's
 * « Demandes actives »).
 */
export const JOURNEY_SEARCH_LABELS = Object.fromEntries(
  [...JOURNEY_STATES, "taken" as const].map((state) => {
    const label = state === "taken" ? TAKEN_LABEL : JOURNEY_LABELS[state];
    return [state, state === "taken" || isJourneyActive(state) ? `${label} · en cours · active` : label];
  }),
) as Record<JourneySearchState, string>;
