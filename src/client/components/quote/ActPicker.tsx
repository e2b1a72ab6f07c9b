import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { actByCode, actByLabel, type ReferenceAct, searchActs, termsOn } from "../../../shared/domain/acts";
import { OFFER_LIMITS } from "../../../shared/domain/offers";
import { formatEuros } from "../../../shared/format/money";
import { cn } from "../../lib/cn";
import { controlClasses } from "../ui/Input";
import { BasketBadge } from "./BasketBadge";

export interface PickedAct {
  /** A code of the reference table, or null for a free line. */
  code: string | null;
  act: string;
}

/**
 * A combobox over the reference table of acts (ARIA 1.2 pattern: the input keeps the focus, the options
 * are pointed at with aria-activedescendant). Plain words ("couronne céramique molaire") or a code
 * ("HBLD634"); with a tooth, only the acts that fit it. The last option keeps the typed text as a free
 * line ("Acte hors liste : « … »"); leaving the field with a new text does the same.
 *
 * Label it like an input: pass `id` (with a <label htmlFor>) or `aria-label`.
 */
export interface ActPickerProps {
  value: PickedAct;
  onChange: (value: PickedAct) => void;
  tooth?: number | null;
  /** The tariff day ('YYYY-MM-DD'): the basket and BR shown are the ones in force that day. */
  day: string;
  id?: string;
  "aria-label"?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
  onBlur?: () => void;
}

type Option = { kind: "act"; act: ReferenceAct } | { kind: "free"; text: string };

const MAX_OPTIONS = 12;

export function ActPicker({
  value,
  onChange,
  tooth = null,
  day,
  id,
  placeholder = "ex. couronne céramique, HBLD634",
  onBlur,
  disabled,
  required,
  ...aria
}: ActPickerProps) {
  const generated = useId();
  const inputId = id ?? `${generated}-input`;
  const listId = `${generated}-options`;
  const [text, setText] = useState(value.act);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);

  // A value set from outside (a suggestion, "Reprendre les actes du devis") replaces the text.
  useEffect(() => {
    setText(value.act);
  }, [value.act]);

  const query = text.trim();
  const acts = searchActs(query, tooth).slice(0, MAX_OPTIONS);
  // A code, or a listed act's label typed in full: no « hors liste » option for it.
  const exact = actByCode(query) ?? actByLabel(query);
  const options: Option[] = acts.map((act) => ({ kind: "act", act }));
  if (query && !exact) options.push({ kind: "free", text: query.slice(0, OFFER_LIMITS.actMax) });

  const choose = (option: Option) => {
    const next: PickedAct =
      option.kind === "act"
        ? { code: option.act.code, act: option.act.label }
        : { code: null, act: option.text };
    setText(next.act);
    setOpen(false);
    setActive(-1);
    onChange(next);
  };

  /**
   * Leaving the field with a new text: a known code, or a listed act's label typed in full, becomes
   * its act; the chosen act's label with words added ("… (molaire), teinte A2") keeps its code;
   * anything else is a free line.
   */
  const commitText = () => {
    if (text === value.act) return;
    const known = actByCode(query) ?? actByLabel(query);
    const current = value.code ? actByCode(value.code) : undefined;
    if (known) onChange({ code: known.code, act: known.label });
    else if (current && query.startsWith(current.label))
      onChange({ code: current.code, act: query.slice(0, OFFER_LIMITS.actMax) });
    else onChange({ code: null, act: query.slice(0, OFFER_LIMITS.actMax) });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(event.altKey ? -1 : 0);
        } else setActive((i) => (options.length === 0 ? -1 : (i + 1) % options.length));
        break;
      case "ArrowUp":
        event.preventDefault();
        if (!open) setOpen(true);
        setActive((i) => (options.length === 0 ? -1 : i <= 0 ? options.length - 1 : i - 1));
        break;
      case "Enter": {
        const option = open ? options[active] : undefined;
        if (option) {
          event.preventDefault();
          choose(option);
        } else if (open) {
          event.preventDefault();
          setOpen(false);
          commitText();
        }
        break;
      }
      case "Escape":
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
          setActive(-1);
        } else if (text !== value.act) {
          event.preventDefault();
          setText(value.act);
        }
        break;
      case "Tab":
        setOpen(false);
        break;
    }
  };

  const expanded = open && options.length > 0;
  const optionId = (index: number) => `${generated}-option-${index}`;

  return (
    <div className="relative">
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-label={aria["aria-label"]}
        aria-invalid={aria["aria-invalid"] || undefined}
        aria-describedby={aria["aria-describedby"]}
        required={required}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        maxLength={OFFER_LIMITS.actMax}
        value={text}
        className={cn(controlClasses, "h-10")}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
          commitText();
          onBlur?.();
        }}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Actes proposés"
        hidden={!expanded}
        className="absolute z-30 mt-1 max-h-80 w-full min-w-72 overflow-auto rounded-ui border border-slate-200 bg-white p-1 shadow-lg"
      >
        {expanded
          ? options.map((option, index) => (
              // biome-ignore lint/a11y/useFocusableInteractive: the focus stays in the combobox (aria-activedescendant).
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are handled by the combobox.
              <div
                key={option.kind === "act" ? option.act.code : "free"}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                // Keep the focus in the input: the click chooses.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(option)}
                className={cn(
                  "cursor-pointer rounded-md px-2 py-1.5 text-sm text-slate-900",
                  index === active ? "bg-brand-50 outline-2 outline-brand-700" : "hover:bg-slate-50",
                )}
              >
                {option.kind === "act" ? (
                  <span className="grid gap-1">
                    <span>
                      <span className="font-mono font-semibold text-slate-700">{option.act.code}</span>{" "}
                      {option.act.label}
                    </span>
                    <ActTermsLine code={option.act.code} day={day} tooth={tooth} />
                  </span>
                ) : (
                  <span>Acte hors liste : « {option.text} »</span>
                )}
              </div>
            ))
          : null}
      </div>
      <span className="sr-only" aria-live="polite">
        {open && query
          ? `${acts.length} acte${acts.length > 1 ? "s" : ""} trouvé${acts.length > 1 ? "s" : ""}`
          : ""}
      </span>
    </div>
  );
}

/** The basket and BR of an act on the tariff day, under its name in the list. */
function ActTermsLine({ code, day, tooth }: { code: string; day: string; tooth: number | null }) {
  const terms = termsOn(code, day, tooth);
  if (!terms) return null;
  return (
    <span className="flex flex-wrap items-center gap-2 text-slate-600">
      <BasketBadge basket={terms.basket} />
      <span>BR {terms.brCents > 0 ? formatEuros(terms.brCents) : "non remboursé"}</span>
    </span>
  );
}
