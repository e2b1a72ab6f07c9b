/*
 * The contact form's texts and limit, apart from its zod schema (schemas/contact.ts): the landing
 * page's contact form is an island of the pre-rendered pages, whose code must not bring zod
 * (ADR 053, its addendum).
 */

import { NAME_MAX_LENGTH } from "./limits";

/** The longest name the contact form takes: a full name, as the profiles' « Nom complet ». */
export const CONTACT_NAME_MAX_LENGTH = NAME_MAX_LENGTH * 2;

/** Texts of the contact form: its validation messages and errors. */
export const CONTACT_MESSAGES = {
  required: "Veuillez remplir tous les champs obligatoires",
  nameTooLong: `Le nom ne peut pas dépasser ${CONTACT_NAME_MAX_LENGTH} caractères`,
  /** A message with neither text nor file says nothing to the team (the spec asks only name and e-mail). */
  messageOrFile: "Veuillez écrire un message ou joindre un fichier",
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
