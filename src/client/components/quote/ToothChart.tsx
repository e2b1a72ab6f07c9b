import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { cn } from "../../lib/cn";

/**
 * The adult teeth in FDI notation, drawn as dentists draw them (the patient faces you: their right is on
 * the left of the screen): upper arch 18…11 | 21…28, lower arch 48…41 | 31…38. One tooth at a time
 * (`value`), or "Sans dent (arcade entière)" (`null`) for the acts that cover an arch.
 *
 * Keyboard: one Tab stop; the arrows move along and across the arches, Home/End to the ends, typing
 * two digits ("36") jumps to that tooth, Enter or Space chooses. On a phone the quadrants stack.
 */
export interface ToothChartProps {
  value: number | null;
  onChange: (tooth: number | null) => void;
  /** Offer "Sans dent (arcade entière)"; default true. */
  allowNone?: boolean;
  /** Accessible name of the group; default "Schéma dentaire". */
  label?: string;
  /** Teeth to draw as not fitting the chosen act (still choosable: the line then says why). */
  unfit?: (tooth: number) => boolean;
  className?: string;
  /** Focus the chosen (or first) tooth when mounted, e.g. when opened from a disclosure. */
  autoFocus?: boolean;
}

const range = (quadrant: number, reverse: boolean) => {
  const teeth = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => quadrant * 10 + n);
  return reverse ? teeth.reverse() : teeth;
};

/** The two arches as rows of 16 teeth, in screen order. */
export const UPPER_ARCH = [...range(1, true), ...range(2, false)];
export const LOWER_ARCH = [...range(4, true), ...range(3, false)];
const ROWS = [UPPER_ARCH, LOWER_ARCH];
const ALL_TEETH = [...UPPER_ARCH, ...LOWER_ARCH];

const QUADRANTS = [
  { teeth: range(1, true), label: "Haut, côté droit du patient" },
  { teeth: range(2, false), label: "Haut, côté gauche du patient" },
  { teeth: range(4, true), label: "Bas, côté droit du patient" },
  { teeth: range(3, false), label: "Bas, côté gauche du patient" },
];

/** The kind of a tooth from its position: 1–2 incisive, 3 canine, 4–5 prémolaire, 6–8 molaire. */
export function toothKind(tooth: number): string {
  const position = tooth % 10;
  if (position <= 2) return "incisive";
  if (position === 3) return "canine";
  if (position <= 5) return "prémolaire";
  return "molaire";
}

/** "Dent 36 (molaire)": the accessible name of a tooth. */
export const toothLabel = (tooth: number) => `Dent ${tooth} (${toothKind(tooth)})`;

export function ToothChart({
  value,
  onChange,
  allowNone = true,
  label = "Schéma dentaire",
  unfit,
  className,
  autoFocus = false,
}: ToothChartProps) {
  const chosen = value !== null && ALL_TEETH.includes(value) ? value : null;
  // The one tooth in the Tab order (roving tabindex): the chosen tooth, else 11.
  const [current, setActive] = useState<number>(chosen ?? 11);
  useEffect(() => {
    if (chosen !== null) setActive(chosen);
  }, [chosen]);
  const buttons = useRef(new Map<number, HTMLButtonElement>());
  const typed = useRef({ digits: "", at: 0 });

  const move = (tooth: number) => {
    setActive(tooth);
    buttons.current.get(tooth)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, tooth: number) => {
    const row = UPPER_ARCH.includes(tooth) ? 0 : 1;
    const col = (ROWS[row] as number[]).indexOf(tooth);
    let next: number | undefined;
    switch (event.key) {
      case "ArrowLeft":
        next = ROWS[row]?.[Math.max(0, col - 1)];
        break;
      case "ArrowRight":
        next = ROWS[row]?.[Math.min(15, col + 1)];
        break;
      case "ArrowUp":
        next = row === 1 ? UPPER_ARCH[col] : tooth;
        break;
      case "ArrowDown":
        next = row === 0 ? LOWER_ARCH[col] : tooth;
        break;
      case "Home":
        next = ROWS[row]?.[0];
        break;
      case "End":
        next = ROWS[row]?.[15];
        break;
      default:
        if (/^[1-8]$/.test(event.key)) {
          const now = Date.now();
          const digits = now - typed.current.at < 1000 ? typed.current.digits + event.key : event.key;
          typed.current = { digits: digits.slice(-2), at: now };
          const wanted = Number(typed.current.digits);
          if (typed.current.digits.length === 2 && ALL_TEETH.includes(wanted)) next = wanted;
        }
    }
    if (next !== undefined) {
      event.preventDefault();
      move(next);
    }
  };

  const toothButton = (tooth: number) => {
    const pressed = chosen === tooth;
    const notFit = unfit?.(tooth) ?? false;
    return (
      <button
        key={tooth}
        type="button"
        ref={(element) => {
          if (element) buttons.current.set(tooth, element);
          else buttons.current.delete(tooth);
        }}
        // biome-ignore lint/a11y/noAutofocus: opened on purpose from the line's "Dent" button.
        autoFocus={autoFocus && tooth === current}
        tabIndex={tooth === current ? 0 : -1}
        aria-pressed={pressed}
        aria-label={toothLabel(tooth)}
        title={notFit ? `${toothLabel(tooth)} : ne convient pas à l'acte choisi` : toothLabel(tooth)}
        onClick={() => {
          setActive(tooth);
          onChange(tooth);
        }}
        onKeyDown={(event) => onKeyDown(event, tooth)}
        onFocus={() => setActive(tooth)}
        className={cn(
          "h-10 min-w-0 rounded-md border text-sm font-medium tabular-nums transition-colors",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
          pressed
            ? "border-brand-800 bg-brand-700 text-white"
            : notFit
              ? "border-dashed border-slate-300 bg-slate-50 text-slate-600 hover:bg-slate-100"
              : "border-slate-300 bg-white text-slate-900 hover:bg-brand-50",
        )}
      >
        {tooth}
      </button>
    );
  };

  return (
    <fieldset className={cn("grid min-w-0 gap-3", className)}>
      <legend className="sr-only">{label}</legend>
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-x-3">
        {QUADRANTS.map((quadrant, index) => (
          <div
            key={quadrant.label}
            className={cn(
              "grid gap-1",
              // The midline between the patient's right and left, and between the arches.
              index % 2 === 0 ? "sm:border-r sm:border-slate-300 sm:pr-3" : "",
              index < 2 ? "sm:border-b sm:border-slate-300 sm:pb-2" : "",
            )}
          >
            <span className="text-xs text-slate-600">{quadrant.label}</span>
            <div className="grid grid-cols-8 gap-1">{quadrant.teeth.map(toothButton)}</div>
          </div>
        ))}
      </div>
      {allowNone ? (
        <button
          type="button"
          aria-pressed={value === null}
          onClick={() => onChange(null)}
          className={cn(
            "h-10 justify-self-start rounded-md border px-3 text-sm font-medium",
            "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
            value === null
              ? "border-brand-800 bg-brand-700 text-white"
              : "border-slate-300 bg-white text-slate-900 hover:bg-brand-50",
          )}
        >
          Sans dent (arcade entière)
        </button>
      ) : null}
      <p className="text-xs text-slate-600">
        Au clavier : flèches pour se déplacer, Entrée pour choisir, ou tapez le numéro (ex. 36).
      </p>
    </fieldset>
  );
}
