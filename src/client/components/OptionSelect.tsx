import { type ComponentProps, type ReactNode, useId } from "react";
import { TREATMENT_LABELS, TREATMENT_TYPES, type TreatmentType } from "../../shared/domain/treatments";
import { cn } from "../lib/cn";
import { Label } from "./ui/Label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "./ui/Select";

type TriggerProps = Omit<ComponentProps<typeof SelectTrigger>, "value" | "defaultValue" | "children">;

interface OptionSelectProps<T extends string> extends TriggerProps {
  /** The chosen option; "" shows the placeholder. */
  value: T | "";
  options: readonly T[];
  /** What the person reads for an option (its French label). */
  labelOf: (option: T) => ReactNode;
  onValueChange: (option: T) => void;
  placeholder?: string;
  /** The form field's name, for a select inside a <form>. */
  name?: string;
  disabled?: boolean;
}

/** The treatment types (the upload page, the contact form), each by its French label. */
export function TreatmentSelect(props: Omit<OptionSelectProps<TreatmentType>, "options" | "labelOf">) {
  return <OptionSelect {...props} options={TREATMENT_TYPES} labelOf={(type) => TREATMENT_LABELS[type]} />;
}

/**
 * A select over a fixed list of options, each shown by its label. The other props (id, aria-*,
 * className, a FormField's control props) go to the trigger, the element that has the focus.
 */
export function OptionSelect<T extends string>({
  value,
  options,
  labelOf,
  onValueChange,
  placeholder,
  name,
  disabled,
  ...trigger
}: OptionSelectProps<T>) {
  return (
    <Select value={value} onValueChange={(next) => onValueChange(next as T)} name={name} disabled={disabled}>
      <SelectTrigger {...trigger}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option} value={option}>
            {labelOf(option)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** An OptionSelect under its visible label, which names it; `groupClassName` places the pair. */
export function LabelledSelect<T extends string>({
  label,
  groupClassName,
  ...select
}: OptionSelectProps<T> & { label: ReactNode; groupClassName?: string }) {
  const id = useId();
  return (
    <div className={cn("grid gap-1.5", groupClassName)}>
      <Label id={`${id}-label`} htmlFor={id}>
        {label}
      </Label>
      <OptionSelect id={id} aria-labelledby={`${id}-label`} {...select} />
    </div>
  );
}
