import { type ComponentProps, type ComponentType, type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { CharacterCount, type CharacterLimit, characterCountShown } from "./CharacterCount";
import { Input } from "./Input";
import { Label } from "./Label";
import { Textarea } from "./Textarea";

export interface FieldControlProps {
  id: string;
  required?: boolean;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  /** With a `counter`: its limit, so that the browser cuts at the count's limit. */
  maxLength?: number;
}

interface FormFieldProps {
  label: ReactNode;
  /** French error shown under the control; wires aria-invalid and aria-describedby. */
  error?: string;
  description?: ReactNode;
  required?: boolean;
  className?: string;
  /** A long text's limit: « N / MAX caractères » under the control near it, and its `maxLength`. */
  counter?: CharacterLimit;
  /** Receives the props to spread on the control (id, aria-*). */
  children: (control: FieldControlProps) => ReactNode;
}

/** Label + control + help text + French error, with the ARIA wiring between them. */
export function FormField({
  label,
  error,
  description,
  required,
  className,
  counter,
  children,
}: FormFieldProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const counterId = `${id}-counter`;
  const errorId = `${id}-error`;
  const describedBy = [
    description ? descriptionId : null,
    counter && characterCountShown(counter) ? counterId : null,
    error ? errorId : null,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={cn("grid content-start gap-1.5", className)}>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      {children({
        id,
        required: required || undefined,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
        ...(counter ? { maxLength: counter.max } : {}),
      })}
      {description ? (
        <p id={descriptionId} className="text-sm text-slate-600">
          {description}
        </p>
      ) : null}
      {counter ? <CharacterCount id={counterId} {...counter} /> : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type ControlFieldProps<E extends "input" | "textarea"> = Omit<FormFieldProps, "children" | "className"> &
  Omit<ComponentProps<E>, "id" | "required"> & {
    /** The field's own class (its place in a grid); `className` is the control's. */
    fieldClassName?: string;
  };

/**
 * A FormField around one control: spread `form.register(name)` on it like on the control itself;
 * an extra `aria-describedby` is kept beside the field's own.
 */
function controlField<E extends "input" | "textarea">(Control: ComponentType<ComponentProps<E>>) {
  return function ControlField({
    label,
    error,
    description,
    required,
    counter,
    fieldClassName,
    "aria-describedby": extra,
    ...control
  }: ControlFieldProps<E>) {
    const field = { label, error, description, required, counter, className: fieldClassName };
    return (
      <FormField {...field}>
        {(wiring) => (
          <Control
            {...wiring}
            aria-describedby={[wiring["aria-describedby"], extra].filter(Boolean).join(" ") || undefined}
            {...(control as ComponentProps<E>)}
          />
        )}
      </FormField>
    );
  };
}

type InputFieldProps = ControlFieldProps<"input">;

/** The usual FormField: a text, e-mail or password input with its label, help text and error. */
export const InputField = controlField<"input">(Input);

/** A FormField with a text area (descriptions, messages, a biography). */
export const TextareaField = controlField<"textarea">(Textarea);

/** 'E-mail', required, with the browser's e-mail keyboard and autofill. */
export function EmailField({
  label = "E-mail",
  ...props
}: Omit<InputFieldProps, "label"> & { label?: string }) {
  return <InputField label={label} required type="email" autoComplete="email" {...props} />;
}

/** A required password input; `autoComplete` says whether it is the current or a new one. */
export function PasswordField({
  autoComplete = "current-password",
  ...props
}: InputFieldProps & { autoComplete?: "current-password" | "new-password" }) {
  return <InputField required type="password" autoComplete={autoComplete} {...props} />;
}
