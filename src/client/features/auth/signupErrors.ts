import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { isApiError, isNetworkError } from "../../lib/api";

export type SignupFailure = { kind: "network" } | { kind: "form"; message: string } | null;

/**
 * Sign-up failures: unreachable service → 'Problème de connexion' alert; e-mail already
 * used → beside the e-mail field; server field messages → beside their fields; otherwise the
 * server message or 'Une erreur s'est produite lors de l'inscription'. Always a toast, « Erreur
 * d'inscription », whose description says the same cause (never « vérifiez le formulaire » for a
 * network failure): an e-mail already used points to signing in, for the account may be the one
 * whose first answer was lost.
 */
export function handleSignupError<T extends FieldValues>(
  error: unknown,
  form: UseFormReturn<T>,
  fieldNames: readonly string[],
): SignupFailure {
  const fail = (description: string) => toast.error("Erreur d'inscription", { description });
  if (isNetworkError(error)) {
    fail(ACCOUNT_MESSAGES.serviceUnreachable);
    return { kind: "network" };
  }
  if (!isApiError(error)) {
    fail(ACCOUNT_MESSAGES.signupUnexpected);
    return { kind: "form", message: ACCOUNT_MESSAGES.signupUnexpected };
  }
  if (error.code === ERROR_CODES.emailTaken || error.status === 409) {
    fail(ACCOUNT_MESSAGES.emailTakenHint);
    form.setError("email" as Path<T>, { message: ACCOUNT_MESSAGES.emailTaken }, { shouldFocus: true });
    return null;
  }
  const known = Object.entries(error.fields).filter(([field]) => fieldNames.includes(field));
  if (known.length > 0) {
    fail("Vérifiez le formulaire et réessayez.");
    known.forEach(([field, message], index) => {
      form.setError(field as Path<T>, { message }, { shouldFocus: index === 0 });
    });
    return null;
  }
  const message =
    error.status >= 500 || error.code === "HTTP_ERROR"
      ? ACCOUNT_MESSAGES.signupUnexpected
      : error.message || ACCOUNT_MESSAGES.signupUnexpected;
  fail(message);
  return { kind: "form", message };
}
