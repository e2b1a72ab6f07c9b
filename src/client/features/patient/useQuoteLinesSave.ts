import { useState } from "react";
import { toast } from "sonner";
import { parisToday } from "../../../shared/policies/offers";
import {
  type DraftLine,
  firstLineError,
  type LineErrors,
  lineErrorsFromFields,
  validateLines,
} from "../../components/quote/quoteLines";
import { isApiError } from "../../lib/api";
import { useSaveQuote } from "./api";

const SAVE_FAILED = "Votre devis n'a pas été enregistré";
const RETRY_LATER = "Veuillez réessayer dans quelques instants.";
const SAVED_HINT = "Le reste à charge de chaque proposition est estimé par rapport à ce devis.";

/**
 * Saving the lines of the patient's devis, typed or read (issue 17): checked as the server checks them,
 * then PUT …/quote (with the reading they come from, which confirms it); a refusal names its fields
 * in the editor and says why in a toast. `onClosed`: the request closed meanwhile (409).
 */
export function useQuoteLinesSave(requestId: string) {
  const save = useSaveQuote(requestId);
  const [errors, setErrors] = useState<LineErrors>({});
  const [submitted, setSubmitted] = useState(false);

  const submit = (
    drafts: DraftLine[],
    options: { readingId?: string; onSaved?: () => void; onClosed?: () => void } = {},
  ) => {
    setSubmitted(true);
    const checked = validateLines(drafts, "patient", parisToday(new Date()));
    if (!checked.ok) {
      setErrors(checked.errors);
      toast.error(SAVE_FAILED, { description: firstLineError(checked.errors) });
      return;
    }
    const input = options.readingId ? { lines: checked.lines, reading_id: options.readingId } : checked.lines;
    save.mutate(input, {
      onSuccess: ({ message }) => {
        toast.success(message, { description: SAVED_HINT });
        options.onSaved?.();
      },
      onError: (error) => {
        toast.error(SAVE_FAILED, { description: isApiError(error) ? error.message : RETRY_LATER });
        if (isApiError(error) && error.status === 409) options.onClosed?.();
        else if (isApiError(error)) setErrors(lineErrorsFromFields(error.fields, "lines"));
      },
    });
  };

  const reset = () => {
    setErrors({});
    setSubmitted(false);
  };

  const pending = save.isPending;
  // What the lines editor shows of it: the refused fields, the missing ones once saving was tried,
  // and no typing while it saves.
  const editor = { errors, showIncomplete: submitted, disabled: pending };
  return { submit, reset, editor, pending };
}
