import { z } from "zod";
import { isValidSiren, normalizeSiren } from "../domain/invoices";
import { requiredText } from "./common";
import { pagedList, pageQuery } from "./lists";

/** Sourio's invoices to dentists (issue 35): the billing profile, the lists, the register. */

export const INVOICE_MESSAGES = {
  practiceNameRequired: "Indiquez le nom du cabinet.",
  addressRequired: "Indiquez l'adresse du cabinet.",
  postalCodeInvalid: "Le code postal doit comporter 5 chiffres.",
  cityRequired: "Indiquez la ville.",
  sirenRequired: "Indiquez le numéro SIREN du cabinet.",
  sirenFormat: "Le numéro SIREN comporte 9 chiffres, sans lettre.",
  sirenInvalid: "Ce numéro SIREN n'existe pas (clé de contrôle incorrecte) : vérifiez ses 9 chiffres.",
  tooLong: "Ce champ est trop long.",
  invoiceNotFound: "Facture introuvable.",
  dentistNotFound: "Dentiste introuvable.",
  saved: "Profil de facturation enregistré.",
} as const;

/**
 * The billing profile a dentist gives: practice name, address, postcode, city and SIREN (9 digits,
 * Luhn key; spaces ignored). Printed as the buyer on every invoice issued afterwards.
 */
export const billingProfileSchema = z.object({
  practice_name: requiredText(120, INVOICE_MESSAGES.practiceNameRequired, INVOICE_MESSAGES.tooLong),
  address: requiredText(200, INVOICE_MESSAGES.addressRequired, INVOICE_MESSAGES.tooLong),
  postal_code: z
    .string({ error: INVOICE_MESSAGES.postalCodeInvalid })
    .trim()
    .regex(/^\d{5}$/, INVOICE_MESSAGES.postalCodeInvalid),
  city: requiredText(100, INVOICE_MESSAGES.cityRequired, INVOICE_MESSAGES.tooLong),
  // Empty, not 9 digits, or 9 digits with a wrong key: each its own message.
  siren: z
    .string({ error: INVOICE_MESSAGES.sirenRequired })
    .max(20, INVOICE_MESSAGES.sirenFormat)
    .transform(normalizeSiren)
    .superRefine((value, ctx) => {
      const message =
        value === ""
          ? INVOICE_MESSAGES.sirenRequired
          : !/^\d{9}$/.test(value)
            ? INVOICE_MESSAGES.sirenFormat
            : isValidSiren(value)
              ? null
              : INVOICE_MESSAGES.sirenInvalid;
      if (message) ctx.addIssue({ code: "custom", message });
    }),
});
export type BillingProfileValues = z.input<typeof billingProfileSchema>;
export type BillingProfile = z.output<typeof billingProfileSchema>;

/** GET answer: the profile, or null before the dentist gave one. */
export const billingProfileResponseSchema = z.object({
  profile: billingProfileSchema.extend({ siren: z.string() }).nullable(),
});
export type BillingProfileResponse = z.infer<typeof billingProfileResponseSchema>;

export const invoiceSchema = z.object({
  id: z.uuid(),
  kind: z.enum(["invoice", "credit_note"]),
  number: z.string(),
  issued_at: z.iso.datetime(),
  period_start: z.string(),
  period_end: z.string(),
  label: z.string(),
  amount_ht_cents: z.number().int(),
  vat_rate_bp: z.number().int(),
  vat_cents: z.number().int(),
  amount_ttc_cents: z.number().int(),
  /** The invoice a credit note corrects (its number), null for an invoice. */
  refers_to_number: z.string().nullable(),
  reason: z.string().nullable(),
});
export type InvoiceDto = z.infer<typeof invoiceSchema>;

export const INVOICE_PAGE_SIZE = 12;
export const invoiceListQuery = pageQuery(INVOICE_PAGE_SIZE);
export const invoiceListSchema = pagedList(invoiceSchema);
export type InvoiceList = z.infer<typeof invoiceListSchema>;

/** The accountant's register: invoices and credit notes issued between two Paris days (inclusive). */
const registerDay = (error: string) =>
  z.iso
    .date({ error })
    .refine((day) => day >= "2000-01-01" && day <= "2999-12-31", { error })
    .optional();
export const registerQuery = z
  .object({
    from: registerDay("Date de début invalide (AAAA-MM-JJ)."),
    to: registerDay("Date de fin invalide (AAAA-MM-JJ)."),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    error: "La date de début doit précéder la date de fin.",
    path: ["to"],
  });
