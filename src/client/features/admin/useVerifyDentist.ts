import { toast } from "sonner";
import { type VerificationField, verifiedFactsOf } from "../../../shared/policies/verification";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import { isApiError } from "../../lib/api";
import { useOneAtATime } from "../../lib/onePress";
import { useVerificationDecision } from "./api";

/**
 * « Vérifier ce dentiste ? » confirmed, from the queue or the dentists' table: the decision with the
 * RPPS number and practice the screen showed (ADR 076), once for a double click. `close` shuts the
 * dialog on success, and on a 409 (his details changed since, another account holds the number, …:
 * the list is read again); a failure of the network keeps it open to try again.
 */
export function useVerifyDentist(close: () => void) {
  const decide = useVerificationDecision();
  const once = useOneAtATime();
  const verify = (dentist: { id: string } & Record<VerificationField, string | null>) =>
    once((done) =>
      decide.mutate(
        { id: dentist.id, decision: "verify", checked: verifiedFactsOf(dentist) },
        {
          onSettled: done,
          onSuccess: (result) => {
            toast.success(result.message);
            close();
          },
          onError: (error) => {
            toast.error(ADMIN_MESSAGES.verificationFailed, { description: error.message });
            if (isApiError(error) && error.status === 409) close();
          },
        },
      ),
    );
  return { verify, verifying: decide.isPending };
}
