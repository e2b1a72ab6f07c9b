import { Check, Plus, X } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useId, useState } from "react";
import {
  COMMON_SPECIALTIES,
  SPECIALTIES_MAX,
  SPECIALTY_MAX_LENGTH,
} from "../../../shared/domain/specialties";
import { Button } from "../../components/ui/Button";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { cn } from "../../lib/cn";

const same = (a: string, b: string) => a.localeCompare(b, "fr", { sensitivity: "accent" }) === 0;

/** A titled list of chips (its title names the list), or what to say when it has none. */
function ChipGroup({
  id,
  title,
  empty,
  children,
}: {
  id: string;
  title: string;
  empty?: ReactNode;
  children: ReactNode[];
}) {
  return (
    <div className="grid gap-1.5">
      <p id={id} className="text-sm text-slate-700">
        {title}
      </p>
      {children.length ? (
        <ul aria-labelledby={id} className="flex flex-wrap gap-2">
          {children}
        </ul>
      ) : (
        empty
      )}
    </div>
  );
}

/** Adds a specialty only when non-empty after trimming, not already present (accents count, case does not) and under the maximum. */
export function addSpecialty(list: readonly string[], input: string): string[] | null {
  const value = input.trim();
  if (!value || list.some((s) => same(s, value)) || list.length >= SPECIALTIES_MAX) return null;
  return [...list, value];
}

interface SpecialtiesEditorProps {
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
}

/**
 * Specialties of a dentist: free text with 'Ajouter' (disabled while blank), the common specialties
 * (COMMON_SPECIALTIES) as toggle buttons, and the chosen ones as removable chips.
 */
export function SpecialtiesEditor({ value, onChange, error }: SpecialtiesEditorProps) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const blank = draft.trim() === "";

  const add = () => {
    const next = addSpecialty(value, draft);
    if (!next) {
      if (!blank) {
        setProblem(
          value.length >= SPECIALTIES_MAX
            ? `Vous pouvez indiquer ${SPECIALTIES_MAX} spécialités au plus.`
            : "Cette spécialité est déjà dans votre liste.",
        );
      }
      return;
    }
    onChange(next);
    setDraft("");
    setProblem(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the specialty instead of submitting the whole profile form.
    if (event.key === "Enter") {
      event.preventDefault();
      add();
    }
  };

  const toggle = (specialty: string) => {
    setProblem(null);
    onChange(
      value.some((s) => same(s, specialty))
        ? value.filter((s) => !same(s, specialty))
        : (addSpecialty(value, specialty) ?? value),
    );
  };

  const message = problem ?? error;
  return (
    <fieldset className="grid gap-3" aria-describedby={message ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-800">Spécialités</legend>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-input`} className="font-normal text-slate-700">
          Ajouter une spécialité
        </Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-input`}
            value={draft}
            maxLength={SPECIALTY_MAX_LENGTH}
            placeholder="Ex. : Occlusodontie"
            aria-invalid={problem ? true : undefined}
            aria-describedby={message ? `${id}-error` : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              if (problem) setProblem(null);
            }}
            onKeyDown={onKeyDown}
          />
          <Button type="button" variant="outline" onClick={add} disabled={blank}>
            <Plus aria-hidden="true" />
            Ajouter
          </Button>
        </div>
      </div>

      <ChipGroup id={`${id}-common`} title="Spécialités courantes">
        {COMMON_SPECIALTIES.map((specialty) => {
          const pressed = value.some((s) => same(s, specialty));
          return (
            <li key={specialty}>
              <button
                type="button"
                aria-pressed={pressed}
                onClick={() => toggle(specialty)}
                className={cn(
                  "inline-flex h-9 items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors",
                  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
                  pressed
                    ? "border-brand-700 bg-brand-700 text-white hover:bg-brand-800"
                    : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
                )}
              >
                {pressed ? <Check className="size-4" aria-hidden="true" /> : null}
                {specialty}
              </button>
            </li>
          );
        })}
      </ChipGroup>

      <ChipGroup
        id={`${id}-chosen`}
        title="Vos spécialités"
        empty={<p className="text-sm text-slate-600">Aucune spécialité pour le moment.</p>}
      >
        {value.map((specialty) => (
          <li
            key={specialty}
            className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm font-medium text-brand-900 ring-1 ring-brand-200 ring-inset"
          >
            {specialty}
            <button
              type="button"
              aria-label={`Retirer ${specialty}`}
              onClick={() => onChange(value.filter((s) => s !== specialty))}
              className="inline-flex size-7 items-center justify-center rounded-full text-brand-900 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ChipGroup>
      {message ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {message}
        </p>
      ) : null}
    </fieldset>
  );
}
