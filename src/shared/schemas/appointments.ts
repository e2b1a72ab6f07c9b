import { z } from "zod";
import {
  APPOINTMENT_LIMITS,
  APPOINTMENT_SIDES,
  APPOINTMENT_STATUSES,
  APPOINTMENT_VIEWS,
} from "../domain/appointments";
import { addDays, parisToday } from "../format/paris";
import { isFutureSlot } from "../policies/offers";
import { pagedList, pageParam } from "./lists";
import { duplicateSlotIssues, parisSlotSchema, SLOT_MESSAGES } from "./slots";

/** Texts of booking an appointment on an accepted offer (ADR 011). */
export const APPOINTMENT_MESSAGES = {
  slotsRequired: "Choisissez au moins un créneau.",
  tooManySlots: "Vous pouvez proposer trois créneaux au maximum.",
  slotInvalid: SLOT_MESSAGES.invalid,
  slotPast: "Ce créneau est déjà passé : choisissez une date à venir.",
  slotTooFar: "Ce créneau doit être dans l'année qui vient.",
  slotDuplicate: SLOT_MESSAGES.duplicate,
  optionUnknown: "Ce créneau ne fait pas partie des créneaux proposés.",
  /** `when`: "jeudi 3 décembre 2026 à 09:30" (formatAppointmentTime). */
  slotTaken: (when: string) =>
    `Le ${when} est déjà pris : le dentiste a un autre rendez-vous confirmé à cette heure. Choisissez un autre créneau.`,
  /** After a proposed time that cannot be picked any more (the slot chooser). */
  takenHint: " — déjà pris par un autre rendez-vous du dentiste",
  /** The same, on the dentist's own offer. */
  takenHintOwn: " — déjà pris par un autre de vos rendez-vous",
  notFound: "Rendez-vous introuvable.",
  offerNotAccepted: "Acceptez d'abord cette proposition pour prendre rendez-vous.",
  /** The offer's dentist erased his account (kept under a pseudonym, security/erasure). */
  dentistErased: "Ce dentiste n'a plus de compte : vous ne pouvez plus prendre rendez-vous avec lui.",
  /** The offer's dentist lost his verification: he sees no appointment (access/objects). */
  dentistNotVerified:
    "Ce dentiste n'est plus vérifié par notre équipe : vous ne pouvez pas prendre rendez-vous avec lui pour le moment.",
  /** The patient's account is suspended (ADR 092): never why. */
  patientSuspended:
    "Le compte de ce patient est indisponible pour le moment : il ne peut pas choisir un autre horaire. Vous pouvez annuler ce rendez-vous.",
  /** On the patient's card, in place of her choices, while her dentist is no longer verified. */
  dentistUnavailable:
    "Ce dentiste n'est plus vérifié par notre équipe : ce rendez-vous ne peut être ni confirmé ni déplacé pour le moment. Vous pouvez l'annuler.",
  /** The same, on an appointment already confirmed. */
  dentistUnavailableConfirmed:
    "Ce dentiste n'est plus vérifié par notre équipe : ce rendez-vous ne peut pas être déplacé pour le moment. Vous pouvez l'annuler.",
  alreadyBooked: "Un rendez-vous est déjà en cours pour cette proposition.",
  notAwaitingYou: "Ce rendez-vous n'attend pas votre réponse.",
  closed: "Ce rendez-vous est passé ou annulé : il ne peut plus être modifié.",
  requested: "Votre demande de rendez-vous a été envoyée au dentiste",
  proposed: "Votre proposition de créneau a été envoyée",
  confirmed: "Rendez-vous confirmé",
  cancelled: "Rendez-vous annulé",
  failed: "Impossible d'enregistrer le rendez-vous",
} as const;

/**
 * Times proposed by one side: one to three Paris wall-clock times ('YYYY-MM-DDTHH:mm'), read in
 * Europe/Paris by the server. The clock-dependent rules are in `appointmentTimingIssues`.
 */
export const proposeTimesSchema = z
  .object({
    slots: z
      .array(parisSlotSchema, {
        error: APPOINTMENT_MESSAGES.slotsRequired,
      })
      .min(1, APPOINTMENT_MESSAGES.slotsRequired)
      .max(APPOINTMENT_LIMITS.maxOptions, APPOINTMENT_MESSAGES.tooManySlots),
  })
  .superRefine((value, ctx) => {
    for (const issue of duplicateSlotIssues(value.slots, ["slots"])) ctx.addIssue(issue);
  });
export type ProposeTimesInput = z.infer<typeof proposeTimesSchema>;

/** Proposed times must be ahead, and within a year. */
export function appointmentTimingIssues(
  slots: readonly string[],
  now: Date,
): { path: (string | number)[]; message: string }[] {
  const horizon = addDays(parisToday(now), APPOINTMENT_LIMITS.horizonDays);
  return slots.flatMap((slot, i): { path: (string | number)[]; message: string }[] => {
    if (!isFutureSlot(slot, now)) return [{ path: ["slots", i], message: APPOINTMENT_MESSAGES.slotPast }];
    if (slot.slice(0, 10) > horizon)
      return [{ path: ["slots", i], message: APPOINTMENT_MESSAGES.slotTooFar }];
    return [];
  });
}

/** The awaited side picks one of the proposed times (an ISO instant from `options`). */
export const confirmAppointmentSchema = z.object({
  starts_at: z.iso.datetime({ offset: true, error: APPOINTMENT_MESSAGES.slotInvalid }),
});

export const APPOINTMENT_OTHER_STANDINGS = ["active", "erased", "unverified", "suspended"] as const;

export const appointmentSchema = z.object({
  id: z.string(),
  request_id: z.string(),
  offer_id: z.string(),
  treatment_type: z.string(),
  amount_cents: z.number(),
  status: z.enum(APPOINTMENT_STATUSES),
  /** Who must answer while pending. */
  awaiting: z.enum(APPOINTMENT_SIDES).nullable(),
  /** The asker's side: the view and the actions are theirs. */
  my_side: z.enum(APPOINTMENT_SIDES),
  view: z.enum(APPOINTMENT_VIEWS),
  /** The confirmed time (ISO instant), null while pending. */
  starts_at: z.string().nullable(),
  /** The times proposed to the awaited side (ISO instants), while pending. */
  options: z.array(z.string()),
  /** Those of `options` the dentist has since confirmed for another appointment (issue 32): not to pick. */
  taken_options: z.array(z.string()),
  cancelled_by: z.enum(APPOINTMENT_SIDES).nullable(),
  may_confirm: z.boolean(),
  may_change: z.boolean(),
  /**
   * Whether the other party can still answer: a patient's dentist erased or no longer verified (a
   * suspended one too, ADR 092), a dentist's patient suspended. Not 'active': no new times to them.
   */
  other_standing: z.enum(APPOINTMENT_OTHER_STANDINGS),
  patient: z.object({ id: z.string(), full_name: z.string() }),
  dentist: z.object({
    id: z.string(),
    full_name: z.string(),
    city: z.string().nullable(),
    address: z.string().nullable(),
    postcode: z.string().nullable(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

export const APPOINTMENT_PAGE_SIZE = 10;

/** The asker's own lists: those to come (pending, or confirmed and ahead) and those that took place. */
export const APPOINTMENT_SCOPES = ["upcoming", "past"] as const;
export type AppointmentScope = (typeof APPOINTMENT_SCOPES)[number];

/**
 * The asker's appointments: `upcoming` (pending, or confirmed and still ahead; soonest first), `past`
 * (confirmed and begun; the latest first), or `request` (every appointment of one request, the live one
 * first, then the newest; `when` is then not read).
 */
export const appointmentQuerySchema = z.object({
  request: z.uuid().optional(),
  when: z.enum(APPOINTMENT_SCOPES).default("upcoming"),
  page: pageParam(),
});

export const appointmentListSchema = pagedList(appointmentSchema);
export type AppointmentList = z.infer<typeof appointmentListSchema>;

export const appointmentResultSchema = z.object({ appointment: appointmentSchema, message: z.string() });
export type AppointmentResult = z.infer<typeof appointmentResultSchema>;
