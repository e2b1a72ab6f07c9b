import { z } from "zod";
import { BASKETS } from "../domain/out-of-pocket";
import { formatDetailDate } from "../format/dates";
import { formatEuros } from "../format/money";

/**
 * Reading the uploaded devis (issue 17): what the server read from the patient's quote document (a text
 * PDF, a scanned PDF or a photo), shown on a review screen where the patient corrects and confirms it.
 * Nothing read is used until the patient confirms: confirming saves the lines through
 * PUT /api/patient/requests/:id/quote with `reading_id`, like lines typed by hand.
 */

/** 'pending': queued or being read; 'done': read (possibly with no line found); 'failed': unreadable. */
export const READING_STATUSES = ["pending", "done", "failed"] as const;
export type ReadingStatus = (typeof READING_STATUSES)[number];

/** How the page was read: the PDF's own text, or OCR of a scanned PDF's page or of a photo. */
export const READING_KINDS = ["text_pdf", "scanned_pdf", "image"] as const;
export type ReadingKind = (typeof READING_KINDS)[number];

/** The fields of a read line that can be uncertain (highlighted on the review screen). */
export const READ_FIELDS = ["tooth", "code", "act", "basket", "fee_cents", "br_cents", "amo_cents"] as const;
export type ReadField = (typeof READ_FIELDS)[number];

/**
 * The fields a read line compares with the act table on the devis's day (issue 34, ADR 043): kept as
 * printed; where they contradict the table, flagged and shown beside the table's value.
 */
export const TARIFF_FIELDS = ["basket", "br_cents", "amo_cents"] as const;
export type TariffField = (typeof TARIFF_FIELDS)[number];

/** The amounts a reading may correct when the devis proves an OCR slip (ADR 043 addendum). */
export const CORRECTABLE_FIELDS = ["fee_cents", "br_cents", "amo_cents"] as const;
export type CorrectableField = (typeof CORRECTABLE_FIELDS)[number];

/** What the act table says of a line's act on the devis's day (`day`, 'YYYY-MM-DD'), for that tooth. */
export const expectedTermsSchema = z.object({
  basket: z.enum(BASKETS),
  br_cents: z.number(),
  amo_cents: z.number(),
  day: z.string(),
});
export type ExpectedTerms = z.infer<typeof expectedTermsSchema>;

/**
 * On the review screen, for a compared field: the value read on the devis, or the act table's. For a
 * figure the reading corrected (`as_read`, ADR 043 addendum), 'read' is the figure as first read (its
 * `as_read`): the patient kept it rather than the correction; no choice sent means the correction stands.
 */
export const READING_CHOICE_USES = ["read", "table"] as const;

/**
 * The patient's choice for one compared field of one read line (its index in the reading's `lines`),
 * sent with the lines on confirming (PUT …/quote with `reading_id`) and kept with the reading. The
 * estimates still take a known act's basket and BR from the dated table (ADR 038, 040).
 */
export const readingChoiceSchema = z.object({
  line: z
    .number({ error: "Ligne de la lecture invalide." })
    .int("Ligne de la lecture invalide.")
    .min(0, "Ligne de la lecture invalide.")
    .max(39, "Ligne de la lecture invalide."),
  field: z.enum(TARIFF_FIELDS, { error: "Champ comparé invalide (panier, BR ou AMO)." }),
  use: z.enum(READING_CHOICE_USES, { error: "Choix invalide : la valeur lue ou le tarif." }),
});
export type ReadingChoice = z.infer<typeof readingChoiceSchema>;

/** The practitioner's number as printed: RPPS (11 digits) or ADELI (9 digits). */
export const PRACTITIONER_NUMBER_KINDS = ["RPPS", "ADELI"] as const;

/** One line of the devis as read, before the patient checks it. null: not read on the page. */
export const readLineSchema = z.object({
  tooth: z.number().nullable(),
  /** A CCAM code (4 letters + 3 digits), repaired (O/0, I/1…) only when the repair is in the table. */
  code: z.string().nullable(),
  act: z.string(),
  basket: z.enum(BASKETS).nullable(),
  fee_cents: z.number().nullable(),
  br_cents: z.number().nullable(),
  amo_cents: z.number().nullable(),
  /** Fields read with low confidence, repaired, or contradicting the reference table. */
  uncertain: z.array(z.enum(READ_FIELDS)),
  /**
   * The act table's basket, BR and AMO for this act on the devis's day (a code of the table only; absent
   * in readings made before issue 34). Never written over what was read: shown beside it.
   */
  expected: expectedTermsSchema.nullable().optional(),
  /** Fields not printed on the devis (null when read), filled in by the reading: flagged, never taken for read. */
  filled: z.array(z.enum(TARIFF_FIELDS)).optional(),
  /**
   * The figures the reading corrected (an OCR digit lost or doubled that the devis itself proves: ADR 043
   * addendum), as OCR first read them; the line holds the corrected figure, flagged. Never dropped: the
   * review screen shows both. Absent when nothing was corrected (and in readings made before).
   */
  as_read: z
    .object({ fee_cents: z.number(), br_cents: z.number(), amo_cents: z.number() })
    .partial()
    .optional(),
});
export type ReadLine = z.infer<typeof readLineSchema>;

/** What the reading found on the whole devis (stored as the reading's result). */
export const readResultSchema = z.object({
  lines: z.array(readLineSchema),
  /** The total printed on the devis (honoraires), when found. */
  total_cents: z.number().nullable(),
  /** The sum of the lines' fees read. */
  lines_total_cents: z.number(),
  /** null: no total printed; false: the printed total differs from the sum of the lines. */
  total_matches: z.boolean().nullable(),
  patient_name: z.string().nullable(),
  practitioner_name: z.string().nullable(),
  practitioner_number: z.object({ kind: z.enum(PRACTITIONER_NUMBER_KINDS), value: z.string() }).nullable(),
  /** The date printed on the devis ('YYYY-MM-DD'): its lines are checked with that day's tariffs. */
  quote_date: z.string().nullable().optional(),
  /** 0–1: how much the reading can be trusted (OCR confidence, repairs, total mismatch lower it). */
  confidence: z.number().min(0).max(1),
});
export type ReadResult = z.infer<typeof readResultSchema>;

/** A reading as the patient's screens see it. */
export const quoteReadingSchema = z.object({
  id: z.string(),
  request_id: z.string(),
  document_id: z.string(),
  /** The document's file name, for "Lecture de devis-dupont.pdf". */
  file_name: z.string(),
  status: z.enum(READING_STATUSES),
  kind: z.enum(READING_KINDS).nullable(),
  /** Pages read (a preview exists for each, 1-based). */
  pages: z.number(),
  /** Set when status is 'done'. */
  result: readResultSchema.nullable(),
  /** Why it failed, in French, when status is 'failed'. */
  message: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** The patient saved lines from this reading. */
  confirmed_at: z.string().nullable(),
  /** The patient chose to type the lines themselves, or closed the review. */
  dismissed_at: z.string().nullable(),
  /** What the patient chose for the figures that contradicted the table, once confirmed (issue 34). */
  choices: z.array(readingChoiceSchema),
  /**
   * The document was not typed 'Devis': it was recognised as one in the reading queue (issue 34), for
   * "Nous avons reconnu un devis dans photo-1.jpg".
   */
  recognised: z.boolean(),
});
export type QuoteReading = z.infer<typeof quoteReadingSchema>;

/** GET /api/patient/requests/:id/reading: the request's latest reading, or null. */
export const readingResponseSchema = z.object({ reading: quoteReadingSchema.nullable() });
export type ReadingResponse = z.infer<typeof readingResponseSchema>;

export const READING_MESSAGES = {
  pending: "Lecture du devis…",
  pendingHint:
    "Nous lisons les actes de votre devis. Vous pouvez quitter cette page : le résultat s'affichera ici.",
  done: "Nous avons lu votre devis : vérifiez chaque ligne avant de l'enregistrer.",
  noLines:
    "Nous n'avons trouvé aucun acte dans ce devis. Saisissez ses lignes vous-même : cela prend une minute.",
  failed: "Nous n'avons pas pu lire ce devis. Saisissez ses lignes vous-même : cela prend une minute.",
  unreadableFile: "Ce fichier ne peut pas être lu (PDF, JPEG ou PNG uniquement).",
  timeout: "La lecture de ce devis a pris trop de temps.",
  damaged: "Ce fichier est illisible ou endommagé.",
  uncertain: "À vérifier",
  readOnQuote: "Lu sur le devis",
  corrected: "Corrigé d'après le devis",
  asRead: (figure: string) => `lu : ${figure}`,
  correctedHint:
    "Le montant lu d'abord ne concordait pas avec le reste du devis (un chiffre perdu, doublé ou mal reconnu) ; la valeur corrigée est celle que le devis confirme. Comparez avec votre devis.",
  notPrinted: "Non indiqué sur le devis",
  tariffOn: (day: string) => `Tarif de l'Assurance Maladie au ${formatDetailDate(`${day}T12:00:00Z`)}`,
  useTariff: "Utiliser le tarif",
  keepRead: "Garder la valeur lue",
  keepCorrected: "Garder la valeur corrigée",
  /** A corrected figure's buttons, by name: "Garder la valeur lue pour la base de remboursement de l'acte 1 : 12,00 €". */
  keepReadFor: (what: string, act: number, figure: string) =>
    `Garder la valeur lue pour ${what} de l'acte ${act} : ${figure}`,
  keepCorrectedFor: (what: string, act: number, figure: string) =>
    `Garder la valeur corrigée pour ${what} de l'acte ${act} : ${figure}`,
  readKept: "Valeur lue retenue",
  /** Said (to screen readers) when the patient goes back to the corrected value. */
  correctedKept: "Valeur corrigée retenue",
  readKeptHint:
    "La valeur lue est gardée avec la lecture ; le reste à charge reste estimé avec le tarif de l'Assurance Maladie du jour du devis.",
  tariffChosen: "Tarif retenu",
  tariffHint:
    "Le reste à charge est toujours estimé avec le tarif de l'Assurance Maladie du jour du devis ; votre choix est gardé avec la lecture.",
  recognised: (fileName: string) => `Nous avons reconnu un devis dans ${fileName}`,
  totalMismatch: (totalCents: number, linesCents: number) =>
    `Le total du devis (${formatEuros(totalCents)}) ne correspond pas à la somme des lignes lues (${formatEuros(linesCents)}) : vérifiez les montants.`,
  notQuote: "Seul un devis (PDF, JPEG ou PNG) de cette demande peut être lu.",
  alreadyReading: "Ce devis est déjà en cours de lecture.",
  tooManyReadings:
    "Vous avez demandé trop de lectures de devis en une heure. Réessayez plus tard, ou saisissez ses lignes vous-même.",
  notEditable: "Cette demande est terminée ou annulée : son devis ne peut plus être lu.",
  readingNotFound: "Lecture introuvable.",
  dismissed: "Vous saisirez les lignes de votre devis vous-même.",
} as const;
