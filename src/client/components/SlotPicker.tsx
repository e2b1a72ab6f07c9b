import { format } from "date-fns";
import { CalendarPlus, X } from "lucide-react";
import { useId, useState } from "react";
import { DayPicker } from "react-day-picker";
import { fr } from "react-day-picker/locale/fr";
import { APPOINTMENT_LIMITS } from "../../shared/domain/appointments";
import { addDays, isFutureSlot, parisToday } from "../../shared/policies/offers";
import { APPOINTMENT_MESSAGES } from "../../shared/schemas/appointments";
import { Button } from "./ui/Button";
import { controlClasses } from "./ui/Input";

/*
 * A French date-and-time picker for one to `max` appointment times (ADR 011). Its value is a list of
 * Paris wall-clock times 'YYYY-MM-DDTHH:mm', sorted: the server reads them in Europe/Paris. The
 * person's computer may be elsewhere, so "today" and "already past" are computed in Paris.
 */

/** Every quarter of an hour from 08:00 to 19:30. */
export const SLOT_TIMES: readonly string[] = Array.from({ length: (19 - 8) * 4 + 3 }, (_, i) => {
  const minutes = 8 * 60 + i * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});

const LOCAL_SLOT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const LONG_DAY_WITH_YEAR = new Intl.DateTimeFormat("fr-FR", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const LONG_DAY = new Intl.DateTimeFormat("fr-FR", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

/**
 * A Paris wall-clock time 'YYYY-MM-DDTHH:mm' in French: "lundi 7 décembre 2026 à 14:30" (or
 * without the year). The string already is Paris time: it is formatted as is, whatever the
 * computer's time zone.
 */
export function formatLocalSlot(local: string, { year = true }: { year?: boolean } = {}): string {
  const match = LOCAL_SLOT.exec(local);
  if (!match) return local;
  const [, y, mo, d, h, mi] = match;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return `${(year ? LONG_DAY_WITH_YEAR : LONG_DAY).format(day)} à ${h}:${mi}`;
}

/** 'YYYY-MM-DD' → the local Date of that calendar day (the calendar only deals in days). */
function dayToDate(day: string): Date {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The calendar's local Date → 'YYYY-MM-DD'. */
function dateToDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

/**
 * The server's field errors on times (`slots`, `slots.0`…, `starts_at`) as one French sentence
 * per line: "Créneau 2 : Ce créneau est déjà passé…" when several times were sent.
 */
export function slotsFieldError(
  fields: Record<string, string>,
  slots: readonly string[] = [],
): string | undefined {
  const lines: string[] = [];
  if (fields.slots) lines.push(fields.slots);
  for (const [key, message] of Object.entries(fields)) {
    const match = /^slots\.(\d+)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const slot = slots[index];
    lines.push(
      slot
        ? `${formatLocalSlot(slot)} : ${message}`
        : slots.length > 1
          ? `Créneau ${index + 1} : ${message}`
          : message,
    );
  }
  if (fields.starts_at) lines.push(fields.starts_at);
  return lines.length > 0 ? lines.join("\n") : undefined;
}

/** A French error on the chosen times, one line per refused time (`slotsFieldError`). */
export function SlotsError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-sm font-medium whitespace-pre-line text-red-700">
      {error}
    </p>
  );
}

/** The times a person is choosing and the error on them; choosing again clears the error. */
export function useSlotsDraft() {
  const [slots, setSlots] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>();
  const onSlotsChange = (next: string[]) => {
    setError(undefined);
    setSlots(next);
  };
  return { slots, setSlots, error, setError, onSlotsChange };
}

/*
 * The calendar shrinks with its container: on a phone it sits inside two or three nested cards and
 * must not scroll sideways nor widen the page. Seven equal columns (table-fixed), days as circles
 * of at most 40 px (2.5rem), at least ~30 px on a 375 px screen.
 */
const calendarClasses = {
  root: "w-full overflow-x-auto rounded-ui border border-slate-200 bg-white p-2 sm:p-3",
  months: "flex flex-col",
  month: "grid grid-cols-[auto_1fr_auto] items-center gap-y-2",
  month_caption: "flex h-9 items-center justify-center",
  caption_label: "font-semibold text-slate-900 first-letter:uppercase",
  button_previous:
    "inline-flex size-9 items-center justify-center rounded-ui text-slate-700 hover:bg-slate-100 " +
    "aria-disabled:pointer-events-none aria-disabled:opacity-40",
  button_next:
    "inline-flex size-9 items-center justify-center rounded-ui text-slate-700 hover:bg-slate-100 " +
    "aria-disabled:pointer-events-none aria-disabled:opacity-40",
  chevron: "size-4 fill-current",
  month_grid: "col-span-3 w-full table-fixed border-collapse",
  weekdays: "",
  weekday: "h-8 px-0 text-center text-xs font-medium text-slate-600",
  weeks: "",
  week: "",
  day: "group p-0 py-px text-center",
  day_button:
    "mx-auto flex aspect-square w-full max-w-10 items-center justify-center rounded-full text-sm " +
    "text-slate-900 tabular-nums hover:bg-brand-50 " +
    "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700 " +
    "group-data-today:font-bold group-data-today:underline group-data-today:underline-offset-4 " +
    "group-data-selected:bg-brand-700 group-data-selected:text-white group-data-selected:hover:bg-brand-800 " +
    "disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent",
  selected: "",
  today: "",
  disabled: "",
  outside: "",
  hidden: "invisible",
  focused: "",
};

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

/** 'YYYY-MM-DD' → "lundi 7 décembre 2026". */
function formatDay(day: string): string {
  return LONG_DAY_WITH_YEAR.format(new Date(`${day}T00:00:00Z`));
}
