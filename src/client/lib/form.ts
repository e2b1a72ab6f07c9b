import type { FieldValues, Path, UseFormReturn } from "react-hook-form";

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
