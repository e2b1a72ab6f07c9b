import { z } from "zod";
import { DENTIST_SORTS } from "../domain/geo";
import { JOURNEY_STATES } from "../domain/journey";
import { OFFER_LIMITS } from "../domain/offers";
import { DEFAULT_URGENCY, DOCUMENT_TYPES, REQUEST_STATUSES, URGENCIES } from "../domain/requests";
import { TREATMENT_TYPES } from "../domain/treatments";
import { readEuros } from "../format/money";
import { countLabel, plural } from "../format/plural";
import { pagedList, pageParam, pageQuery, searchParam } from "./lists";
import { patientOfferSchema } from "./offers";
import { QUOTE_MESSAGES, quoteDateSchema, quoteLineDtoSchema, quoteLinesSchema } from "./quotes";

/** A patient's request that does not exist, or is not theirs (the same answer: 404). */
export const REQUEST_NOT_FOUND = "Cette demande n'existe pas ou a été supprimée.";

/** Texts of the patient upload: its validation messages and errors. */
export const UPLOAD_MESSAGES = {
  noFile: "Veuillez téléverser au moins un document.",
  treatmentRequired: "Veuillez sélectionner un type de traitement.",
  /** A forged or broken form: its sending id is not one the form draws. */
  submissionInvalid: "Cet envoi n'est pas reconnu : rechargez la page et envoyez votre demande à nouveau.",
  noValidFile: "Aucun fichier valide n'a été téléversé.",
  fileTooLarge: (name: string) => `Le fichier ${name} est trop volumineux (max 10 Mo)`,
  filesTooLarge: (names: string[]) =>
    `${plural(names.length, "Fichier trop volumineux", "Fichiers trop volumineux")} : ${names.join(", ")}. La taille maximale est de 10 Mo.`,
  fileType: (name: string) => `Le type de fichier ${name} n'est pas accepté`,
  fileEmpty: (name: string) => `Le fichier ${name} est vide : choisissez-en une copie complète.`,
  fileContent: (name: string) =>
    `Le contenu du fichier ${name} ne correspond pas à un format accepté (PDF, JPG, PNG, MP4, MOV, AVI, MKV).`,
  filesAdded: (count: number) => countLabel(count, "fichier ajouté", "fichiers ajoutés"),
  tooManyFiles: (max: number) => `Vous pouvez envoyer au plus ${max} fichiers par demande.`,
  consentRequired: "Veuillez accepter le partage de vos documents avec le ou les dentistes choisis.",
  quoteAmountInvalid: "Veuillez saisir un montant en euros, par exemple 1 250 ou 1 250,50.",
  quoteAmountZero: "Le montant du devis doit être supérieur à 0 €.",
  quoteAmountTooHigh: "Le montant du devis ne peut pas dépasser 100 000 €.",
  recipientUnavailable:
    "Ce dentiste n'est pas disponible. Choisissez un autre dentiste ou tous les dentistes vérifiés.",
  success: "Documents envoyés avec succès !",
  failure: "Une erreur est survenue lors de l'envoi des documents.",
  descriptionTooLong: "La description ne peut pas dépasser 5 000 caractères.",
  budgetTooLong: "Le budget ne peut pas dépasser 100 caractères.",
} as const;

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => v ?? "");

/** The highest devis amount a patient may type: an offer's own bound (OFFER_LIMITS), 100 000 €. */
export const QUOTE_AMOUNT_MAX_CENTS = OFFER_LIMITS.maxAmountCents;

/** The devis amount a patient typed, in cents, or the French message that refuses it. */
export function parseQuoteAmount(input: string): number | string {
  const cents = readEuros(input);
  if (cents === null) return UPLOAD_MESSAGES.quoteAmountInvalid;
  if (cents === 0) return UPLOAD_MESSAGES.quoteAmountZero;
  return cents > QUOTE_AMOUNT_MAX_CENTS ? UPLOAD_MESSAGES.quoteAmountTooHigh : cents;
}

/**
 * The text fields of the upload's multipart body. `document_types` is a JSON array giving, in the
 * order of the files, each file's type; `recipient` is "all" or a verified dentist's id.
 */
export const requestFieldsSchema = z.object({
  treatment_type: z.enum(TREATMENT_TYPES, { error: UPLOAD_MESSAGES.treatmentRequired }),
  description: optionalText(5000, UPLOAD_MESSAGES.descriptionTooLong),
  budget: optionalText(100, UPLOAD_MESSAGES.budgetTooLong),
  quote_amount: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return null;
      const cents = parseQuoteAmount(v);
      if (typeof cents === "string") {
        ctx.addIssue({ code: "custom", message: cents });
        return z.NEVER;
      }
      return cents;
    }),
  urgency: z
    .enum(URGENCIES)
    .optional()
    .catch(DEFAULT_URGENCY)
    .transform((v) => v ?? DEFAULT_URGENCY),
  recipient: z
    .union([z.literal("all"), z.uuid({ error: UPLOAD_MESSAGES.recipientUnavailable })])
    .optional()
    .transform((v) => (v && v !== "all" ? v : null)),
  consent: z.literal("true", { error: UPLOAD_MESSAGES.consentRequired }),
  /** The devis line by line (issue 15), a JSON array of lines; optional. */
  quote_lines: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return [];
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: QUOTE_MESSAGES.linesInvalid });
        return z.NEVER;
      }
    })
    .pipe(quoteLinesSchema),
  /** The date printed on the devis ('YYYY-MM-DD'), for its lines' tariffs; today when empty. */
  quote_date: z
    .string()
    .optional()
    .transform((v) => v?.trim() || null)
    .pipe(quoteDateSchema.nullable()),
  document_types: z
    .string()
    .optional()
    .transform((v) => {
      try {
        const parsed = JSON.parse(v ?? "[]");
        return Array.isArray(parsed) ? parsed.map(String) : [];
      } catch {
        return [];
      }
    }),
  /**
   * The form's id of this sending, the same on a retry (ADR 101): a request already saved under it is
   * answered again, not created twice. Optional.
   */
  submission_id: z
    .uuid({ error: UPLOAD_MESSAGES.submissionInvalid })
    .optional()
    .transform((v) => v ?? null),
});
export type RequestFields = z.input<typeof requestFieldsSchema>;

export const documentSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  size: z.number(),
  mime_type: z.string(),
  document_type: z.enum(DOCUMENT_TYPES),
  created_at: z.string(),
});
export type DocumentDto = z.infer<typeof documentSchema>;

/** The patient's journey on a request (issue 16, ADR 016), derived on the server. */
export const journeySchema = z.object({
  state: z.enum(JOURNEY_STATES),
  label: z.string(),
  open_offers: z.number(),
  next: z.object({ label: z.string(), path: z.string() }).nullable(),
  hint: z.string(),
});
export type JourneyDto = z.infer<typeof journeySchema>;

export const requestSummarySchema = z.object({
  id: z.string(),
  treatment_type: z.enum(TREATMENT_TYPES),
  status: z.enum(REQUEST_STATUSES),
  urgency: z.enum(URGENCIES),
  created_at: z.string(),
  document_count: z.number(),
  journey: journeySchema,
});
export type RequestSummary = z.infer<typeof requestSummarySchema>;

/** Every kind of read of a patient's health data by someone else that the request page lists. */
export const ACCESS_ACTIONS = [
  "view",
  "download",
  "request_view",
  "attachment_view",
  "attachment_download",
  "support_thread_view",
  "support_image_view",
] as const;
export const ACCESS_ACTION_LABELS: Record<(typeof ACCESS_ACTIONS)[number], string> = {
  view: "A consulté le document",
  download: "A téléchargé le document",
  request_view: "A ouvert la demande",
  attachment_view: "A ouvert une pièce jointe de la conversation",
  attachment_download: "A téléchargé une pièce jointe de la conversation",
  support_thread_view: "A ouvert votre fil de discussion avec l'équipe",
  support_image_view: "A ouvert une image de votre fil avec l'équipe",
};

export const documentAccessSchema = z.object({
  id: z.string(),
  /** The document read; null when what was read is the request page or a chat attachment. */
  document_id: z.string().nullable(),
  /** The document's or the attachment's name; null for the request page. */
  document_name: z.string().nullable(),
  actor_name: z.string(),
  actor_kind: z.enum(["dentist", "admin"]),
  action: z.enum(ACCESS_ACTIONS),
  created_at: z.string(),
});
export type DocumentAccessDto = z.infer<typeof documentAccessSchema>;

/**
 * « Qui a consulté mes documents » by pages, newest first: the request's detail holds the first page
 * (and whether more follow), GET /api/patient/requests/:id/access-log?page= any page.
 */
export const ACCESS_LOG_PAGE_SIZE = 20;
export const accessLogQuerySchema = z.object({ page: pageParam() });
export const accessLogPageSchema = pagedList(documentAccessSchema);
export type AccessLogPage = z.infer<typeof accessLogPageSchema>;

/** Withdrawing the consent of a request (patient's request page). */
export const CONSENT_MESSAGES = {
  withdrawn:
    "Consentement retiré : la demande est fermée, les dentistes ne la voient plus. Ses documents seront effacés dans 30 jours.",
  notOpen: "Cette demande est terminée ou annulée : elle n'est déjà plus partagée.",
} as const;

/**
 * Sending a request addressed to one dentist to every verified dentist (the patient's request page):
 * the dentist chosen may no longer receive requests (his verification withdrawn, his subscription
 * lapsed), and then nobody sees it. A new consent, for every verified dentist, is given with it.
 */
export const OPEN_TO_ALL_MESSAGES = {
  consentRequired:
    "Veuillez accepter que vos documents soient consultés par les dentistes vérifiés pour leur envoyer votre demande.",
  done: "Votre demande est envoyée à tous les dentistes vérifiés.",
  notOpen: "Cette demande est terminée ou annulée : elle ne peut plus être envoyée à d'autres dentistes.",
} as const;

export const openToAllBodySchema = z.object({
  consent: z.literal(true, { error: OPEN_TO_ALL_MESSAGES.consentRequired }),
});

export const requestDetailSchema = requestSummarySchema.extend({
  description: z.string(),
  budget: z.string(),
  quote_amount_cents: z.number().nullable(),
  /** The devis line by line, when the patient entered it (issue 15). */
  quote_lines: z.array(quoteLineDtoSchema),
  /** The date of the devis (its lines' tariff day), when the patient entered its lines. */
  quote_date: z.string().nullable(),
  recipient: z
    .object({
      id: z.string(),
      full_name: z.string(),
      city: z.string().nullable(),
      /**
       * Whether this dentist receives new requests now (verified, subscription not lapsed): while
       * he does not, nobody sees the request until it is sent to every verified dentist.
       */
      taking_requests: z.boolean(),
    })
    .nullable(),
  updated_at: z.string(),
  documents: z.array(documentSchema),
  /** The access log's first page (ACCESS_LOG_PAGE_SIZE rows, newest first); the others by its route. */
  access_log: z.array(documentAccessSchema),
  access_log_has_more: z.boolean(),
  /** The consent given when sending the request, as worded then; withdrawn_at once withdrawn. */
  consent: z.object({
    version: z.string(),
    /** Empty for requests sent before consents were recorded. */
    text: z.string(),
    given_at: z.string(),
    withdrawn_at: z.string().nullable(),
  }),
  /** Each dentist's reply: his latest message in their conversation about this request (his current word). */
  replies: z.array(
    z.object({
      conversation_id: z.string(),
      dentist: z.object({
        id: z.string(),
        full_name: z.string(),
        city: z.string().nullable(),
        avatar_url: z.string().nullable(),
      }),
      message: z.string(),
      created_at: z.string(),
    }),
  ),
  /** The dentists' offers (ADR 008), oldest first. */
  offers: z.array(patientOfferSchema),
});
export type RequestDetail = z.infer<typeof requestDetailSchema>;

/** The patient's and the dentist's lists of requests: 10 a page unless asked otherwise. */
export const pageQuerySchema = pageQuery(10);

export const requestListQuerySchema = pageQuerySchema.extend({ search: searchParam() });

export const requestListSchema = z.object({
  items: z.array(requestSummarySchema),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type RequestList = z.infer<typeof requestListSchema>;

export const patientDashboardSchema = z.object({
  counts: z.object({
    active: z.number(),
    completed: z.number(),
    latest_at: z.string().nullable(),
    /** The team's answers on her help thread she has not read. */
    support_unread: z.number(),
  }),
  recent: z.array(requestSummarySchema),
});
export type PatientDashboard = z.infer<typeof patientDashboardSchema>;

export const verifiedDentistSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  /** The practice's commune (from its postal code, ADR 019), else the city the dentist typed. */
  city: z.string().nullable(),
  specialties: z.array(z.string()),
  /** Whole kilometres from the patient's postal code, null when either code is unknown. */
  distance_km: z.number().nullable(),
});
/** The default order is by name; 'distance' ('Les plus proches') is a sort the patient picks. */
export const verifiedDentistQuerySchema = z.object({
  sort: z
    .enum(DENTIST_SORTS, { error: "Ce tri n'existe pas (name ou distance)." })
    .optional()
    .default("name"),
});
export const verifiedDentistListSchema = z.object({ items: z.array(verifiedDentistSchema) });
export type VerifiedDentist = z.infer<typeof verifiedDentistSchema>;

export const requestCreatedSchema = z.object({ id: z.string(), message: z.string() });
