import { type ComponentProps, useId } from "react";
import { PasswordField } from "./FormField";
import { PasswordStrengthMeter } from "./PasswordStrengthMeter";

/**
 * A new password (sign-up, reset) with its strength meter under it, which the input points to
 * (aria-describedby). Spread `form.register(name)` and its `error` on it; `password` is the watched
 * value.
 */
export function NewPasswordField({
  label = "Mot de passe",
  password,
  userInputs,
  error,
  ...input
}: {
  label?: string;
  error?: string | undefined;
  password: string;
  /** Name, e-mail: they count as easy to guess. */
  userInputs?: string[];
} & Omit<ComponentProps<"input">, "id" | "required" | "type" | "autoComplete">) {
  const meterId = useId();
  return (
    <div className="grid gap-2">
      <PasswordField
        label={label}
        autoComplete="new-password"
        aria-describedby={meterId}
        error={error}
        {...input}
      />
      {/* The field's error is under the field: the meter does not say it again. */}
      <PasswordStrengthMeter id={meterId} password={password} userInputs={userInputs} fieldError={error} />
    </div>
  );
}
