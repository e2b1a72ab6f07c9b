import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { consentText } from "../../../../shared/domain/consent";
import { type DentistSort, formatDistance, GEO_MESSAGES } from "../../../../shared/domain/geo";
import type { UploadFieldErrors, UploadValues } from "../../../../shared/forms/uploadForm";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/Card";
import { Checkbox } from "../../../components/ui/Checkbox";
import { FormField } from "../../../components/ui/FormField";
import { Label } from "../../../components/ui/Label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/Select";
import { useConfig } from "../../../lib/config";
import { useSession } from "../../../lib/session";
import { useVerifiedDentists } from "../api";
import type { SetUploadField } from "./TreatmentCard";

const DENTISTS_LOAD_ERROR = "Impossible de charger la liste des dentistes. Veuillez réessayer plus tard.";

const dentistLabel = (d: { full_name: string; city: string | null; distance_km?: number | null }) =>
  [d.city ? `Dr ${d.full_name} — ${d.city}` : `Dr ${d.full_name}`, formatDistance(d.distance_km)]
    .filter(Boolean)
    .join(" · ");

/**
 * 'Destinataire et confidentialité': every verified dentist (the default) or one of them, listed
 * by name or, when the patient asks, nearest first (ADR 019); then the consent to share the
 * documents with them.
 */
export function RecipientCard({
  values,
  set,
  errors,
  sending,
}: {
  values: UploadValues;
  set: SetUploadField;
  errors: UploadFieldErrors;
  sending: boolean;
}) {
  const { brand_name: brand } = useConfig();
  const { profile } = useSession();
  // The neutral order (by name) unless the patient picks 'Les plus proches' (ADR 019).
  const [dentistSort, setDentistSort] = useState<DentistSort>("name");
  const dentists = useVerifiedDentists(dentistSort);
  const ids = useId();
  const consentId = `${ids}-consent`;
  const consentErrorId = `${ids}-consent-error`;

  useEffect(() => {
    if (dentists.isError) toast.error(DENTISTS_LOAD_ERROR);
  }, [dentists.isError]);

  const dentistList = dentists.data ?? [];
  const chosenDentist = dentistList.find((d) => d.id === values.recipient);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Destinataire et confidentialité</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-900">{GEO_MESSAGES.sortLabel}</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {(
              [
                ["name", GEO_MESSAGES.sortNeutral],
                ["distance", GEO_MESSAGES.sortNearest],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="radio"
                  name={`${ids}-dentist-sort`}
                  value={value}
                  checked={dentistSort === value}
                  onChange={() => setDentistSort(value)}
                  disabled={sending}
                  className="size-4 accent-brand-700"
                />
                {label}
              </label>
            ))}
          </div>
          {profile && !profile.postal_code ? (
            <p className="text-sm text-slate-600">
              {GEO_MESSAGES.sortNeedsPostalCode}{" "}
              <Link to="/patient/profile" className="font-medium text-brand-700 underline">
                Renseigner mon code postal
              </Link>
            </p>
          ) : null}
        </fieldset>
        <FormField
          label="Dentiste destinataire"
          error={errors.recipient}
          description={
            dentists.isError
              ? DENTISTS_LOAD_ERROR
              : dentists.isSuccess && dentistList.length === 0
                ? "Aucun dentiste vérifié n'est disponible pour le moment"
                : "Tous les dentistes vérifiés peuvent vous répondre, ou seulement celui que vous choisissez."
          }
        >
          {(control) => (
            <Select
              value={values.recipient}
              onValueChange={(value) => set("recipient", value)}
              disabled={sending}
            >
              <SelectTrigger {...control} className="sm:max-w-md">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">Tous les dentistes vérifiés</SelectItem>
                {dentists.isPending ? (
                  <SelectItem value="loading" disabled>
                    Chargement...
                  </SelectItem>
                ) : null}
                {dentists.isSuccess && dentistList.length === 0 ? (
                  <SelectItem value="none" disabled>
                    Aucun dentiste vérifié disponible
                  </SelectItem>
                ) : null}
                {dentistList.map((dentist) => (
                  <SelectItem key={dentist.id} value={dentist.id}>
                    {dentistLabel(dentist)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
        <div className="grid gap-1.5">
          <div className="flex items-start gap-3">
            <Checkbox
              id={consentId}
              checked={values.consent}
              onCheckedChange={(checked) => set("consent", checked === true)}
              disabled={sending}
              required
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={errors.consent ? consentErrorId : undefined}
              className="mt-0.5"
            />
            <Label htmlFor={consentId} required className="font-normal leading-relaxed text-slate-800">
              {consentText({ brand, dentistName: chosenDentist?.full_name ?? null })}
            </Label>
          </div>
          {errors.consent ? (
            <p id={consentErrorId} className="text-sm font-medium text-red-700">
              {errors.consent}
            </p>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
