import { useState } from "react";
import { toast } from "sonner";
import { parisToday } from "../../../shared/policies/offers";
import type { ReadingChoice } from "../../../shared/schemas/reading";
import {
  type DraftLine,
  firstLineError,
  type LineErrors,
  lineErrorsFromFields,
  validateLines,
} from "../../components/quote/quoteLines";
import { isApiError } from "../../lib/api";
import { useSaveQuote } from "./api";
import { quoteDateError, tariffDayOf } from "./QuoteDateField";

const SAVE_FAILED = "Votre devis n'a pas été enregistré";
const RETRY_LATER = "Veuillez réessayer dans quelques instants.";
const SAVED_HINT = "Le reste à charge de chaque proposition est estimé par rapport à ce devis.";

/**
 * Saving the lines of the patient's devis, typed or read (issue 17): checked as the server checks them,
 * then PUT …/quote (with the reading they come from, which confirms it); a refusal names its fields
 * in the editor and says why in a toast. `onClosed`: the request closed meanwhile (409).
 *
 * Issue 33: with the devis's date (`initialDate`, else today), sent as `quote_date`; the lines are
 * shown and checked with that day's tariffs (`editor.day`), and its refusal shows on `date`.
 */
export function useQuoteLinesSave(requestId: string, initialDate?: string | null) {
  const save = useSaveQuote(requestId);
  const [errors, setErrors] = useState<LineErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [quoteDate, setQuoteDate] = useState(() => initialDate ?? parisToday(new Date()));
  const [dateError, setDateError] = useState<string | undefined>(undefined);
  const today = parisToday(new Date());
  const day = tariffDayOf(quoteDate, today);

  const submit = (
    drafts: DraftLine[],
    options: {
      readingId?: string;
      readingChoices?: ReadingChoice[];
      onSaved?: () => void;
      onClosed?: () => void;
    } = {},
  ) => {
    setSubmitted(true);
    const wrongDate = quoteDateError(quoteDate, today);
    const checked = validateLines(drafts, "patient", day);
    setDateError(wrongDate ?? undefined);
    if (wrongDate || !checked.ok) {
      if (!checked.ok) setErrors(checked.errors);
      toast.error(SAVE_FAILED, {
        description: wrongDate ?? (checked.ok ? "" : firstLineError(checked.errors)),
      });
      return;
    }
    const input = {
      lines: checked.lines,
      quote_date: quoteDate,
      reading_id: options.readingId,
      reading_choices: options.readingChoices,
    };
    save.mutate(input, {
      onSuccess: ({ message }) => {
        toast.success(message, { description: SAVED_HINT });
        options.onSaved?.();
      },
      onError: (error) => {
        toast.error(SAVE_FAILED, { description: isApiError(error) ? error.message : RETRY_LATER });
        if (isApiError(error) && error.status === 409) options.onClosed?.();
        else if (isApiError(error)) {
          setErrors(lineErrorsFromFields(error.fields, "lines"));
          setDateError(error.fields?.quote_date);
        }
      },
    });
  };

  /** Back to no error, with the devis's date `date` (today when it has none). */
  const reset = (date?: string | null) => {
    setErrors({});
    setSubmitted(false);
    setDateError(undefined);
    setQuoteDate(date ?? parisToday(new Date()));
  };

  const pending = save.isPending;
  // What the lines editor shows of it: the refused fields, the missing ones once saving was tried,
  // no typing while it saves, and the tariffs of the devis's date.
  const editor = { errors, showIncomplete: submitted, disabled: pending, day };
  // 'Date du devis': its error disappears once it is changed.
  const date = {
    value: quoteDate,
    onChange: (value: string) => {
      setQuoteDate(value);
      setDateError(undefined);
    },
    error: dateError,
    disabled: pending,
  };
  return { submit, reset, editor, date, pending };
}
