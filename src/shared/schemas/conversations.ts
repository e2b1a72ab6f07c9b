import { z } from "zod";
import { TREATMENT_TYPES } from "../domain/treatments";
import { cursorParamSchema } from "./cursor";
import { limitParam, olderThanQuery, searchParam } from "./lists";

/** Texts of the Messages pages and of their errors. */
export const CHAT_MESSAGES = {
  searchPatient: "Rechercher une conversation...",
  searchDentist: "Rechercher un patient...",
  noConversationPatient: "Aucune conversation trouvée.",
  noConversationDentist: "Aucun patient trouvé.",
  placeholder: "Sélectionnez une conversation pour commencer à discuter",
  empty: "Écrivez un message ou joignez un fichier.",
  tooLong: "Le message ne peut pas dépasser 5 000 caractères.",
  tooManyFiles: "5 fichiers au plus par message.",
  fileTooLarge: (name: string) => `Le fichier ${name} est trop volumineux (max 10 Mo)`,
  fileContent: (name: string) => `Le type de fichier ${name} n'est pas accepté`,
  notFound: "Conversation introuvable.",
  /** The other party erased their account (the conversation stays, security/erasure). */
  otherErased: "Ce compte a été supprimé : vous ne pouvez plus écrire dans cette conversation.",
  /** The dentist's verification was withdrawn (D6): he reads nothing until verified again. */
  otherUnverified:
    "Ce dentiste n'est plus vérifié par notre équipe : vous ne pouvez pas lui écrire pour le moment.",
  /** The other party's account is suspended by the team (ADR 092): she cannot sign in to read it; not said why. */
  otherSuspended: "Ce compte est indisponible pour le moment : vous ne pouvez pas lui écrire.",
  sendFailed: "Impossible d'envoyer le message",
  loadFailed: "Impossible de charger les messages",
} as const;

export const MESSAGE_MAX_LENGTH = 5000;
export const MESSAGE_MAX_FILES = 5;
export const MESSAGES_PAGE_SIZE = 30;
export const CONVERSATIONS_PAGE_SIZE = 30;

export const attachmentSchema = z.object({
  id: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size: z.number(),
  /** Images are shown as previews, other documents as links. */
  kind: z.enum(["image", "document"]),
  /** Private to the two parties: served through an authorised route. */
  url: z.string(),
});
export type ChatAttachment = z.infer<typeof attachmentSchema>;

export const chatMessageSchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  sender_id: z.string().nullable(),
  body: z.string(),
  created_at: z.string(),
  /** When the recipient read it (read receipts); null while unread. */
  read_at: z.string().nullable(),
  attachments: z.array(attachmentSchema),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const conversationSummarySchema = z.object({
  id: z.string(),
  request_id: z.string(),
  treatment_type: z.enum(TREATMENT_TYPES),
  /** When the request was sent: tells apart two conversations with one person about one treatment. */
  request_created_at: z.string(),
  /** The other party: the dentist for a patient, the patient for a dentist. */
  other: z.object({ id: z.string(), full_name: z.string(), avatar_url: z.string().nullable() }),
  last_message: z
    .object({
      body: z.string(),
      created_at: z.string(),
      from_me: z.boolean(),
      attachment_count: z.number(),
    })
    .nullable(),
  last_message_at: z.string(),
  unread_count: z.number(),
  /**
   * Whether the viewer may still open the request's page (the rule of its detail route): false for
   * a dentist who was not chosen, or once the request is cancelled, completed or no longer open to
   * him (ADR 012); the conversation stays readable.
   */
  request_visible: z.boolean(),
  /**
   * The other party: active; erased (their account deleted: the conversation stays readable, no
   * new message); or, for a patient, a dentist no longer verified (he reads nothing meanwhile, D6).
   */
  other_status: z.enum(["active", "erased", "suspended", "unverified"]),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationListQuerySchema = z.object({
  search: searchParam(),
  /** Opaque cursor from the previous page's `next_cursor` (a forged one is refused: 400). */
  cursor: cursorParamSchema,
  limit: limitParam(50, CONVERSATIONS_PAGE_SIZE),
});

export const conversationListSchema = z.object({
  items: z.array(conversationSummarySchema),
  next_cursor: z.string().nullable(),
  /** Unread messages across all of this person's conversations. */
  unread_total: z.number(),
});
export type ConversationList = z.infer<typeof conversationListSchema>;

/** Messages older than the `before` message id (loading on scroll). */
export const messagePageQuerySchema = olderThanQuery(MESSAGES_PAGE_SIZE);

export const messagePageSchema = z.object({
  conversation: conversationSummarySchema,
  /** Oldest first. */
  items: z.array(chatMessageSchema),
  has_more: z.boolean(),
});
export type MessagePage = z.infer<typeof messagePageSchema>;

export const readResultSchema = z.object({ read: z.number(), unread_total: z.number() });
