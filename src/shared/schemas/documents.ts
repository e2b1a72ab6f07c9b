import { z } from "zod";
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, type DocumentType } from "../domain/requests";
import { quoteReadingSchema } from "./reading";
import { documentSchema } from "./requests";

/**
 * Correcting a document's type from the request page (issue 34): PATCH
 * /api/patient/requests/:id/documents/:documentId, the patient who owns the request only. A document
 * typed 'Devis' on a request without lines is read (the reading is in the answer).
 */
export const DOCUMENT_MESSAGES = {
  typeInvalid: "Type de document invalide : choisissez Devis, Radiographie, Photo ou Autre.",
  notFound: "Document introuvable.",
  typeSaved: (type: DocumentType) => `Type du document enregistré : ${DOCUMENT_TYPE_LABELS[type]}.`,
  typeSavedReading: "Type du document enregistré : Devis. Nous lisons ce devis pour vous.",
} as const;

export const documentTypeUpdateSchema = z.object({
  type: z.enum(DOCUMENT_TYPES, { error: DOCUMENT_MESSAGES.typeInvalid }),
});
export type DocumentTypeUpdate = z.infer<typeof documentTypeUpdateSchema>;

export const documentTypeSavedSchema = z.object({
  document: documentSchema,
  /** The reading queued when the document became a devis, else null. */
  reading: quoteReadingSchema.nullable(),
  message: z.string(),
});
export type DocumentTypeSaved = z.infer<typeof documentTypeSavedSchema>;
