import { z } from "zod";
import { DENTIST_STATUSES } from "../domain/dentist";
import { DISTANCE_FILTERS_KM, GEO_MESSAGES } from "../domain/geo";
import { URGENCIES } from "../domain/requests";
import { TREATMENT_TYPES } from "../domain/treatments";
import { requiredText } from "./common";
import { MESSAGE_MAX_LENGTH } from "./conversations";
import { pagedList, searchParam } from "./lists";
import { quoteLineDtoSchema } from "./quotes";
import { documentSchema, pageQuerySchema } from "./requests";

/** The most requests set aside or put back at once: a page of his list at its largest. */
export const SET_ASIDE_MAX = 50;

/** Texts of the dentist area and of its errors. */
export const DENTIST_MESSAGES = {
  notFound: "Impossible de trouver cette demande.",
  /** A send refused with a 404 on a request he had open: it closed meanwhile (told, not only "not found"). */
  closedMeanwhile:
    "Cette demande n'est plus ouverte à vos réponses\u202f: le patient l'a annulée ou a choisi une autre proposition. Votre texte n'a pas été envoyé.",
  replyRequired: "Veuillez écrire une réponse.",
  replyTooLong: "La réponse ne peut pas dépasser 5 000 caractères.",
  replySent: "Réponse envoyée avec succès",
  replyFailed: "Impossible d'envoyer la réponse",
  assigned: "Demande assignée avec succès",
  assignFailed: "Impossible d'assigner la demande",
  listFailed: "Erreur lors du chargement des demandes",
  noMatch: "Aucune demande de devis ne correspond à vos critères.",
  pendingVerification: "En attente de vérification",
  defaultBudget: "Non spécifié",
  setAside: "Demande écartée : elle ne compte plus dans vos demandes à traiter.",
  putBack: "Demande remise dans vos demandes à traiter.",
  setAsideAnswered: "Vous avez déjà répondu à cette demande : elle ne peut plus être écartée.",
  setAsideNamed: "Cette demande vous est adressée personnellement : répondez-lui, même pour décliner.",
  setAsideFailed: "Impossible d'écarter la demande",
  putBackFailed: "Impossible de remettre la demande",
  /** Several requests at once (« Écarter la sélection », ADR 091's addendum). */
  selectionRequired: "Sélectionnez au moins une demande.",
  selectionTooLong: `Sélectionnez au plus ${SET_ASIDE_MAX} demandes à la fois.`,
  selectionUnknown: "Cette sélection contient une demande inconnue.",
  selectionTwice: "Cette sélection contient deux fois la même demande.",
  setAsideMany: (done: number, skipped: number) =>
    `${done === 0 ? "Aucune demande écartée" : done === 1 ? "1 demande écartée" : `${done} demandes écartées`}${done === 0 ? "." : done === 1 ? " : elle ne compte plus dans vos demandes à traiter." : " : elles ne comptent plus dans vos demandes à traiter."}${skipped === 0 ? "" : skipped === 1 ? " 1 demande ne peut pas l'être (déjà répondue, ou qui vous est adressée)." : ` ${skipped} demandes ne peuvent pas l'être (déjà répondues, ou qui vous sont adressées).`}`,
  putBackMany: (done: number) =>
    done === 0
      ? "Aucune de ces demandes n'était écartée."
      : done === 1
        ? "1 demande remise dans vos demandes à traiter."
        : `${done} demandes remises dans vos demandes à traiter.`,
  setAsideManyFailed: "Impossible d'écarter la sélection",
  putBackManyFailed: "Impossible de remettre la sélection",
} as const;

/**
 * « Écarter la sélection » / « Remettre la sélection » (ADR 091's addendum): the requests of one page
 * of his list at most, each once.
 */
export const bulkSetAsideSchema = z.object({
  ids: z
    .array(z.uuid({ error: DENTIST_MESSAGES.selectionUnknown }), {
      error: DENTIST_MESSAGES.selectionRequired,
    })
    .min(1, { error: DENTIST_MESSAGES.selectionRequired })
    .max(SET_ASIDE_MAX, { error: DENTIST_MESSAGES.selectionTooLong })
    .refine((ids) => new Set(ids).size === ids.length, { error: DENTIST_MESSAGES.selectionTwice }),
  aside: z.boolean({ error: "Indiquez s'il faut écarter ou remettre ces demandes." }),
});
export type BulkSetAsideInput = z.infer<typeof bulkSetAsideSchema>;

export const bulkSetAsideResultSchema = z.object({
  /** The requests now set aside (aside) or put back, among those asked. */
  changed: z.array(z.string()),
  message: z.string(),
});
export type BulkSetAsideResult = z.infer<typeof bulkSetAsideResultSchema>;

/** The list's status filter: his own status on a request, or « Écartées » (set aside, ADR 091). */
export const DENTIST_LIST_STATUSES = [...DENTIST_STATUSES, "set_aside"] as const;
export type DentistListStatus = (typeof DENTIST_LIST_STATUSES)[number];

export const dentistRequestListQuerySchema = pageQuerySchema.extend({
  search: searchParam(),
  status: z
    .enum(["all", ...DENTIST_LIST_STATUSES])
    .optional()
    .default("all"),
  treatment: z.enum(TREATMENT_TYPES).optional(),
  /** Only the requests whose patient lives within this many km of his practice (ADR 094). */
  within_km: z.enum(DISTANCE_FILTERS_KM, { error: GEO_MESSAGES.distanceFilterUnknown }).optional(),
});

export const dentistRequestSummarySchema = z.object({
  id: z.string(),
  patient_name: z.string(),
  treatment_type: z.enum(TREATMENT_TYPES),
  created_at: z.string(),
  budget: z.string(),
  urgency: z.enum(URGENCIES),
  my_status: z.enum(DENTIST_STATUSES),
  /** Not opened yet by this dentist ('Nouvelle'). */
  is_new: z.boolean(),
  /** Set aside by this dentist and not answered since (« Écartée », ADR 091). */
  set_aside: z.boolean(),
  /** Sent to this dentist by name: the patient waits for him alone (it cannot be set aside). */
  addressed_to_me: z.boolean(),
  /** The patient's current devis amount (entered, or the total of its lines), in cents; null if not given. */
  quote_amount_cents: z.number().nullable(),
  /** This dentist's live appointment on the request, if any: the status label follows it. */
  appointment_status: z.enum(["pending", "confirmed"]).nullable(),
  /** When that appointment is confirmed, its time: « Terminée » once it has passed (as the patient reads). */
  appointment_starts_at: z.string().nullable(),
  /** The patient's commune and the distance to the practice (ADR 019), never the postal code. */
  patient_city: z.string().nullable(),
  distance_km: z.number().nullable(),
});
export type DentistRequestSummary = z.infer<typeof dentistRequestSummarySchema>;

export const dentistRequestListSchema = pagedList(dentistRequestSummarySchema).extend({
  /** Treatment types present among the requests this dentist sees (the treatment filter). */
  treatments: z.array(z.enum(TREATMENT_TYPES)),
  /** False for an unverified dentist: the list is empty and explains why. */
  verified: z.boolean(),
  /** Whether his practice's commune has a point: the distance filter can be offered (ADR 094). */
  distance_filter: z.boolean(),
});
export type DentistRequestList = z.infer<typeof dentistRequestListSchema>;

export const dentistRequestDetailSchema = dentistRequestSummarySchema.extend({
  description: z.string(),
  assigned: z.boolean(),
  documents: z.array(documentSchema),
  conversation_id: z.string().nullable(),
  /** The patient's devis line by line, when given (issue 15): the offer may start from it. */
  quote_lines: z.array(quoteLineDtoSchema),
});
export type DentistRequestDetail = z.infer<typeof dentistRequestDetailSchema>;

export const replySchema = z.object({
  message: requiredText(MESSAGE_MAX_LENGTH, DENTIST_MESSAGES.replyRequired, DENTIST_MESSAGES.replyTooLong),
});

export const replyResultSchema = z.object({ conversation_id: z.string(), message: z.string() });

/** The dashboard's "À faire" rows (issue 16): each kind has its count and its first rows. */
export const TODO_LIMIT = 5;

export const todoAppointmentSchema = z.object({
  id: z.string(),
  request_id: z.string(),
  patient_name: z.string(),
  treatment_type: z.enum(TREATMENT_TYPES),
  /** The earliest time the patient proposed (null if none is left). */
  first_option: z.string().nullable(),
  /** How many times she proposed: one reads « créneau demandé », several « premier créneau ». */
  options_count: z.number().int().nonnegative(),
  created_at: z.string(),
});

export const todoConversationSchema = z.object({
  id: z.string(),
  patient_name: z.string(),
  treatment_type: z.enum(TREATMENT_TYPES),
  last_message_at: z.string(),
  unread_count: z.number(),
});

export const dentistTodoSchema = z.object({
  requests: z.object({ count: z.number(), items: z.array(dentistRequestSummarySchema) }),
  appointments: z.object({ count: z.number(), items: z.array(todoAppointmentSchema) }),
  conversations: z.object({ count: z.number(), items: z.array(todoConversationSchema) }),
});
export type DentistTodo = z.infer<typeof dentistTodoSchema>;

/** The navigation's counters: requests to answer (the 'Demandes' badge). */
/** The dentist menu's counters: 'Demandes' (to answer) and 'Rendez-vous' (to confirm). */
export const dentistTodoCountSchema = z.object({ requests: z.number(), appointments: z.number() });
export type DentistTodoCount = z.infer<typeof dentistTodoCountSchema>;

export const dentistDashboardSchema = z.object({
  verified: z.boolean(),
  pending_count: z.number(),
  todo: dentistTodoSchema,
  /** The share of the open requests he sees that he answered, in %; null when he sees none. */
  response_rate: z.number().nullable(),
  unread_messages: z.number(),
  recent_requests: z.array(dentistRequestSummarySchema),
  recent_messages: z.array(
    z.object({
      id: z.string(),
      conversation_id: z.string(),
      patient_name: z.string(),
      body: z.string(),
      created_at: z.string(),
      read: z.boolean(),
      /** The last message is this dentist's own (the Messages page's source: one row per conversation). */
      from_me: z.boolean(),
    }),
  ),
  monthly: z.object({ received: z.number(), replies: z.number(), confirmations: z.number() }),
  /** Average minutes from a request's arrival to this dentist's reply, last 30 days; null without replies. */
  average_response_minutes: z.number().nullable(),
});
export type DentistDashboard = z.infer<typeof dentistDashboardSchema>;
