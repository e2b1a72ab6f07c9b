import { DEFAULT_URGENCY, type Urgency } from "../domain/requests";
import type { TreatmentType } from "../domain/treatments";
import { parseQuoteAmount, UPLOAD_MESSAGES } from "../schemas/requests";

/*
 * The patient's upload form (/patient/upload): what people type, the checks the browser makes
 * before sending (the server checks everything again, with the request schema), and the API's
 * field errors mapped back onto the form. Pure: no DOM, no React.
 */

export type UploadFieldName =
  | "files"
  | "treatment_type"
  | "quote_amount"
  | "consent"
  | "recipient"
  | "description"
  | "budget";

export type UploadFieldErrors = Partial<Record<UploadFieldName, string>>;

export interface UploadValues {
  treatment_type: TreatmentType | "";
  description: string;
  budget: string;
  quote_amount: string;
  urgency: Urgency;
  /** "all" (every verified dentist) or one verified dentist's id. */
  recipient: string;
  consent: boolean;
}

export const EMPTY_UPLOAD: UploadValues = {
  treatment_type: "",
  description: "",
  budget: "",
  quote_amount: "",
  urgency: DEFAULT_URGENCY,
  recipient: "all",
  consent: false,
};

/**
 * What the browser checks before sending: at least one file, a treatment, an amount in euros when
 * one is typed, the consent. With the devis line by line (`withLines`), its amount is the lines'
 * total: the typed amount is not read.
 */
export function validateUpload(
  values: UploadValues,
  files: readonly { file: { name: string } }[],
  withLines = false,
): UploadFieldErrors {
  const errors: UploadFieldErrors = {};
  if (files.length === 0) errors.files = UPLOAD_MESSAGES.noFile;
  else if (!files.some((f) => f.file.name)) errors.files = UPLOAD_MESSAGES.noValidFile;
  if (!values.treatment_type) errors.treatment_type = UPLOAD_MESSAGES.treatmentRequired;
  const amount = !withLines && values.quote_amount.trim() ? parseQuoteAmount(values.quote_amount) : null;
  if (typeof amount === "string") errors.quote_amount = amount;
  if (!values.consent) errors.consent = UPLOAD_MESSAGES.consentRequired;
  return errors;
}

const FORM_FIELDS: readonly string[] = [
  "treatment_type",
  "quote_amount",
  "consent",
  "recipient",
  "description",
  "budget",
];

/**
 * The API's refusal on the form: each field's message beside its control (the quote lines have
 * their own mapping), any other field's under the files; a refusal without fields (not a network
 * failure, not a server error) under the files too.
 */
export function uploadErrorsFromApi(error: {
  fields: Record<string, string>;
  status: number;
  message: string;
}): UploadFieldErrors {
  const next: UploadFieldErrors = {};
  for (const [field, text] of Object.entries(error.fields)) {
    // The devis's lines and date show beside them, in their own card.
    if (field === "quote_date" || field === "quote_lines" || field.startsWith("quote_lines.")) continue;
    if (FORM_FIELDS.includes(field)) next[field as UploadFieldName] = text;
    else next.files = text;
  }
  if (Object.keys(error.fields).length === 0 && error.status !== 0 && error.status < 500)
    next.files = error.message;
  return next;
}
