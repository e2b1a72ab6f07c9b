import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { toast } from "sonner";
import { GEO_MESSAGES, POSTAL_CODE_PATTERN } from "../../../shared/domain/geo";
import { PROFILE_MESSAGES, type Profile } from "../../../shared/schemas/profile";
import { AccountInfoCard } from "../../components/AccountInfoCard";
import { AvatarUpload, failureDescription } from "../../components/AvatarUpload";
import { DataSection } from "../../components/account/DataSection";
import { SecuritySection } from "../../components/account/SecuritySection";
import { PageHeader } from "../../components/PageHeader";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/Card";
import { FormField } from "../../components/ui/FormField";
import { Input } from "../../components/ui/Input";
import { PageSpinner } from "../../components/ui/Spinner";
import { isApiError } from "../../lib/api";
import { useUpdateProfile, useUploadAvatar } from "../../lib/profile";
import { useSession } from "../../lib/session";
import { CoverSection } from "./CoverSection";

function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    full_name: profile.full_name,
    phone_number: profile.phone_number ?? "",
    city: profile.city ?? "",
    postal_code: profile.postal_code ?? "",
    birth_date: profile.birth_date ?? "",
  });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});

  // A newer profile (after saving) becomes the form's values.
  useEffect(() => {
    setValues({
      full_name: profile.full_name,
      phone_number: profile.phone_number ?? "",
      city: profile.city ?? "",
      postal_code: profile.postal_code ?? "",
      birth_date: profile.birth_date ?? "",
    });
  }, [profile.full_name, profile.phone_number, profile.city, profile.postal_code, profile.birth_date]);

  const set = (field: keyof typeof values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!values.full_name.trim()) {
      setErrors({ full_name: PROFILE_MESSAGES.nameRequired });
      toast.error(PROFILE_MESSAGES.failure, { description: PROFILE_MESSAGES.nameRequired });
      return;
    }
    const postalCode = values.postal_code.trim();
    if (postalCode && !POSTAL_CODE_PATTERN.test(postalCode)) {
      setErrors({ postal_code: GEO_MESSAGES.postalCodeInvalid });
      toast.error(PROFILE_MESSAGES.failure, { description: GEO_MESSAGES.postalCodeInvalid });
      return;
    }
    update.mutate(values, {
      onSuccess: () => {
        toast.success(PROFILE_MESSAGES.success);
        // The distances to the dentists depend on the postal code.
        void queryClient.invalidateQueries({ queryKey: ["dentists"] });
      },
      onError: (error) => {
        if (isApiError(error)) {
          const next: typeof errors = {};
          for (const [field, message] of Object.entries(error.fields)) {
            if (
              field === "full_name" ||
              field === "phone_number" ||
              field === "city" ||
              field === "postal_code" ||
              field === "birth_date"
            )
              next[field] = message;
          }
          setErrors(next);
        }
        toast.error(PROFILE_MESSAGES.failure, { description: failureDescription(error) });
      },
    });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Informations personnelles"
      className="grid gap-5 sm:grid-cols-2"
    >
      <FormField label="Nom complet" required error={errors.full_name} className="sm:col-span-2">
        {(control) => (
          <Input
            {...control}
            autoComplete="name"
            maxLength={200}
            value={values.full_name}
            onChange={(event) => set("full_name", event.target.value)}
          />
        )}
      </FormField>
      <FormField label="E-mail" description={PROFILE_MESSAGES.emailReadOnly} className="sm:col-span-2">
        {(control) => (
          <Input {...control} type="email" value={profile.email} readOnly className="bg-slate-50" />
        )}
      </FormField>
      <FormField label="Téléphone (optionnel)" error={errors.phone_number}>
        {(control) => (
          <Input
            {...control}
            type="tel"
            autoComplete="tel"
            maxLength={30}
            value={values.phone_number}
            onChange={(event) => set("phone_number", event.target.value)}
          />
        )}
      </FormField>
      <FormField label="Ville (optionnel)" error={errors.city}>
        {(control) => (
          <Input
            {...control}
            autoComplete="address-level2"
            maxLength={100}
            value={values.city}
            onChange={(event) => set("city", event.target.value)}
          />
        )}
      </FormField>
      <FormField
        label="Code postal (optionnel)"
        error={errors.postal_code}
        description="Pour voir à quelle distance sont les dentistes. Ils voient seulement votre commune."
      >
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={5}
            value={values.postal_code}
            onChange={(event) => set("postal_code", event.target.value)}
          />
        )}
      </FormField>
      <FormField
        label="Date de naissance (optionnel)"
        error={errors.birth_date}
        description="Les dentistes voient seulement votre âge, jamais votre date de naissance."
      >
        {(control) => (
          <Input
            {...control}
            type="date"
            autoComplete="bday"
            max={new Date().toISOString().slice(0, 10)}
            value={values.birth_date}
            onChange={(event) => set("birth_date", event.target.value)}
          />
        )}
      </FormField>
      <div className="sm:col-span-2">
        <Button type="submit" loading={update.isPending}>
          Enregistrer
        </Button>
      </div>
    </form>
  );
}

/** /patient/profile 'Mon profil' (spec §2, §5, §8). */
export function PatientProfilePage() {
  const { profile } = useSession();
  const upload = useUploadAvatar();
  if (!profile) return <PageSpinner />;
  return (
    <>
      <PageHeader
        title="Mon profil"
        description="Vos informations personnelles, votre photo et votre mutuelle."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Informations personnelles</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6">
            <AvatarUpload profile={profile} upload={upload} />
            <ProfileForm profile={profile} />
          </CardContent>
        </Card>
        <AccountInfoCard profile={profile} className="self-start" />
      </div>
      <CoverSection className="mt-8" />
      <SecuritySection email={profile.email} className="mt-8" />
      <DataSection className="mt-8" />
    </>
  );
}
