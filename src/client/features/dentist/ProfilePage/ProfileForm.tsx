import type { ComponentProps, FormEvent } from "react";
import { toast } from "sonner";
import {
  DENTIST_PROFILE_FIELDS,
  type DentistProfileValues,
  dentistProfileValues,
  fieldErrorsOf,
} from "../../../../shared/forms/profileForm";
import {
  dentistProfileIssues,
  PROFILE_MESSAGES,
  type Profile,
  profileUpdateSchema,
} from "../../../../shared/schemas/profile";
import { failureDescription } from "../../../components/AvatarUpload";
import { PROFILE_TOAST, TextField, useProfileValues } from "../../../components/profile/ProfileFields";
import { Button } from "../../../components/ui/Button";
import { maxLengthOf } from "../../../components/ui/CharacterCount";
import { FormField, TextareaField } from "../../../components/ui/FormField";
import { Input } from "../../../components/ui/Input";
import { isApiError } from "../../../lib/api";
import { useUpdateProfile } from "../../../lib/profile";
import { SpecialtiesEditor } from "../SpecialtiesEditor";

/** The server's limit of the name (the profile schema's). */
const FULL_NAME_MAX = maxLengthOf(profileUpdateSchema.shape.full_name);

type TextFieldOptions = Omit<ComponentProps<typeof TextField>, "label" | "error">;

/** 'Mon profil de dentiste': identity, presentation (bio, specialties), practice for the verification. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const { values, errors, setErrors, set, formRef } = useProfileValues(dentistProfileValues(profile));
  const fieldErrors = (entries: Iterable<readonly [string, string]>) =>
    fieldErrorsOf(DENTIST_PROFILE_FIELDS, entries);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = profileUpdateSchema.safeParse(values);
    // The shape's issues, then what a dentist cannot leave empty (the server's same rule).
    const issues: [string, string][] = checked.success
      ? Object.entries(dentistProfileIssues(checked.data))
      : checked.error.issues.map((i) => [i.path.join("."), i.message]);
    if (issues.length > 0) {
      setErrors(fieldErrors(issues));
      toast.error(PROFILE_MESSAGES.failure, { id: PROFILE_TOAST, description: issues[0]?.[1] });
      return;
    }
    update.mutate(values, {
      onSuccess: () => {
        setErrors({});
        // In place of a failure's toast still shown (one toast per save).
        toast.success(PROFILE_MESSAGES.success, { id: PROFILE_TOAST, description: undefined });
      },
      onError: (error) => {
        if (isApiError(error)) setErrors(fieldErrors(Object.entries(error.fields)));
        toast.error(PROFILE_MESSAGES.failure, { id: PROFILE_TOAST, description: failureDescription(error) });
      },
    });
  };

  // Verified: the RPPS number and the practice as the team checked them, changed through the team (ADR 075).
  const verified = profile.verification_state === "verified";

  type TextKey = Exclude<keyof DentistProfileValues, "specialties" | "bio">;
  const text = (
    field: TextKey,
    label: string,
    options: Omit<TextFieldOptions, "value" | "onChange"> = {},
  ) => (
    <TextField
      label={label}
      error={errors[field]}
      {...options}
      value={values[field]}
      onChange={(value) => set(field, value)}
    />
  );

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label="Mon profil de dentiste"
      className="grid gap-8"
    >
      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="mb-3 text-lg font-semibold text-slate-900">Informations personnelles</legend>
        {text("full_name", "Nom complet", {
          required: true,
          autoComplete: "name",
          counter: { value: values.full_name, max: FULL_NAME_MAX },
          className: "sm:col-span-2",
        })}
        <FormField label="E-mail" description={PROFILE_MESSAGES.emailReadOnly} className="sm:col-span-2">
          {(control) => (
            <Input {...control} type="email" value={profile.email} readOnly className="bg-slate-50" />
          )}
        </FormField>
        {/* Asked at sign-up, kept: the city shows beside his name, the team calls the phone. */}
        {text("phone_number", "Téléphone du cabinet", {
          required: true,
          type: "tel",
          autoComplete: "tel",
          maxLength: 30,
        })}
        {text("city", "Ville du cabinet", { required: true, autoComplete: "address-level2", maxLength: 100 })}
      </fieldset>

      <fieldset className="grid gap-5">
        <legend className="mb-3 text-lg font-semibold text-slate-900">Présentation</legend>
        <TextareaField
          label="Biographie (optionnelle)"
          description="Votre parcours, vos approches, ce que les patients doivent savoir de votre cabinet."
          error={errors.bio}
          rows={5}
          maxLength={2000}
          value={values.bio}
          onChange={(event) => set("bio", event.target.value)}
        />
        <SpecialtiesEditor
          value={values.specialties}
          onChange={(next) => set("specialties", next)}
          error={errors.specialties}
        />
      </fieldset>

      <fieldset className="grid gap-5 sm:grid-cols-3">
        <legend className="mb-1 text-lg font-semibold text-slate-900">Cabinet et vérification</legend>
        <p className="text-sm text-slate-600 sm:col-span-3">
          Notre équipe vérifie votre numéro RPPS et votre cabinet avant de vous montrer les demandes des
          patients. Le numéro RPPS n'est pas montré aux patients ; l'adresse du cabinet est donnée à ceux qui
          prennent rendez-vous avec vous.
        </p>
        {verified ? (
          <p className="text-sm text-slate-700 sm:col-span-3">{PROFILE_MESSAGES.verifiedFieldsLocked}</p>
        ) : null}
        {text("rpps", "Numéro RPPS", {
          description: "Répertoire partagé des professionnels de santé : votre identifiant à 11 chiffres",
          inputMode: "numeric",
          maxLength: 20,
          className: "sm:col-span-3",
          readOnly: verified,
        })}
        {text("practice_address", "Adresse du cabinet", {
          autoComplete: "street-address",
          maxLength: 200,
          className: "sm:col-span-2",
          readOnly: verified,
        })}
        {text("practice_postcode", "Code postal", {
          autoComplete: "postal-code",
          inputMode: "numeric",
          maxLength: 5,
          readOnly: verified,
        })}
      </fieldset>

      <div>
        <Button type="submit" loading={update.isPending}>
          Enregistrer
        </Button>
      </div>
    </form>
  );
}
