import { Camera } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ROLE_LABELS } from "../../../shared/domain/roles";
import { formatDetailDate } from "../../../shared/format/dates";
import { AVATAR_MAX_SIZE, PROFILE_MESSAGES, type Profile } from "../../../shared/schemas/profile";
import { PageHeader } from "../../components/PageHeader";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/Card";
import { FormField } from "../../components/ui/FormField";
import { Input } from "../../components/ui/Input";
import { PageSpinner } from "../../components/ui/Spinner";
import { isApiError } from "../../lib/api";
import { useSession } from "../../lib/session";
import { useUpdateProfile, useUploadAvatar } from "./api";

const AVATAR_TYPES = ["image/jpeg", "image/png"];

/** Client-side check of an avatar (the server checks the content again). */
export function avatarProblem(file: File): string | null {
  if (!AVATAR_TYPES.includes(file.type) && !/\.(jpe?g|png)$/i.test(file.name))
    return PROFILE_MESSAGES.avatarType;
  if (file.size > AVATAR_MAX_SIZE) return PROFILE_MESSAGES.avatarTooLarge;
  return null;
}

const failureDescription = (error: unknown) =>
  isApiError(error) ? error.message : "Une erreur s'est produite";

function AvatarCard({ profile }: { profile: Profile }) {
  const upload = useUploadAvatar();
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);

  const onChange = (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    const problem = avatarProblem(file);
    setError(problem);
    if (problem) {
      toast.error(PROFILE_MESSAGES.failure, { description: problem });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast.success(PROFILE_MESSAGES.success, { description: "Votre photo a été changée." }),
      onError: (failure) => {
        const message = failureDescription(failure);
        setError(message);
        toast.error(PROFILE_MESSAGES.failure, { description: message });
      },
    });
  };

  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar name={profile.full_name || profile.email} src={profile.avatar_url} size="lg" />
      <div className="grid gap-1.5">
        <input
          ref={input}
          id={id}
          type="file"
          accept="image/jpeg,image/png,.jpg,.jpeg,.png"
          className="peer sr-only"
          disabled={upload.isPending}
          aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`}
          onChange={(event) => onChange(event.target.files?.[0])}
        />
        <label
          htmlFor={id}
          className="inline-flex h-9 w-fit cursor-pointer items-center gap-2 rounded-ui border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 peer-disabled:cursor-not-allowed peer-disabled:opacity-60"
        >
          <Camera className="size-4" aria-hidden="true" />
          {upload.isPending ? "Envoi de la photo..." : "Changer ma photo"}
        </label>
        <p id={`${id}-help`} className="text-sm text-slate-600">
          JPG ou PNG, 5 Mo maximum.
        </p>
        {error ? (
          <p id={`${id}-error`} className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const [values, setValues] = useState({
    full_name: profile.full_name,
    phone_number: profile.phone_number ?? "",
    city: profile.city ?? "",
  });
  const [errors, setErrors] = useState<Partial<Record<keyof typeof values, string>>>({});

  // A newer profile (after saving) becomes the form's values.
  useEffect(() => {
    setValues({
      full_name: profile.full_name,
      phone_number: profile.phone_number ?? "",
      city: profile.city ?? "",
    });
  }, [profile.full_name, profile.phone_number, profile.city]);

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
    update.mutate(values, {
      onSuccess: () => toast.success(PROFILE_MESSAGES.success),
      onError: (error) => {
        if (isApiError(error)) {
          const next: typeof errors = {};
          for (const [field, message] of Object.entries(error.fields)) {
            if (field === "full_name" || field === "phone_number" || field === "city") next[field] = message;
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
      <FormField label="Email" description={PROFILE_MESSAGES.emailReadOnly} className="sm:col-span-2">
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
  if (!profile) return <PageSpinner />;
  return (
    <>
      <PageHeader title="Mon profil" description="Vos informations personnelles et votre photo." />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Informations personnelles</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6">
            <AvatarCard profile={profile} />
            <ProfileForm profile={profile} />
          </CardContent>
        </Card>
        <Card className="self-start">
          <CardHeader>
            <CardTitle>Informations du compte</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4">
              <div>
                <dt className="text-sm font-medium text-slate-600">Rôle</dt>
                <dd className="text-slate-900">{ROLE_LABELS[profile.role]}</dd>
              </div>
              <div>
                <dt className="text-sm font-medium text-slate-600">Membre depuis</dt>
                <dd className="text-slate-900">{formatDetailDate(profile.created_at)}</dd>
              </div>
            </dl>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
