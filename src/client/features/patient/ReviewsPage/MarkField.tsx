import { useId } from "react";

/**
 * A mark from 1 to 5 as radio buttons in a fieldset (keyboard and screen readers: one group, arrows
 * move within it); an optional mark also offers "Sans note".
 */
export function MarkField({
  legend,
  value,
  onChange,
  required = false,
  error,
}: {
  legend: string;
  value: number | null;
  onChange: (value: number | null) => void;
  required?: boolean;
  error?: string | undefined;
}) {
  const name = useId();
  const errorId = `${name}-error`;
  const choices: (number | null)[] = required ? [1, 2, 3, 4, 5] : [null, 1, 2, 3, 4, 5];
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-900">
        {legend}
        {required ? (
          <span className="text-red-700"> *</span>
        ) : (
          <span className="text-slate-600"> (facultatif)</span>
        )}
      </legend>
      <div className="flex flex-wrap gap-2">
        {choices.map((choice) => (
          <label
            key={choice ?? "none"}
            className="flex min-w-11 cursor-pointer items-center justify-center gap-1.5 rounded-ui border border-slate-300 px-3 py-2 text-sm has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-2 has-focus-visible:outline-brand-700"
          >
            <input
              type="radio"
              name={name}
              className="size-4 accent-brand-700"
              checked={value === choice}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={() => onChange(choice)}
            />
            {choice === null ? "Sans note" : `${choice}/5`}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
