import { z } from "zod";
import { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES } from "../domain/contact";
import { NAME_MAX_LENGTH } from "../domain/limits";
import { TREATMENT_TYPES } from "../domain/treatments";
import { emailText, requiredText } from "./common";

export { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES } from "../domain/contact";

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
