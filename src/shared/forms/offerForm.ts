import { z } from "zod";
import { hasTooManyDecimals, parseEuros, readEuros } from "../format/money";
import { parisToday } from "../format/paris";
import { OFFER_MESSAGES, type OfferDto, offerInputSchema, offerTimingIssues } from "../schemas/offers";
import { QUOTE_MESSAGES } from "../schemas/quotes";
import { centsToInput, type DraftLine, draftToRaw, fromLineDtos, lineIssuesOf } from "./quoteLines";

/*
 * The dentist's proposal form (/dentist/quote-request/:id): what people type (text), turned into the
 * API's offer by the shared rules, and the API's field paths mapped back onto the form's controls.
 * Pure: no DOM, no React, so it is tested beside the offers schema.
 */

const proposalFieldsSchema = z.object({
  amount: z.string(),
  comment: z.string(),
  lines: z.array(
    z.object({
      id: z.string(),
      code: z.string().nullable(),
      act: z.string(),
      tooth: z.number().nullable(),
      fee: z.string(),
      br: z.string(),
    }),
  ),
  valid_until: z.string(),
  slots: z.array(z.object({ date: z.string(), time: z.string() })),
});

export type ProposalFormValues = z.infer<typeof proposalFieldsSchema>;

export const proposalFormSchema = proposalFieldsSchema
  .superRefine((values, ctx) => {
    const input = toOfferInput(values);
    const parsed = offerInputSchema.safeParse(input);
    const issues: { path: readonly PropertyKey[]; message: string }[] = parsed.success
      ? []
      : parsed.error.issues;
    // What depends on the clock, for the values that are well formed (the first issue of a field wins).
    const now = new Date();
    const timing = offerTimingIssues({ valid_until: input.valid_until, slots: input.slots }, now);
    // The rules of the reference table the server applies: tooth of the act, ceiling of its basket.
    const lineRules = Object.entries(lineIssuesOf(values.lines as DraftLine[], "offer", parisToday(now))).map(
      ([key, message]) => ({ path: ["lines", ...key.split(".")], message }),
    );
    const seen = new Set<string>();
    for (const issue of [...amountTypingIssues(values), ...issues, ...lineRules, ...timing]) {
      const path = formPathOf(issue.path);
      if (seen.has(path)) continue;
      seen.add(path);
      ctx.addIssue({ code: "custom", path: path.split(".").map(segment), message: issue.message });
    }
  })
  .transform((values) => offerInputSchema.parse(toOfferInput(values)));

export const EMPTY_FORM: ProposalFormValues = {
  amount: "",
  comment: "",
  lines: [],
  valid_until: "",
  slots: [],
};

/**
 * A withdrawn offer as the values of « Nouvelle proposition »: its amount, comment and acts again, to
 * correct rather than retype; its validity and slots chosen anew (their days may have passed).
 */
export function formFromOffer(
  offer: Pick<OfferDto, "amount_cents" | "comment" | "lines">,
): ProposalFormValues {
  return {
    ...EMPTY_FORM,
    amount: centsToInput(offer.amount_cents),
    comment: offer.comment,
    lines: fromLineDtos(offer.lines),
  };
}

/**
 * The amounts typed as zero ("0", "0,00") or with a third decimal ("1 250,505"): said as such
 * ("supérieur à 0 €", "deux décimales au plus") rather than with the message of what is not an
 * amount, which the schema gives them (`toOfferInput` makes them NaN).
 */
function amountTypingIssues(values: ProposalFormValues): { path: readonly PropertyKey[]; message: string }[] {
  const isZero = (text: string) => text.trim() !== "" && readEuros(text) === 0;
  const issues: { path: readonly PropertyKey[]; message: string }[] = [];
  if (isZero(values.amount)) issues.push({ path: ["amount_cents"], message: OFFER_MESSAGES.amountZero });
  if (hasTooManyDecimals(values.amount))
    issues.push({ path: ["amount_cents"], message: OFFER_MESSAGES.amountDecimals });
  values.lines.forEach((line, index) => {
    const path = ["lines", index, "fee_cents"];
    if (isZero(line.fee)) issues.push({ path, message: QUOTE_MESSAGES.feeZero });
    if (hasTooManyDecimals(line.fee)) issues.push({ path, message: QUOTE_MESSAGES.feeDecimals });
  });
  return issues;
}

const segment = (part: string) => (/^\d+$/.test(part) ? Number(part) : part);

/** Text → the offer the shared schema checks: unreadable numbers become NaN (refused with their message). */
export function toOfferInput(values: ProposalFormValues) {
  const cents = (text: string) => (text.trim() === "" ? undefined : (parseEuros(text) ?? Number.NaN));
  return {
    amount_cents: cents(values.amount),
    comment: values.comment,
    lines: values.lines.map((line) => draftToRaw(line)),
    valid_until: values.valid_until.trim() || null,
    slots: values.slots.map((slot) =>
      slot.date && slot.time ? `${slot.date}T${slot.time.slice(0, 5)}` : "",
    ),
  };
}

/**
 * The form field of an API path (`amount_cents`, `lines.0.fee_cents`, `slots.1`…): the schema's
 * issues and the server's `fields` are shown under the control they are about.
 */
export function formPathOf(path: readonly PropertyKey[] | string): string {
  const parts = typeof path === "string" ? path.split(".") : path.map(String);
  const [head, index, field] = parts;
  if (head === "amount_cents") return "amount";
  if (head === "lines" && index !== undefined && /^\d+$/.test(index)) {
    // The editor's keys: the API's field names.
    if (field && LINE_FIELDS.has(field)) return `lines.${index}.${field}`;
    return `lines.${index}.act`;
  }
  if (head === "slots" && index !== undefined && /^\d+$/.test(index)) return `slots.${index}.date`;
  if (head === "lines" || head === "slots") return `${head}.root`;
  if (head === "comment" || head === "valid_until") return head;
  return "root.server";
}

const LINE_FIELDS = new Set(["tooth", "code", "act", "fee_cents", "br_cents"]);
