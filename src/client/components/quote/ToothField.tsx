import { ChevronDown } from "lucide-react";
import { type ReactNode, useId, useRef, useState } from "react";
import { cn } from "../../lib/cn";
import { controlClasses } from "../ui/Input";
import { ToothChart, toothKind } from "./ToothChart";

/**
 * A compact tooth control for a quote line: a button showing the tooth ("36 · molaire" or "Sans dent")
 * that opens the ToothChart below it (a disclosure, so it works the same on a phone and by keyboard).
 * Choosing a tooth, or Escape, closes the chart and gives the focus back to the button.
 *
 * Renders two grid items: the labelled button, and the chart spanning the whole grid (under the other
 * fields from the `sm` breakpoint).
 */
export interface ToothFieldProps {
  value: number | null;
  onChange: (tooth: number | null) => void;
  /** The visible label, e.g. "Dent". */
  label: ReactNode;
  id?: string;
  invalid?: boolean;
  describedBy?: string;
  unfit?: (tooth: number) => boolean;
  onClose?: () => void;
  disabled?: boolean;
}

export function ToothField({
  value,
  onChange,
  label,
  id,
  invalid,
  describedBy,
  unfit,
  onClose,
  disabled,
}: ToothFieldProps) {
  const generated = useId();
  const buttonId = id ?? `${generated}-button`;
  const labelId = `${generated}-label`;
  const valueId = `${generated}-value`;
  const panelId = `${generated}-chart`;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  const close = () => {
    setOpen(false);
    button.current?.focus();
    onClose?.();
  };

  return (
    <>
      <div className="grid content-start gap-1.5">
        <span id={labelId} className="text-sm font-medium text-slate-800">
          {label}
        </span>
        <button
          ref={button}
          id={buttonId}
          type="button"
          disabled={disabled}
          aria-expanded={open}
          aria-controls={panelId}
          aria-labelledby={`${labelId} ${valueId}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onClick={() => (open ? close() : setOpen(true))}
          className={cn(
            controlClasses,
            "flex h-10 items-center justify-between gap-2 text-left tabular-nums",
          )}
        >
          <span id={valueId}>{value === null ? "Sans dent" : `${value} · ${toothKind(value)}`}</span>
          <ChevronDown
            className={cn("size-4 shrink-0 text-slate-600 transition-transform", open && "rotate-180")}
            aria-hidden="true"
          />
        </button>
      </div>
      {/* Escape anywhere in the chart closes it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the keys are handled by the chart's buttons. */}
      <div
        id={panelId}
        hidden={!open}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            event.stopPropagation();
            close();
          }
        }}
        className="col-span-full rounded-ui border border-slate-200 bg-slate-50 p-3 sm:order-last"
      >
        {open ? (
          <ToothChart
            value={value}
            autoFocus
            unfit={unfit}
            onChange={(tooth) => {
              onChange(tooth);
              close();
            }}
          />
        ) : null}
      </div>
    </>
  );
}
