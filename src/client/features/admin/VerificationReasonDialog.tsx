import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { ADMIN_MESSAGES, verificationDecisionSchema } from "../../../shared/schemas/admin";
import { Button } from "../../components/ui/Button";
import { ActionDialog, DialogActions } from "../../components/ui/Dialog";
import { FormField } from "../../components/ui/FormField";
import { Textarea } from "../../components/ui/Textarea";
import { isApiError } from "../../lib/api";
import { useFocusOnError } from "../../lib/form";
import { useOneAtATime } from "../../lib/onePress";
import { toastDecision } from "./AdminParts";
import { useVerificationDecision } from "./api";

/**
 * A verification decision the dentist reads the reason of in his e-mail: refusing his request
 * (« Vérifications ») or withdrawing his badge (the dentists' table, ADR 093's addendum). The reason
 * is checked as the server checks it before anything is sent; the server's refusal of it goes under
 * it, any other failure in a toast with the dialog kept open (a 409 — decided meanwhile — closes it
 * on the list read again).
 */
export function VerificationReasonDialog({
  dentistId,
  decision,
  title,
  description,
  label,
  placeholder,
  submitLabel,
  onClose,
}: {
  /** The dentist decided on; null: closed. */
  dentistId: string | null;
  decision: "refuse" | "unverify";
  title: string;
  description: string | undefined;
  label: string;
  placeholder?: string;
  submitLabel: string;
  onClose: () => void;
}) {
  const decide = useVerificationDecision();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const reasonField = useFocusOnError<HTMLTextAreaElement>(error);

  const close = () => {
    setReason("");
    setError(undefined);
    decide.reset();
    onClose();
  };

  // A double click sends once (isPending disables the button a moment after the first).
  const once = useOneAtATime();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!dentistId || decide.isPending) return;
    const parsed = verificationDecisionSchema.safeParse({ decision, reason });
    if (!parsed.success) {
      setError(parsed.error.issues.find((issue) => issue.path[0] === "reason")?.message);
      return;
    }
    once((done) =>
      decide.mutate(
        { id: dentistId, decision, reason: parsed.data.reason },
        {
          onSettled: done,
          onSuccess: (result) => {
            toastDecision(result);
            close();
          },
          onError: (failure) => {
            if (isApiError(failure) && failure.fields.reason) {
              setError(failure.fields.reason);
              return;
            }
            toast.error(ADMIN_MESSAGES.verificationFailed, { description: failure.message });
            if (isApiError(failure) && failure.status === 409) close();
          },
        },
      ),
    );
  };

  return (
    <ActionDialog
      open={dentistId !== null}
      onOpenChange={(open) => {
        if (!open && !decide.isPending) close();
      }}
      title={title}
      description={description}
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label={label} required error={error}>
          {(control) => (
            <Textarea
              ref={reasonField}
              {...control}
              value={reason}
              maxLength={1000}
              {...(placeholder ? { placeholder } : {})}
              onChange={(event) => {
                setReason(event.target.value);
                setError(undefined);
              }}
            />
          )}
        </FormField>
        <DialogActions cancelDisabled={decide.isPending}>
          <Button type="submit" variant="destructive" loading={decide.isPending}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}
