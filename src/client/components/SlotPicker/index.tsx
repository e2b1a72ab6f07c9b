import { format } from "date-fns";
import { CalendarPlus, X } from "lucide-react";
import { useId, useState } from "react";
import { DayPicker } from "react-day-picker";
import { fr } from "react-day-picker/locale/fr";
import { APPOINTMENT_LIMITS } from "../../../shared/domain/appointments";
import { addDays, isFutureSlot, parisToday } from "../../../shared/policies/offers";
import { APPOINTMENT_MESSAGES } from "../../../shared/schemas/appointments";
import { Button } from "../ui/Button";
import { controlClasses } from "../ui/Input";
import { calendarClasses } from "./calendarClasses";
import { SlotsError } from "./SlotsDraft";
import { dateToDay, dayToDate, formatDay, formatLocalSlot, SLOT_TIMES } from "./slots";

export { SlotsError, useSlotsDraft } from "./SlotsDraft";
export { formatLocalSlot, SLOT_TIMES, slotsFieldError } from "./slots";

/*
 * A French date-and-time picker for one to `max` appointment times (ADR 011). Its value is a list of
 * Paris wall-clock times 'YYYY-MM-DDTHH:mm', sorted: the server reads them in Europe/Paris. The
 * person's computer may be elsewhere, so "today" and "already past" are computed in Paris.
 */

export interface SlotPickerProps {
  /** Paris wall-clock times 'YYYY-MM-DDTHH:mm', sorted. */
  value: string[];
  onChange: (slots: string[]) => void;
  /** How many times may be chosen (3 by default). */
  max?: number;
  /** The group's title. */
  legend?: string;
  /** Help under the title. */
  description?: string;
  /** A field error from the server (`fields['slots.0']`…), shown under the picker. */
  error?: string;
  /** The present (tests); the computer's clock by default. */
  now?: Date;
  disabled?: boolean;
}

/** Calendar + time + 'Ajouter ce créneau', then the chosen times as removable chips. */
export function SlotPicker({
  value,
  onChange,
  max = APPOINTMENT_LIMITS.maxOptions,
  legend = "Vos disponibilités",
  description,
  error,
  now: nowProp,
  disabled = false,
}: SlotPickerProps) {
  const id = useId();
  const now = nowProp ?? new Date();
  const today = parisToday(now);
  const horizon = addDays(today, APPOINTMENT_LIMITS.horizonDays);
  const [day, setDay] = useState<string | null>(null);
  const [time, setTime] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const full = value.length >= max;
  const candidate = day && time ? `${day}T${time}` : null;
  const dateLabelId = `${id}-date-label`;
  const dayTextId = `${id}-day`;
  const timeId = `${id}-time`;
  const descriptionId = `${id}-description`;
  const problemId = `${id}-problem`;
  const errorId = `${id}-error`;
  const countId = `${id}-count`;
  const describedBy =
    [description ? descriptionId : null, countId, problem ? problemId : null, error ? errorId : null]
      .filter(Boolean)
      .join(" ") || undefined;

  const add = () => {
    if (full) return setProblem(APPOINTMENT_MESSAGES.tooManySlots);
    if (!day) return setProblem("Choisissez d'abord une date dans le calendrier.");
    if (!time || !candidate) return setProblem("Choisissez une heure.");
    if (!isFutureSlot(candidate, now)) return setProblem(APPOINTMENT_MESSAGES.slotPast);
    if (day > horizon) return setProblem(APPOINTMENT_MESSAGES.slotTooFar);
    if (value.includes(candidate)) return setProblem("Vous avez déjà choisi ce créneau.");
    setProblem(null);
    setTime("");
    onChange([...value, candidate].sort());
  };

  const remove = (slot: string) => {
    setProblem(null);
    onChange(value.filter((s) => s !== slot));
  };

  return (
    <fieldset className="grid min-w-0 gap-4" aria-describedby={describedBy} disabled={disabled}>
      <legend className="mb-1 font-semibold text-slate-900">{legend}</legend>
      {description ? (
        <p id={descriptionId} className="-mt-2 text-sm text-slate-600">
          {description}
        </p>
      ) : null}

      <div className="flex flex-wrap items-start gap-4">
        {/* 7 × 40 px days + padding and border: the calendar's full size, smaller when room lacks. */}
        <div className="grid w-full max-w-[19.125rem] min-w-0 gap-1.5">
          <p id={dateLabelId} className="text-sm font-medium text-slate-800">
            Date
          </p>
          <DayPicker
            mode="single"
            required
            locale={fr}
            weekStartsOn={1}
            navLayout="around"
            aria-labelledby={dateLabelId}
            today={dayToDate(today)}
            defaultMonth={dayToDate(day ?? today)}
            startMonth={dayToDate(today)}
            endMonth={dayToDate(horizon)}
            disabled={[{ before: dayToDate(today) }, { after: dayToDate(horizon) }]}
            selected={day ? dayToDate(day) : undefined}
            onSelect={(date) => {
              setProblem(null);
              setDay(date ? dateToDay(date) : null);
            }}
            formatters={{ formatWeekdayName: (date) => format(date, "EEE", { locale: fr }) }}
            classNames={calendarClasses}
          />
        </div>

        <div className="grid min-w-44 gap-3">
          <p id={dayTextId} className="text-sm text-slate-700" aria-live="polite">
            {day ? (
              <>
                Date choisie : <span className="font-medium text-slate-900">{formatDay(day)}</span>
              </>
            ) : (
              "Aucune date choisie."
            )}
          </p>
          <div className="grid gap-1.5">
            <label htmlFor={timeId} className="text-sm font-medium text-slate-800">
              Heure
            </label>
            <select
              id={timeId}
              className={`${controlClasses} h-10`}
              value={time}
              aria-invalid={error || problem ? true : undefined}
              aria-describedby={[dayTextId, problem ? problemId : null, error ? errorId : null]
                .filter(Boolean)
                .join(" ")}
              onChange={(event) => {
                setProblem(null);
                setTime(event.target.value);
              }}
            >
              <option value="">Choisir l'heure</option>
              {SLOT_TIMES.map((t) => (
                <option key={t} value={t} disabled={day !== null && !isFutureSlot(`${day}T${t}`, now)}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={add} aria-disabled={full || undefined}>
            <CalendarPlus aria-hidden="true" />
            Ajouter ce créneau
          </Button>
        </div>
      </div>

      {problem ? (
        <p id={problemId} role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      ) : null}

      <div className="grid gap-2">
        <p id={countId} className="text-sm text-slate-600">
          {value.length === 0
            ? `Aucun créneau choisi (${max} au maximum).`
            : `${value.length} créneau${value.length > 1 ? "x" : ""} choisi${value.length > 1 ? "s" : ""} sur ${max} au maximum.`}
        </p>
        {value.length > 0 ? (
          <ul className="flex flex-wrap gap-2" aria-label="Créneaux choisis">
            {value.map((slot) => (
              <li
                key={slot}
                className="inline-flex items-center gap-1 rounded-2xl bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-900 ring-1 ring-brand-200 ring-inset"
              >
                <span>{formatLocalSlot(slot)}</span>
                <button
                  type="button"
                  className="inline-flex size-7 items-center justify-center rounded-full text-brand-800 hover:bg-brand-100"
                  aria-label={`Retirer le créneau du ${formatLocalSlot(slot, { year: false })}`}
                  onClick={() => remove(slot)}
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>

      <SlotsError id={errorId} error={error} />
    </fieldset>
  );
}
