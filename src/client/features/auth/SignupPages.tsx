import { zodResolver } from "@hookform/resolvers/zod";
import { useRef, useState } from "react";
import { Controller, type DefaultValues, type Resolver, useForm } from "react-hook-form";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { PASSWORD_MIN_LENGTH } from "../../../shared/domain/limits";
import {
  ACCOUNT_MESSAGES,
  type DentistSignupInput,
  dentistSignupSchema,
  type PatientSignupInput,
  patientSignupSchema,
} from "../../../shared/schemas/account";
import { Alert } from "../../components/ui/Alert";
import { Button } from "../../components/ui/Button";
import { Checkbox } from "../../components/ui/Checkbox";
import { FormField } from "../../components/ui/FormField";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { postLoginPath, type SignupInput, useSession, useSignup } from "../../lib/auth";
import { AuthCard, linkClass } from "./AuthCard";
import { handleSignupError, type SignupFailure } from "./signupErrors";

function FailureAlert({ failure }: { failure: SignupFailure }) {
  if (!failure) return null;
  if (failure.kind === "network") {
    return (
      <Alert variant="destructive" title="Problème de connexion">
        {ACCOUNT_MESSAGES.serviceUnreachable}
      </Alert>
    );
  }
  return <Alert variant="destructive">{failure.message}</Alert>;
}

/** Redirect target when the visitor is already signed in (null while this form is the cause). */
function useAlreadySignedIn(submitted: boolean): string | null {
  const { status, profile } = useSession();
  const [params] = useSearchParams();
  if (status === "signed-in" && profile && !submitted) return postLoginPath(profile, params.get("next"));
  return null;
}

/**
 * The sign-up flow shared by both forms: validates with the role's schema, sends, toasts the
 * success and goes to the dashboard (or ?next=), or shows the failure beside the fields.
 */
function useSignupForm<T extends PatientSignupInput | DentistSignupInput>(options: {
  role: "patient" | "dentist";
  schema: typeof patientSignupSchema | typeof dentistSignupSchema;
  defaultValues: T;
  fields: readonly string[];
  successMessage: string;
}) {
  const signup = useSignup();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const submitted = useRef(false);
  const [failure, setFailure] = useState<SignupFailure>(null);
  const form = useForm<T>({
    resolver: zodResolver(options.schema) as unknown as Resolver<T>,
    defaultValues: options.defaultValues as DefaultValues<T>,
  });
  const redirect = useAlreadySignedIn(submitted.current);
  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    submitted.current = true;
    signup.mutate({ role: options.role, ...values } as SignupInput, {
      onSuccess: (profile) => {
        toast.success(options.successMessage);
        navigate(postLoginPath(profile, params.get("next")), { replace: true });
      },
      onError: (error) => {
        submitted.current = false;
        setFailure(handleSignupError(error, form, options.fields));
      },
    });
  });
  return { form, failure, redirect, onSubmit, pending: signup.isPending };
}

const passwordHelp = `Au moins ${PASSWORD_MIN_LENGTH} caractères.`;

const PATIENT_FIELDS = ["first_name", "last_name", "email", "password"] as const;

/** /signup 'Créer un compte patient' (spec §5, §8). */
export function PatientSignupPage() {
  const { form, failure, redirect, onSubmit, pending } = useSignupForm<PatientSignupInput>({
    role: "patient",
    schema: patientSignupSchema,
    defaultValues: { first_name: "", last_name: "", email: "", password: "" },
    fields: PATIENT_FIELDS,
    successMessage: "Inscription réussie !",
  });
  const { errors } = form.formState;
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <AuthCard
      title="Créer un compte patient"
      description="Gratuit : déposez votre devis et comparez les propositions de dentistes vérifiés."
      footer={
        <p>
          Vous avez déjà un compte ?{" "}
          <Link to="/login" className={linkClass}>
            Se connecter
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <FailureAlert failure={failure} />
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField label="Prénom" required error={errors.first_name?.message}>
            {(c) => <Input {...c} autoComplete="given-name" {...form.register("first_name")} />}
          </FormField>
          <FormField label="Nom" required error={errors.last_name?.message}>
            {(c) => <Input {...c} autoComplete="family-name" {...form.register("last_name")} />}
          </FormField>
        </div>
        <FormField label="E-mail" required error={errors.email?.message}>
          {(c) => <Input {...c} type="email" autoComplete="email" {...form.register("email")} />}
        </FormField>
        <FormField label="Mot de passe" required description={passwordHelp} error={errors.password?.message}>
          {(c) => <Input {...c} type="password" autoComplete="new-password" {...form.register("password")} />}
        </FormField>
        <Button type="submit" size="lg" loading={pending} className="w-full">
          Créer mon compte
        </Button>
      </form>
    </AuthCard>
  );
}

const DENTIST_FIELDS = [
  "first_name",
  "last_name",
  "city",
  "practice_postcode",
  "phone_number",
  "email",
  "password",
  "password_confirmation",
  "accept_terms",
] as const;

/** /dentist/signup 'Inscription Dentiste' (spec §5, §8). */
export function DentistSignupPage() {
  const { form, failure, redirect, onSubmit, pending } = useSignupForm<DentistSignupInput>({
    role: "dentist",
    schema: dentistSignupSchema,
    defaultValues: {
      first_name: "",
      last_name: "",
      city: "",
      practice_postcode: "",
      phone_number: "",
      email: "",
      password: "",
      password_confirmation: "",
      accept_terms: false as unknown as true,
    },
    fields: DENTIST_FIELDS,
    successMessage: "Inscription réussie ! Votre compte sera vérifié prochainement.",
  });
  const { errors } = form.formState;
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <AuthCard
      wide
      title="Inscription Dentiste"
      description="Rejoignez le réseau de dentistes vérifiés. Votre compte sera vérifié par notre équipe (numéro RPPS, diplômes) avant que vous puissiez consulter les demandes des patients."
      footer={
        <p>
          Vous avez déjà un compte ?{" "}
          <Link to="/dentist/login" className={linkClass}>
            Se connecter
          </Link>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <FailureAlert failure={failure} />
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField label="Prénom" required error={errors.first_name?.message}>
            {(c) => <Input {...c} autoComplete="given-name" {...form.register("first_name")} />}
          </FormField>
          <FormField label="Nom" required error={errors.last_name?.message}>
            {(c) => <Input {...c} autoComplete="family-name" {...form.register("last_name")} />}
          </FormField>
          <FormField label="Ville" required error={errors.city?.message}>
            {(c) => <Input {...c} autoComplete="address-level2" {...form.register("city")} />}
          </FormField>
          <FormField
            label="Code postal du cabinet"
            error={errors.practice_postcode?.message}
            description="Les patients voient la distance jusqu'à votre cabinet."
          >
            {(c) => (
              <Input
                {...c}
                inputMode="numeric"
                autoComplete="postal-code"
                maxLength={5}
                {...form.register("practice_postcode")}
              />
            )}
          </FormField>
          <FormField label="Téléphone" required error={errors.phone_number?.message}>
            {(c) => <Input {...c} type="tel" autoComplete="tel" {...form.register("phone_number")} />}
          </FormField>
        </div>
        <FormField label="E-mail" required error={errors.email?.message}>
          {(c) => <Input {...c} type="email" autoComplete="email" {...form.register("email")} />}
        </FormField>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            label="Mot de passe"
            required
            description={passwordHelp}
            error={errors.password?.message}
          >
            {(c) => (
              <Input {...c} type="password" autoComplete="new-password" {...form.register("password")} />
            )}
          </FormField>
          <FormField label="Confirmer le mot de passe" required error={errors.password_confirmation?.message}>
            {(c) => (
              <Input
                {...c}
                type="password"
                autoComplete="new-password"
                {...form.register("password_confirmation")}
              />
            )}
          </FormField>
        </div>
        <div className="grid gap-1.5">
          <div className="flex items-start gap-3">
            <Controller
              control={form.control}
              name="accept_terms"
              render={({ field }) => (
                <Checkbox
                  id="accept-terms"
                  name={field.name}
                  ref={field.ref}
                  className="mt-0.5"
                  checked={field.value === true}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  aria-invalid={errors.accept_terms ? true : undefined}
                  aria-describedby={errors.accept_terms ? "accept-terms-error" : undefined}
                  aria-required
                />
              )}
            />
            <Label htmlFor="accept-terms" className="font-normal text-slate-700" required>
              J'accepte les{" "}
              <Link to="/terms" className={linkClass}>
                conditions d'utilisation
              </Link>{" "}
              et la{" "}
              <Link to="/privacy" className={linkClass}>
                politique de confidentialité
              </Link>
            </Label>
          </div>
          {errors.accept_terms ? (
            <p id="accept-terms-error" className="text-sm font-medium text-red-700">
              {errors.accept_terms.message}
            </p>
          ) : null}
        </div>
        <Button type="submit" size="lg" loading={pending} className="w-full">
          Créer mon compte dentiste
        </Button>
      </form>
    </AuthCard>
  );
}
