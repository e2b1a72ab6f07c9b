import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useRef, useState } from "react";
import {
  type Control,
  Controller,
  type DefaultValues,
  type FieldErrors,
  type Resolver,
  type UseFormRegisterReturn,
  useForm,
} from "react-hook-form";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
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
import { PasswordStrengthMeter } from "../../components/ui/PasswordStrengthMeter";
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

/** The ?next= of this page, kept on the link to the other form (log in instead, sign up instead). */
export function withNext(path: string, next: string | null): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}

/** 'Mot de passe' with its strength meter (the rule of src/shared/password.ts, common passwords). */
function NewPasswordField({
  error,
  registration,
  value,
  userInputs,
}: {
  error?: string;
  registration: UseFormRegisterReturn;
  value: string;
  userInputs: string[];
}) {
  const meterId = useId();
  return (
    <div className="grid gap-2">
      <FormField label="Mot de passe" required error={error}>
        {(c) => (
          <Input
            {...c}
            aria-describedby={[c["aria-describedby"], meterId].filter(Boolean).join(" ")}
            type="password"
            autoComplete="new-password"
            {...registration}
          />
        )}
      </FormField>
      <PasswordStrengthMeter id={meterId} password={value} userInputs={userInputs} />
    </div>
  );
}

/**
 * The required consent to the terms and the privacy policy; the links open in a new tab so the
 * form being filled is not lost. The server refuses a sign-up without it and stores its date.
 */
function TermsConsent<T extends { accept_terms: true }>({
  control,
  errors,
}: {
  control: Control<T>;
  errors: FieldErrors<T>;
}) {
  const error = (errors as FieldErrors<{ accept_terms: true }>).accept_terms?.message;
  return (
    <div className="grid gap-1.5">
      <div className="flex items-start gap-3">
        <Controller
          control={control as unknown as Control<{ accept_terms: true }>}
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
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "accept-terms-error" : undefined}
              aria-required
            />
          )}
        />
        <Label htmlFor="accept-terms" className="font-normal text-slate-700" required>
          J'accepte les{" "}
          <a href="/terms" target="_blank" rel="noopener" className={linkClass}>
            conditions d'utilisation
            <span className="sr-only"> (nouvel onglet)</span>
          </a>{" "}
          et la{" "}
          <a href="/privacy" target="_blank" rel="noopener" className={linkClass}>
            politique de confidentialité
            <span className="sr-only"> (nouvel onglet)</span>
          </a>
        </Label>
      </div>
      {error ? (
        <p id="accept-terms-error" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const PATIENT_FIELDS = ["first_name", "last_name", "email", "password", "accept_terms"] as const;

/** /signup 'Créer un compte patient'. */
export function PatientSignupPage() {
  const { form, failure, redirect, onSubmit, pending } = useSignupForm<PatientSignupInput>({
    role: "patient",
    schema: patientSignupSchema,
    defaultValues: {
      first_name: "",
      last_name: "",
      email: "",
      password: "",
      accept_terms: false as unknown as true,
    },
    fields: PATIENT_FIELDS,
    successMessage: "Inscription réussie\u202f!",
  });
  const [params] = useSearchParams();
  const next = params.get("next");
  const { errors } = form.formState;
  const [password, email, firstName, lastName] = form.watch(["password", "email", "first_name", "last_name"]);
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <AuthCard
      title="Créer un compte patient"
      description="Gratuit : déposez votre devis et comparez les propositions de dentistes vérifiés."
      footer={
        <p>
          Vous avez déjà un compte{"\u202f"}?{" "}
          <Link to={withNext("/login", next)} className={linkClass}>
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
        <NewPasswordField
          error={errors.password?.message}
          registration={form.register("password")}
          value={password ?? ""}
          userInputs={[email, firstName, lastName].filter(Boolean)}
        />
        <TermsConsent control={form.control} errors={errors} />
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

/** /dentist/signup 'Inscription Dentiste'. */
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
    successMessage: "Inscription réussie\u202f! Votre compte sera vérifié prochainement.",
  });
  const { errors } = form.formState;
  const [password, email, firstName, lastName] = form.watch(["password", "email", "first_name", "last_name"]);
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <AuthCard
      wide
      title="Inscription Dentiste"
      description="Rejoignez le réseau de dentistes vérifiés. Votre compte sera vérifié par notre équipe (numéro RPPS, diplômes) avant que vous puissiez consulter les demandes des patients."
      footer={
        <p>
          Vous avez déjà un compte{"\u202f"}?{" "}
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
          <NewPasswordField
            error={errors.password?.message}
            registration={form.register("password")}
            value={password ?? ""}
            userInputs={[email, firstName, lastName].filter(Boolean)}
          />
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
        <TermsConsent control={form.control} errors={errors} />
        <Button type="submit" size="lg" loading={pending} className="w-full">
          Créer mon compte dentiste
        </Button>
      </form>
    </AuthCard>
  );
}
