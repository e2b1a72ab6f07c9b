import { Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { type UseFormRegisterReturn, type UseFormReturn, useFieldArray } from "react-hook-form";
import { OFFER_LIMITS } from "../../../../shared/domain/offers";
import type { ProposalFormValues } from "../../../../shared/forms/offerForm";
import type { OfferValues } from "../../../../shared/schemas/offers";
import { Button } from "../../../components/ui/Button";
import { Input } from "../../../components/ui/Input";

/** 'Créneaux de rendez-vous proposés': up to three date + time rows, Paris time, each removable. */
export function SlotsField({
  form,
  min,
  max,
}: {
  form: UseFormReturn<ProposalFormValues, unknown, OfferValues>;
  /** The first and last days a slot may take (today, and the offers' horizon). */
  min: string;
  max: string;
}) {
  const slots = useFieldArray({ control: form.control, name: "slots" });
  const { errors } = form.formState;
  const slotsId = useId();
  const slotsError = errors.slots?.root?.message ?? errors.slots?.message;
  // A slot removed: the focus goes to « Ajouter un créneau » once it is rendered (enabled again if
  // the three were there), not to the body with the removed row's button.
  const addButton = useRef<HTMLButtonElement>(null);
  const [removals, setRemovals] = useState(0);
  useEffect(() => {
    if (removals > 0) addButton.current?.focus();
  }, [removals]);
  return (
    <fieldset className="grid gap-3" aria-describedby={`${slotsId}-help`}>
      <legend className="text-sm font-medium text-slate-800">
        Créneaux de rendez-vous proposés (optionnel)
      </legend>
      <p id={`${slotsId}-help`} className="text-sm text-slate-600">
        Heure de Paris. Trois créneaux au maximum ; le patient pourra en choisir un.
      </p>
      {slots.fields.length > 0 ? (
        <ul className="grid gap-3">
          {slots.fields.map((field, index) => (
            <SlotRow
              key={field.id}
              index={index}
              error={errors.slots?.[index]?.date?.message ?? errors.slots?.[index]?.message}
              min={min}
              max={max}
              dateProps={form.register(`slots.${index}.date`)}
              timeProps={form.register(`slots.${index}.time`)}
              onRemove={() => {
                slots.remove(index);
                setRemovals((n) => n + 1);
              }}
            />
          ))}
        </ul>
      ) : null}
      <div>
        <Button
          ref={addButton}
          variant="outline"
          size="sm"
          disabled={slots.fields.length >= OFFER_LIMITS.maxSlots}
          onClick={() => slots.append({ date: "", time: "" })}
        >
          <Plus aria-hidden="true" />
          Ajouter un créneau
        </Button>
      </div>
      {slotsError ? <p className="text-sm font-medium text-red-700">{slotsError}</p> : null}
    </fieldset>
  );
}

function SlotRow({
  index,
  error,
  min,
  max,
  dateProps,
  timeProps,
  onRemove,
}: {
  index: number;
  error: string | undefined;
  min: string;
  max: string;
  dateProps: UseFormRegisterReturn;
  timeProps: UseFormRegisterReturn;
  onRemove: () => void;
}) {
  const id = useId();
  const n = index + 1;
  const errorId = `${id}-error`;
  // Both inputs say they are invalid and point at the row's one message.
  const invalid = {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
  return (
    <li className="grid gap-2 rounded-ui border border-slate-200 p-3">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,8rem)_auto] sm:items-end">
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-date`} className="text-sm font-medium text-slate-800">
            Date du créneau {n}
          </label>
          <Input id={`${id}-date`} type="date" min={min} max={max} {...invalid} {...dateProps} />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-time`} className="text-sm font-medium text-slate-800">
            Heure du créneau {n}
          </label>
          <Input id={`${id}-time`} type="time" {...invalid} {...timeProps} />
        </div>
        <div>
          <Button variant="ghost" size="sm" aria-label={`Retirer le créneau ${n}`} onClick={onRemove}>
            <Trash2 aria-hidden="true" />
            Retirer
          </Button>
        </div>
      </div>
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </li>
  );
}
