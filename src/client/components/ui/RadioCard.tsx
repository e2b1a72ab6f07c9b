import type { ReactNode } from "react";

/** One choice of a radio group drawn as a card: the whole card is the label. */
export function RadioCard({
  name,
  value,
  checked,
  disabled = false,
  invalid = false,
  describedBy,
  onChange,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  disabled?: boolean;
  invalid?: boolean;
  /** The id of what describes the choice: the group's error, when invalid. */
  describedBy?: string | undefined;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-3 rounded-ui border border-slate-200 px-3 py-2.5 has-checked:border-brand-700 has-checked:bg-brand-50 has-disabled:cursor-not-allowed has-disabled:opacity-60">
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={onChange}
        className="size-4 accent-brand-700"
      />
      <span className="text-slate-900">{children}</span>
    </label>
  );
}
