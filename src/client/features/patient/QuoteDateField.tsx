import { parisToday } from "../../../shared/policies/offers";
import { QUOTE_MESSAGES, quoteDateIssue, quoteDateSchema } from "../../../shared/schemas/quotes";
import { InputField } from "../../components/ui/FormField";

export const QUOTE_DATE_LABEL = "Date du devis";
export const QUOTE_DATE_HINT =
  "La date imprimée sur votre devis : elle détermine les tarifs et plafonds appliqués.";

/** What is wrong with the devis's date as typed (empty or impossible, future, over five years old). */
export function quoteDateError(value: string, today: string): string | null {
  if (!quoteDateSchema.safeParse(value).success) return QUOTE_MESSAGES.dateInvalid;
  return quoteDateIssue(value, today);
}

/** The day whose tariffs the lines are shown with: the devis's date once it is valid, today before. */
export function tariffDayOf(value: string, today: string): string {
  return quoteDateError(value, today) ? today : value;
}

/**
 * 'Date du devis' (issue 33): the date printed on the patient's devis, which chooses the tariffs
 * (baskets, BR, ceilings) of its lines. A native date input (the phone's own picker, the keyboard),
 * no later than today in Paris; `error`: the check's or the server's `fields.quote_date`.
 */
export function QuoteDateField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <InputField
      label={QUOTE_DATE_LABEL}
      type="date"
      required
      max={parisToday(new Date())}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      description={QUOTE_DATE_HINT}
      disabled={disabled}
      fieldClassName="sm:max-w-xs"
    />
  );
}
