import { z } from "zod";
import { NAME_MAX_LENGTH } from "../domain/limits";
import { TREATMENT_TYPES } from "../domain/treatments";
import { emailText, requiredText } from "./common";

/** Texts of the contact form: its validation messages and errors. */
export const CONTACT_MESSAGES = {
  required: "Veuillez remplir tous les champs obligatoires",
  emailInvalid: "Veuillez saisir une adresse e-mail valide",
  fileTooLarge: "Le fichier est trop volumineux (max 10MB)",
  fileType: "Ce type de fichier n'est pas accepté. Formats acceptés : PDF, JPG, PNG, MP4, MOV, AVI, MKV.",
  fileContent:
    "Le contenu de ce fichier ne correspond pas à un format accepté (PDF, JPG, PNG, MP4, MOV, AVI, MKV).",
  uploadError: "Erreur lors de l'upload du fichier",
  uploadUnexpected: "Une erreur est survenue lors de l'upload",
  sendError: "Erreur lors de l'envoi du formulaire",
  unexpected: "Une erreur est survenue",
  success: "Votre message a été envoyé avec succès !",
  messageTooLong: "Le message ne peut pas dépasser 5 000 caractères",
  tooMany: "Vous avez envoyé plusieurs messages en peu de temps. Veuillez réessayer dans une heure.",
} as const;

export const CONTACT_MESSAGE_MAX_LENGTH = 5000;

/** The text fields of the contact form (the file travels beside them in the multipart body). */
export const contactFieldsSchema = z.object({
  name: requiredText(NAME_MAX_LENGTH * 2, CONTACT_MESSAGES.required, CONTACT_MESSAGES.required),
  email: emailText(CONTACT_MESSAGES.required, CONTACT_MESSAGES.emailInvalid),
  treatment_type: z
    .union([z.enum(TREATMENT_TYPES), z.literal("")])
    .optional()
    .transform((v) => v || null),
  message: z
    .string()
    .trim()
    .max(CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES.messageTooLong)
    .optional()
    .default(""),
});
export type ContactFields = z.input<typeof contactFieldsSchema>;

export const contactCreatedSchema = z.object({ id: z.string(), message: z.string() });
