import { z } from "zod";
import { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES, CONTACT_NAME_MAX_LENGTH } from "../domain/contact";
import { TREATMENT_TYPES } from "../domain/treatments";
import { emailText, requiredText } from "./common";

export { CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES, CONTACT_NAME_MAX_LENGTH } from "../domain/contact";

const optionalMessage = z
  .string()
  .trim()
  .max(CONTACT_MESSAGE_MAX_LENGTH, CONTACT_MESSAGES.messageTooLong)
  .optional()
  .default("");

/** The text fields of the contact form (the file travels beside them in the multipart body). */
export const contactFieldsSchema = z.object({
  name: requiredText(CONTACT_NAME_MAX_LENGTH, CONTACT_MESSAGES.required, CONTACT_MESSAGES.nameTooLong),
  email: emailText(CONTACT_MESSAGES.required, CONTACT_MESSAGES.emailInvalid),
  treatment_type: z
    .union([z.enum(TREATMENT_TYPES), z.literal("")])
    .optional()
    .transform((v) => v || null),
  message: optionalMessage,
});
export type ContactFields = z.input<typeof contactFieldsSchema>;

/**
 * The contact form's fields as the server reads them, knowing whether a file came: without a file
 * the message is required (a name and an e-mail alone say nothing to the team), with one it may
 * be empty.
 */
export const contactFormSchema = (hasFile: boolean) =>
  hasFile
    ? contactFieldsSchema
    : contactFieldsSchema.extend({
        message: requiredText(
          CONTACT_MESSAGE_MAX_LENGTH,
          CONTACT_MESSAGES.messageOrFile,
          CONTACT_MESSAGES.messageTooLong,
        ),
      });

export const contactCreatedSchema = z.object({ id: z.string(), message: z.string() });
