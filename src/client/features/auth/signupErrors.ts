import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import { ACCOUNT_MESSAGES } from "../../../shared/schemas/account";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { isApiError, isNetworkError } from "../../lib/api";

export type SignupFailure = { kind: "network" } | { kind: "form"; message: string } | null;

/**
 * Sign-up failures: unreachable service → 'Problème de connexion' alert; e-mail already
 * used → beside the e-mail field; server field messages → beside their fields; otherwise the
 * server message or 'Une erreur s'est produite lors de l'inscription'. Always a toast.
 */
export function handleSignupError<T extends FieldValues>(
  error: unknown,
  form: UseFormReturn<T>,
  fieldNames: readonly string[],
): SignupFailure {
  toast.error("Erreur d'inscription", { description: "Vérifiez le formulaire et réessayez." });
  if (isNetworkError(error)) return { kind: "network" };
  if (!isApiError(error)) return { kind: "form", message: ACCOUNT_MESSAGES.signupUnexpected };
  if (error.code === ERROR_CODES.emailTaken || error.status === 409) {
    form.setError("email" as Path<T>, { message: ACCOUNT_MESSAGES.emailTaken }, { shouldFocus: true });
    return null;
  }
  const known = Object.entries(error.fields).filter(([field]) => fieldNames.includes(field));
  if (known.length > 0) {
    known.forEach(([field, message], index) => {
      form.setError(field as Path<T>, { message }, { shouldFocus: index === 0 });
    });
    return null;
  }
  if (error.status >= 500 || error.code === "HTTP_ERROR") {
    return { kind: "form", message: ACCOUNT_MESSAGES.signupUnexpected };
  }
  return { kind: "form", message: error.message || ACCOUNT_MESSAGES.signupUnexpected };
}
