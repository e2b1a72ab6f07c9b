import { type ComponentProps, useEffect, useRef, useState } from "react";
import type { FieldErrors } from "../../../shared/forms/profileForm";
import type { CharacterLimit } from "../ui/CharacterCount";
import { InputField } from "../ui/FormField";
import type { Input } from "../ui/Input";

/**
 * The form state of 'Mon profil' (patients and dentists): its values, the message under each field,
 * `set` (which clears that field's message). A newer saved profile (after saving, or from another
 * tab) becomes the form's values. Errors shown (`setErrors`) focus the first field in error of the
 * form given `formRef`, so its message is read with it.
 */
export function useProfileValues<T extends object>(saved: T) {
  const savedKey = JSON.stringify(saved);
  const [values, setValues] = useState<T>(saved);
  const [errors, setShownErrors] = useState<FieldErrors<Extract<keyof T, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const [shown, setShown] = useState(0);

  useEffect(() => {
    if (shown > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [shown]);

  const setErrors = (next: FieldErrors<Extract<keyof T, string>>) => {
    setShownErrors(next);
    setShown((n) => n + 1);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: savedKey stands for `saved`'s content.
  useEffect(() => setValues(saved), [savedKey]);

  const set = <K extends Extract<keyof T, string>>(field: K, value: T[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setShownErrors((current) => ({ ...current, [field]: undefined }));
  };
  return { values, errors, setErrors, set, formRef };
}

type InputProps = Omit<ComponentProps<typeof Input>, "value" | "onChange" | "id" | "className">;

/** The toast of a profile's save: a success takes the place of a failure's still shown. */
export const PROFILE_TOAST = "profile-save";

/** A labelled text input of a profile form, its message below it; `onChange` receives the text. */
export function TextField({
  className,
  onChange,
  ...field
}: InputProps & {
  label: string;
  required?: boolean;
  description?: string;
  error?: string;
  className?: string;
  /** A count under the field near its limit (which becomes its maxLength). */
  counter?: CharacterLimit;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <InputField {...field} fieldClassName={className} onChange={(event) => onChange(event.target.value)} />
  );
}
