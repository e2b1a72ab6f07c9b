import { type FormEvent, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import {
  type CoverErrors as Errors,
  type CoverField as Field,
  parseCover,
  type CoverValues as Values,
  valuesOf,
} from "../../../../shared/forms/coverForm";
import type { Cover } from "../../../../shared/schemas/quotes";
import { Button } from "../../../components/ui/Button";
import { Checkbox } from "../../../components/ui/Checkbox";
import { ConfirmDialog } from "../../../components/ui/Dialog";
import { FormField } from "../../../components/ui/FormField";
import { Input } from "../../../components/ui/Input";
import { Label } from "../../../components/ui/Label";
import { RadioCard } from "../../../components/ui/RadioCard";
import { isApiError } from "../../../lib/api";
import { useSaveCover } from "../api";
import { EuroInput } from "../EuroInput";

const SAVE_FAILED = "Votre mutuelle n'a pas été enregistrée";
const REMOVE_FAILED = "Votre mutuelle n'a pas été retirée";
/** The percentages most contracts offer for prosthetics, as one-click choices. */
const COMMON_PERCENTS = [100, 125, 150, 200, 300, 400];

/** The cover's form: the percentage of the BR, the ceilings, the 'contrat responsable' choice. */
export function CoverForm({ cover }: { cover: Cover | null }) {
  const save = useSaveCover();
  const [values, setValues] = useState<Values>(() => valuesOf(cover));
  const [errors, setErrors] = useState<Errors>({});
  const [removing, setRemoving] = useState(false);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const ids = useId();

  // The cover the server now holds (after saving or removing) becomes the form's values.
  useEffect(() => setValues(valuesOf(cover)), [cover]);

  const set = <K extends keyof Values>(key: K, value: Values[K], field?: Field) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (field && errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onError = (title: string) => (error: unknown) => {
    if (isApiError(error)) {
      const next: Errors = {};
      for (const [field, message] of Object.entries(error.fields)) {
        if (
          field === "percent_of_br" ||
          field === "annual_ceiling_cents" ||
          field === "implant_allowance_cents"
        )
          next[field] = message;
      }
      setErrors(next);
    }
    toast.error(title, {
      description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseCover(values);
    if ("errors" in parsed) {
      setErrors(parsed.errors);
      toast.error(SAVE_FAILED, { description: Object.values(parsed.errors)[0] });
      const form = event.currentTarget;
      setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    setRemoving(false);
    save.mutate(parsed.cover, {
      onSuccess: ({ message }) => {
        setErrors({});
        toast.success(message);
      },
      onError: onError(SAVE_FAILED),
    });
  };

  const onRemove = () => {
    setConfirmingRemoval(false);
    setRemoving(true);
    save.mutate(null, {
      onSuccess: ({ message }) => {
        setErrors({});
        toast.success(message);
      },
      onError: onError(REMOVE_FAILED),
    });
  };

  const roName = `${ids}-ro`;
  const responsibleId = `${ids}-responsible`;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Ma mutuelle" className="grid gap-6">
      <FormField
        label="Remboursement des prothèses dentaires (en % de la BR)"
        required
        error={errors.percent_of_br}
        description="Sur le tableau de garanties de votre contrat, à la ligne « prothèses dentaires » ou « couronnes » : par exemple 200 % BR. BR : la base de remboursement de l'Assurance Maladie. Entre 100 % et 500 %."
      >
        {(control) => (
          <div className="grid gap-2">
            <div className="relative max-w-40">
              <Input
                {...control}
                inputMode="numeric"
                autoComplete="off"
                className="pr-9"
                value={values.percent}
                onChange={(event) => set("percent", event.target.value, "percent_of_br")}
              />
              <span
                className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-slate-600"
                aria-hidden="true"
              >
                %
              </span>
            </div>
            <fieldset className="flex flex-wrap gap-2">
              <legend className="sr-only">Pourcentages courants</legend>
              {COMMON_PERCENTS.map((percent) => (
                <Button
                  key={percent}
                  type="button"
                  size="sm"
                  variant={values.percent === String(percent) ? "secondary" : "outline"}
                  aria-pressed={values.percent === String(percent)}
                  onClick={() => set("percent", String(percent), "percent_of_br")}
                >
                  {percent} %
                </Button>
              ))}
            </fieldset>
          </div>
        )}
      </FormField>

      <fieldset className="grid gap-2">
        <legend className="mb-1.5 text-sm font-medium text-slate-800">
          Ce pourcentage comprend-il l'Assurance Maladie ?
        </legend>
        <RadioCard
          name={roName}
          value="included"
          checked={values.ro_included}
          onChange={() => set("ro_included", true)}
        >
          <span className="block font-medium">RO inclus</span>
          <span className="block text-sm text-slate-600">
            Le pourcentage comprend les 60 % de l'Assurance Maladie (le cas le plus fréquent, noté « RO
            inclus » ou « y compris Sécurité sociale »).
          </span>
        </RadioCard>
        <RadioCard
          name={roName}
          value="on_top"
          checked={!values.ro_included}
          onChange={() => set("ro_included", false)}
        >
          <span className="block font-medium">En plus de l'Assurance Maladie</span>
          <span className="block text-sm text-slate-600">
            La mutuelle verse ce pourcentage en plus de l'Assurance Maladie (noté « en plus du RO » ou « hors
            Sécurité sociale »).
          </span>
        </RadioCard>
      </fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <AmountField
          label="Plafond annuel pour les prothèses (optionnel)"
          description="Ce que votre mutuelle rembourse au plus par an pour les prothèses dentaires. Laissez vide s'il n'y en a pas."
          error={errors.annual_ceiling_cents}
          value={values.ceiling}
          onChange={(value) => set("ceiling", value, "annual_ceiling_cents")}
        />
        <AmountField
          label="Forfait implant annuel (optionnel)"
          description="L'Assurance Maladie ne rembourse pas les implants ; certaines mutuelles prévoient un forfait par an."
          error={errors.implant_allowance_cents}
          value={values.implant}
          onChange={(value) => set("implant", value, "implant_allowance_cents")}
        />
      </div>

      <div className="flex items-start gap-3">
        <Checkbox
          id={responsibleId}
          checked={values.responsible}
          onCheckedChange={(checked) => set("responsible", checked === true)}
          aria-describedby={`${responsibleId}-description`}
          className="mt-0.5"
        />
        <div className="grid gap-0.5">
          <Label htmlFor={responsibleId}>Contrat responsable</Label>
          <p id={`${responsibleId}-description`} className="text-sm text-slate-600">
            La plupart des contrats le sont. Les actes 100 % Santé ne vous coûtent alors rien, dans la limite
            de leur plafond.
          </p>
        </div>
      </div>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={save.isPending && !removing}>
          Enregistrer ma mutuelle
        </Button>
        {cover ? (
          <Button
            type="button"
            variant="destructive-ghost"
            loading={save.isPending && removing}
            onClick={() => setConfirmingRemoval(true)}
          >
            Retirer ma mutuelle
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirmingRemoval}
        onOpenChange={setConfirmingRemoval}
        title="Retirer votre mutuelle ?"
        description="Les estimations de votre reste à charge ne compteront plus que le remboursement de l'Assurance Maladie. Vous pourrez la saisir à nouveau à tout moment."
        confirmLabel="Retirer ma mutuelle"
        destructive
        onConfirm={onRemove}
      />
    </form>
  );
}

function AmountField({
  label,
  description,
  error,
  value,
  onChange,
}: {
  label: string;
  description: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormField label={label} description={description} error={error}>
      {(control) => (
        <EuroInput {...control} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </FormField>
  );
}
