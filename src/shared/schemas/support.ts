import { z } from "zod";
import { ADMIN_PAGE_SIZE } from "../domain/limits";
import { treatmentLabel } from "../domain/treatments";
import { formatListDate } from "../format/dates";
import { olderThanQuery, pagedList, pageParam, pageQuery, searchParam } from "./lists";

/**
 * The support chat with the team (issue 7), for patients and dentists (issue 16, ADR 018):
 * texts and shapes. A thread belongs to one person; `patient_id` names that person whatever their
 * role (the field predates dentists' support).
 */
export const SUPPORT_MESSAGES = {
  title: "Besoin d'aide\u202f?",
  empty: "Écrivez un message ou joignez une image.",
  tooLong: "Le message ne peut pas dépasser 5 000 caractères.",
  imageOnly: "Seules les images JPG ou PNG peuvent être jointes.",
  imageTooLarge: "L'image est trop volumineuse (max 10 Mo)",
  oneImage: "Une seule image peut être jointe au message.",
  sent: "Votre message a été envoyé à l'équipe",
  sendFailed: "Impossible d'envoyer le message",
  loadFailed: "Impossible de charger les messages",
  replySaved: "Votre réponse a été enregistrée",
  requestUnknown: "Cette demande est introuvable ou ne vous est pas accessible.",
} as const;

export const SUPPORT_ROLES = ["patient", "dentist"] as const;
export type SupportRole = (typeof SUPPORT_ROLES)[number];
export const SUPPORT_ROLE_LABELS: Record<SupportRole, string> = { patient: "Patient", dentist: "Dentiste" };

/** "Couronne du 21/11/2026": how a support message names the request it is about. */
export function supportRequestLabel(treatmentType: string, createdAt: Date | string): string {
  return `${treatmentLabel(treatmentType)} du ${formatListDate(createdAt)}`;
}

/** The request a message is about: its id and a label ("Couronne du 21/11/2026"). */
export const supportRequestRefSchema = z.object({ id: z.string(), label: z.string() });
export type SupportRequestRef = z.infer<typeof supportRequestRefSchema>;

/** The multipart field naming the request a message is about (optional). */
export const supportRequestIdSchema = z.uuid({ error: SUPPORT_MESSAGES.requestUnknown });

export const supportMessageSchema = z.object({
  id: z.string(),
  patient_id: z.string(),
  from_team: z.boolean(),
  /** The admin who answered (for the team's view); null for the patient's own messages. */
  author_name: z.string().nullable(),
  body: z.string(),
  image: z.object({ url: z.string(), name: z.string() }).nullable(),
  /** The request the message is about ('Besoin d'aide ?' on a request page), or null. */
  request: supportRequestRefSchema.nullable(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const supportPageQuerySchema = olderThanQuery(30);

export const supportPageSchema = z.object({
  items: z.array(supportMessageSchema),
  has_more: z.boolean(),
});

/** GET /api/support/unread: the team's answers the person has not read (the header's « Besoin d'aide ? » badge). */
export const supportUnreadSchema = z.object({ unread: z.number().int().nonnegative() });
export type SupportUnread = z.infer<typeof supportUnreadSchema>;

export const supportThreadSchema = z.object({
  /** The thread's owner (patient or dentist). */
  patient_id: z.string(),
  role: z.enum(SUPPORT_ROLES),
  patient_name: z.string(),
  patient_email: z.string(),
  last_message: z.string(),
  last_message_at: z.string(),
  /** Patient messages no admin has read yet (the red dot). */
  unread: z.number(),
});
export type SupportThread = z.infer<typeof supportThreadSchema>;

export const supportThreadListSchema = pagedList(supportThreadSchema);
export type SupportThreadList = z.infer<typeof supportThreadListSchema>;

/** The team's inbox: every thread, or one role's; only those with unread messages. */
export const supportThreadsQuerySchema = pageQuery(ADMIN_PAGE_SIZE).extend({
  search: searchParam(),
  role: z
    .enum(["all", ...SUPPORT_ROLES], { error: "Le filtre doit valoir all, patient ou dentist." })
    .optional()
    .default("all"),
  unread: z.enum(["0", "1"], { error: "Le filtre « non lus » doit valoir 0 ou 1." }).optional().default("0"),
});
export type SupportThreadsQuery = z.infer<typeof supportThreadsQuerySchema>;

export const supportReplySchema = z.object({
  body: z.string().trim().min(1, SUPPORT_MESSAGES.empty).max(5000, SUPPORT_MESSAGES.tooLong),
});

/**
 * The team's reads of the patient's thread and its images (GET /api/support/access?page=, issue 14),
 * newest first, by pages: every read, none cut off.
 */
export const supportAccessSchema = pagedList(
  z.object({
    id: z.string(),
    actor_name: z.string(),
    action: z.enum(["support_thread_view", "support_image_view"]),
    /** The image's name for an image read. */
    object_name: z.string().nullable(),
    created_at: z.string(),
  }),
);
export type SupportAccess = z.infer<typeof supportAccessSchema>;
export const supportAccessQuerySchema = z.object({ page: pageParam() });
/** Reads a page of the help page's list. */
export const SUPPORT_ACCESS_PAGE_SIZE = 20;
