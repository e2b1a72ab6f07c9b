import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { Label } from "./Label";

export interface FieldControlProps {
  id: string;
  required?: boolean;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

interface FormFieldProps {
  label: ReactNode;
  /** French error shown under the control; wires aria-invalid and aria-describedby. */
  error?: string;
  description?: ReactNode;
  required?: boolean;
  className?: string;
  /** Receives the props to spread on the control (id, aria-*). */
  children: (control: FieldControlProps) => ReactNode;
}

/** Label + control + help text + French error, with the ARIA wiring between them. */
export function FormField({ label, error, description, required, className, children }: FormFieldProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      {children({
        id,
        required: required || undefined,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {description ? (
        <p id={descriptionId} className="text-sm text-slate-600">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
