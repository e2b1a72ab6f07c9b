import { type ChangeEvent, useEffect, useRef } from "react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { isApiError } from "./api";

/**
 * `form.register(name)` together with the field's French error, to spread on an InputField:
 * `const field = fieldProps(form)` then `<EmailField {...field("email")} />`.
 */
export function fieldProps<T extends FieldValues>(form: UseFormReturn<T>) {
  return (name: Path<T>) => ({
    ...form.register(name),
    error: form.getFieldState(name, form.formState).error?.message,
  });
}

/**
 * The value and change handler of a controlled text field, to spread on an InputField or a
 * TextareaField: `const text = textProps(values, set)` then `<InputField {...text("name")} />`.
 */
export function textProps<K extends string>(
  values: Record<K, string>,
  set: (field: K, value: string) => void,
) {
  return (field: K) => ({
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(field, event.target.value),
  });
}

/**
 * The server's French errors of these fields, shown beside them (the first one focused); false
 * when the refusal named none of them, for the caller to say it another way (a toast).
 */
export function showFieldErrors<T extends FieldValues>(
  form: UseFormReturn<T>,
  error: unknown,
  fields: readonly Path<T>[],
): boolean {
  if (!isApiError(error)) return false;
  const named = fields.filter((name) => error.fields[name]);
  for (const name of named) form.setError(name, { message: error.fields[name] }, { shouldFocus: true });
  return named.length > 0;
}

/**
 * A field checked by hand (not react-hook-form): its ref, focused each time it gets an error, so the
 * error (wired by aria-describedby) is read with the field rather than shown in silence.
 */
export function useFocusOnError<E extends HTMLElement>(error: string | undefined) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (error) ref.current?.focus();
  }, [error]);
  return ref;
}
