import { formatEuros, parseEuros } from "../format/money";
import { COVER_MESSAGES, type Cover } from "../schemas/quotes";

/*
 * 'Ma mutuelle' (the patient's profile) as typed in its form (amounts in euros as text) and as the
 * API takes it. Pure: no DOM, no React.
 */
export interface CoverValues {
  percent: string;
  ro_included: boolean;
  ceiling: string;
  implant: string;
  responsible: boolean;
}
export type CoverField = "percent_of_br" | "annual_ceiling_cents" | "implant_allowance_cents";
export type CoverErrors = Partial<Record<CoverField, string>>;

/** Cents as typed in a field: "1 500,00" (plain spaces, no euro sign), "" for none. */
const euros = (cents: number | null) =>
  cents === null
    ? ""
    : formatEuros(cents)
        .replace(/\s?€$/, "")
        .replace(/[\u00a0\u202f]/g, " ");

export function valuesOf(cover: Cover | null): CoverValues {
  return {
    percent: cover ? String(cover.percent_of_br) : "",
    ro_included: cover?.ro_included ?? true,
    ceiling: euros(cover?.annual_ceiling_cents ?? null),
    implant: euros(cover?.implant_allowance_cents ?? null),
    responsible: cover?.responsible ?? true,
  };
}

/** The form's values as the API takes them, or the errors the server would give, field by field. */
export function parseCover(values: CoverValues): { cover: Cover } | { errors: CoverErrors } {
  const errors: CoverErrors = {};
  const percent = values.percent.trim().replace(/\s?%$/, "");
  const percentOfBr = /^\d+$/.test(percent) ? Number(percent) : Number.NaN;
  if (!(percentOfBr >= 100 && percentOfBr <= 500)) errors.percent_of_br = COVER_MESSAGES.percentInvalid;
  const amount = (text: string, field: CoverField) => {
    if (!text.trim()) return null;
    const cents = parseEuros(text);
    if (cents === null) errors[field] = COVER_MESSAGES.amountInvalid;
    return cents;
  };
  const ceiling = amount(values.ceiling, "annual_ceiling_cents");
  const implant = amount(values.implant, "implant_allowance_cents");
  if (Object.keys(errors).length > 0) return { errors };
  return {
    cover: {
      percent_of_br: percentOfBr,
      ro_included: values.ro_included,
      annual_ceiling_cents: ceiling,
      implant_allowance_cents: implant,
      responsible: values.responsible,
    },
  };
}
