import { BadgeCheck, Clock, Send, XCircle } from "lucide-react";
import { type FormEvent, useEffect, useId, useMemo, useState } from "react";
import { toast } from "sonner";
import { formatDetailDate } from "../../../shared/format/dates";
import { type VerificationField, verificationRequestProblem } from "../../../shared/policies/verification";
import { PROFILE_MESSAGES, type Profile, profileUpdateSchema } from "../../../shared/schemas/profile";
import { AccountInfoCard } from "../../components/AccountInfoCard";
import { AvatarUpload, failureDescription } from "../../components/AvatarUpload";
import { DataSection } from "../../components/account/DataSection";
import { SecuritySection } from "../../components/account/SecuritySection";
import { PageHeader } from "../../components/PageHeader";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { FormField } from "../../components/ui/FormField";
import { Input } from "../../components/ui/Input";
import { PageSpinner } from "../../components/ui/Spinner";
import { Textarea } from "../../components/ui/Textarea";
import { isApiError } from "../../lib/api";
import { useUpdateProfile, useUploadAvatar } from "../../lib/profile";
import { useSession } from "../../lib/session";
import { useRequestVerification } from "./profileApi";
import { SpecialtiesEditor } from "./SpecialtiesEditor";

interface FormValues {
  full_name: string;
  phone_number: string;
  city: string;
  bio: string;
  specialties: string[];
  rpps: string;
  practice_address: string;
  practice_postcode: string;
}
type FieldErrors = Partial<Record<keyof FormValues, string>>;

const valuesOf = (profile: Profile): FormValues => ({
  full_name: profile.full_name,
  phone_number: profile.phone_number ?? "",
  city: profile.city ?? "",
  bio: profile.bio,
  specialties: profile.specialties,
  rpps: profile.rpps ?? "",
  practice_address: profile.practice_address ?? "",
  practice_postcode: profile.practice_postcode ?? "",
});

const FIELD_NAMES = new Set<string>([
  "full_name",
  "phone_number",
  "city",
  "bio",
  "specialties",
  "rpps",
  "practice_address",
  "practice_postcode",
] satisfies Array<keyof FormValues>);

/** Field → first message, from the shared schema's issues or the API's `fields`. */
function fieldErrors(entries: Iterable<[string, string]>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, message] of entries) {
    const field = path.split(".")[0] ?? "";
    if (FIELD_NAMES.has(field)) errors[field as keyof FormValues] ??= message;
  }
  return errors;
}

const MISSING_LABELS: Record<VerificationField, string> = {
  rpps: "votre numéro RPPS",
  practice_address: "l'adresse de votre cabinet",
  practice_postcode: "son code postal",
};

function listFr(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} et ${items.at(-1)}`;
}

function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const saved = useMemo(() => valuesOf(profile), [profile]);
  const savedKey = JSON.stringify(saved);
  const [values, setValues] = useState<FormValues>(saved);
  const [errors, setErrors] = useState<FieldErrors>({});

  // A newer saved profile (after saving, or from another tab) becomes the form's values.
  // biome-ignore lint/correctness/useExhaustiveDependencies: savedKey stands for `saved`'s content.
  useEffect(() => setValues(saved), [savedKey]);

  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = profileUpdateSchema.safeParse(values);
    if (!checked.success) {
      const next = fieldErrors(checked.error.issues.map((i) => [i.path.join("."), i.message]));
      setErrors(next);
      toast.error(PROFILE_MESSAGES.failure, { description: checked.error.issues[0]?.message });
      return;
    }
    update.mutate(values, {
      onSuccess: () => {
        setErrors({});
        toast.success(PROFILE_MESSAGES.success);
      },
      onError: (error) => {
        if (isApiError(error)) setErrors(fieldErrors(Object.entries(error.fields)));
        toast.error(PROFILE_MESSAGES.failure, { description: failureDescription(error) });
      },
    });
  };

  const text = (
    field: Exclude<keyof FormValues, "specialties" | "bio">,
    label: string,
    options: {
      required?: boolean;
      description?: string;
      className?: string;
      type?: "text" | "tel";
      autoComplete?: string;
      inputMode?: "numeric";
      maxLength?: number;
    } = {},
  ) => (
    <FormField
      label={label}
      required={options.required}
      description={options.description}
      error={errors[field]}
      className={options.className}
    >
      {(control) => (
        <Input
          {...control}
          type={options.type ?? "text"}
          autoComplete={options.autoComplete}
          inputMode={options.inputMode}
          maxLength={options.maxLength}
          value={values[field]}
          onChange={(event) => set(field, event.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Mon profil de dentiste" className="grid gap-8">
      <fieldset className="grid gap-5 sm:grid-cols-2">
        <legend className="mb-3 text-lg font-semibold text-slate-900">Informations personnelles</legend>
        {text("full_name", "Nom complet", {
          required: true,
          autoComplete: "name",
          maxLength: 200,
          className: "sm:col-span-2",
        })}
        <FormField label="E-mail" description={PROFILE_MESSAGES.emailReadOnly} className="sm:col-span-2">
          {(control) => (
            <Input {...control} type="email" value={profile.email} readOnly className="bg-slate-50" />
          )}
        </FormField>
        {text("phone_number", "Téléphone (optionnel)", { type: "tel", autoComplete: "tel", maxLength: 30 })}
        {text("city", "Ville (optionnel)", { autoComplete: "address-level2", maxLength: 100 })}
      </fieldset>

      <fieldset className="grid gap-5">
        <legend className="mb-3 text-lg font-semibold text-slate-900">Présentation</legend>
        <FormField
          label="Biographie (optionnelle)"
          description="Votre parcours, vos approches, ce que les patients doivent savoir de votre cabinet."
          error={errors.bio}
        >
          {(control) => (
            <Textarea
              {...control}
              rows={5}
              maxLength={2000}
              value={values.bio}
              onChange={(event) => set("bio", event.target.value)}
            />
          )}
        </FormField>
        <SpecialtiesEditor
          value={values.specialties}
          onChange={(next) => set("specialties", next)}
          error={errors.specialties}
        />
      </fieldset>

      <fieldset className="grid gap-5 sm:grid-cols-3">
        <legend className="mb-1 text-lg font-semibold text-slate-900">Cabinet et vérification</legend>
        <p className="text-sm text-slate-600 sm:col-span-3">
          Ces informations servent à vérifier votre inscription ; elles ne sont pas montrées aux patients.
        </p>
        {text("rpps", "Numéro RPPS", {
          description: "Répertoire partagé des professionnels de santé : votre identifiant à 11 chiffres",
          inputMode: "numeric",
          maxLength: 20,
          className: "sm:col-span-3",
        })}
        {text("practice_address", "Adresse du cabinet", {
          autoComplete: "street-address",
          maxLength: 200,
          className: "sm:col-span-2",
        })}
        {text("practice_postcode", "Code postal", {
          autoComplete: "postal-code",
          inputMode: "numeric",
          maxLength: 5,
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

function VerificationCard({ profile }: { profile: Profile }) {
  const request = useRequestVerification();
  const helpId = useId();

  if (profile.verification_state === "verified") {
    return (
      <Card className="border-green-300 bg-green-50">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-green-900">
            <BadgeCheck className="size-5" aria-hidden="true" />
            Compte vérifié
          </CardTitle>
          <CardDescription className="text-green-900">
            Votre inscription a été vérifiée : les demandes des patients vous sont montrées.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }

  const problem = verificationRequestProblem(profile);
  const missing = problem?.kind === "missing" ? problem.fields : [];
  const onRequest = () =>
    request.mutate(undefined, {
      onSuccess: () =>
        toast.success(PROFILE_MESSAGES.verificationRequested, {
          description: "Notre équipe vérifie votre inscription au RPPS.",
        }),
      onError: (error) =>
        toast.error(PROFILE_MESSAGES.verificationFailed, { description: failureDescription(error) }),
    });

  const refused = profile.verification_state === "refused";
  return (
    <Card className={refused ? "border-red-300 bg-red-50" : "border-yellow-300 bg-yellow-50"}>
      <CardHeader>
        <CardTitle className={`flex items-center gap-2 ${refused ? "text-red-950" : "text-yellow-950"}`}>
          {refused ? (
            <XCircle className="size-5" aria-hidden="true" />
          ) : (
            <Clock className="size-5" aria-hidden="true" />
          )}
          {refused ? "Vérification refusée" : "En attente de vérification"}
        </CardTitle>
        <CardDescription className="text-slate-800">
          Tant que votre compte n'est pas vérifié, les demandes des patients ne vous sont pas montrées.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {refused && profile.verification_refusal_reason ? (
          <div className="grid gap-0.5 text-sm text-slate-900">
            <p className="font-semibold">Raison indiquée par notre équipe :</p>
            <p className="whitespace-pre-line">{profile.verification_refusal_reason}</p>
            <p className="mt-1 text-slate-800">
              Corrigez votre profil si besoin, puis demandez une nouvelle vérification.
            </p>
          </div>
        ) : null}
        {profile.verification_state === "requested" && profile.verification_requested_at ? (
          <p role="status" className="text-sm text-slate-800">
            Votre demande de vérification a été envoyée le{" "}
            {formatDetailDate(profile.verification_requested_at)}. Notre équipe vérifie votre inscription au
            RPPS ; vous recevrez un e-mail.
          </p>
        ) : (
          <>
            <p id={helpId} className="text-sm text-slate-800">
              {missing.length
                ? `Pour demander une vérification, renseignez et enregistrez ${listFr(missing.map((f) => MISSING_LABELS[f]))}.`
                : "Votre numéro RPPS et l'adresse de votre cabinet sont enregistrés : vous pouvez demander une vérification."}
            </p>
            <Button
              type="button"
              className="w-full sm:w-fit lg:w-full"
              disabled={problem !== null}
              loading={request.isPending}
              aria-describedby={helpId}
              onClick={onRequest}
            >
              <Send aria-hidden="true" />
              Demander une vérification
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** /dentist/profile 'Mon profil' (spec §2, §5, §8; decision D12). */
export function DentistProfilePage() {
  const { profile } = useSession();
  const upload = useUploadAvatar();
  if (!profile) return <PageSpinner />;
  return (
    <>
      <PageHeader
        title="Mon profil"
        description="Vos informations, votre présentation aux patients et la vérification de votre cabinet."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid gap-6 self-start lg:order-2">
          <section aria-label="Statut du compte">
            <VerificationCard profile={profile} />
          </section>
          <AccountInfoCard profile={profile} />
        </div>
        <Card className="lg:order-1 lg:col-span-2">
          <CardHeader>
            <CardTitle>Mes informations</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6">
            <AvatarUpload profile={profile} upload={upload} />
            <ProfileForm profile={profile} />
          </CardContent>
        </Card>
      </div>
      <SecuritySection email={profile.email} className="mt-8" />
      <DataSection className="mt-8" />
    </>
  );
}
