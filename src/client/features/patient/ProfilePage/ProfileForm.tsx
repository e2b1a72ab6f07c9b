import { useQueryClient } from "@tanstack/react-query";
import type { ComponentProps, FormEvent } from "react";
import { toast } from "sonner";
import {
  fieldErrorsOf,
  PATIENT_PROFILE_FIELDS,
  type PatientProfileValues,
  patientProfileProblem,
  patientProfileValues,
} from "../../../../shared/forms/profileForm";
import { PROFILE_MESSAGES, type Profile, profileUpdateSchema } from "../../../../shared/schemas/profile";
import { failureDescription } from "../../../components/AvatarUpload";
import { PROFILE_TOAST, TextField, useProfileValues } from "../../../components/profile/ProfileFields";
import { Button } from "../../../components/ui/Button";
import { maxLengthOf } from "../../../components/ui/CharacterCount";
import { FormField } from "../../../components/ui/FormField";
import { Input } from "../../../components/ui/Input";
import { isApiError } from "../../../lib/api";
import { useUpdateProfile } from "../../../lib/profile";
import { dentistsKeys } from "../../../lib/queryKeys";

/** The server's limit of the name (the profile schema's). */
const FULL_NAME_MAX = maxLengthOf(profileUpdateSchema.shape.full_name);

type TextFieldProps = Omit<ComponentProps<typeof TextField>, "value" | "onChange" | "error">;

/** The optional fields, after the name and the e-mail; no birth date after `today`. */
const optionalFields = (
  today: string,
): (TextFieldProps & { field: Exclude<keyof PatientProfileValues, "full_name"> })[] => [
  { field: "phone_number", label: "Téléphone (optionnel)", type: "tel", autoComplete: "tel", maxLength: 30 },
  { field: "city", label: "Ville (optionnel)", autoComplete: "address-level2", maxLength: 100 },
  {
    field: "postal_code",
    label: "Code postal (optionnel)",
    description: "Pour voir à quelle distance sont les dentistes. Ils voient seulement votre commune.",
    inputMode: "numeric",
    autoComplete: "postal-code",
    maxLength: 5,
  },
  {
    field: "birth_date",
    label: "Date de naissance (optionnel)",
    description: "Les dentistes voient seulement votre âge, jamais votre date de naissance.",
    type: "date",
    autoComplete: "bday",
    max: today,
  },
];

/** 'Informations personnelles': name, phone, city, postal code (for distances) and birth date (for the age). */
export function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const queryClient = useQueryClient();
  const { values, errors, setErrors, set, formRef } = useProfileValues(patientProfileValues(profile));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = patientProfileProblem(values);
    if (problem) {
      setErrors({ [problem.field]: problem.message });
      toast.error(PROFILE_MESSAGES.failure, { id: PROFILE_TOAST, description: problem.message });
      return;
    }
    update.mutate(values, {
      onSuccess: () => {
        // In place of a failure's toast still shown (one toast per save).
        toast.success(PROFILE_MESSAGES.success, { id: PROFILE_TOAST, description: undefined });
        // The distances to the dentists depend on the postal code.
        void queryClient.invalidateQueries({ queryKey: dentistsKeys.all });
      },
      onError: (error) => {
        if (isApiError(error)) setErrors(fieldErrorsOf(PATIENT_PROFILE_FIELDS, Object.entries(error.fields)));
        toast.error(PROFILE_MESSAGES.failure, { id: PROFILE_TOAST, description: failureDescription(error) });
      },
    });
  };

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label="Informations personnelles"
      className="grid gap-5 sm:grid-cols-2"
    >
      <TextField
        label="Nom complet"
        required
        error={errors.full_name}
        className="sm:col-span-2"
        autoComplete="name"
        counter={{ value: values.full_name, max: FULL_NAME_MAX }}
        value={values.full_name}
        onChange={(value) => set("full_name", value)}
      />
      <FormField label="E-mail" description={PROFILE_MESSAGES.emailReadOnly} className="sm:col-span-2">
        {(control) => (
          <Input {...control} type="email" value={profile.email} readOnly className="bg-slate-50" />
        )}
      </FormField>
      {optionalFields(new Date().toISOString().slice(0, 10)).map(({ field, ...input }) => (
        <TextField
          key={field}
          {...input}
          error={errors[field]}
          value={values[field]}
          onChange={(value) => set(field, value)}
        />
      ))}
      <div className="sm:col-span-2">
        <Button type="submit" loading={update.isPending}>
          Enregistrer
        </Button>
      </div>
    </form>
  );
}
