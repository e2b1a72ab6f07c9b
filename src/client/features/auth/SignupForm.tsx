import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useRef, useState } from "react";
import {
  type Control,
  Controller,
  type DefaultValues,
  type Path,
  type Resolver,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import {
  ACCOUNT_MESSAGES,
  type DentistSignupInput,
  type dentistSignupSchema,
  type PatientSignupInput,
  type patientSignupSchema,
} from "../../../shared/schemas/account";
import { Alert } from "../../components/ui/Alert";
import { Button } from "../../components/ui/Button";
import { Checkbox } from "../../components/ui/Checkbox";
import { EmailField, InputField } from "../../components/ui/FormField";
import { Label } from "../../components/ui/Label";
import { NewPasswordField } from "../../components/ui/NewPasswordField";
import { postLoginPath, type SignupInput, useSession, useSignup } from "../../lib/auth";
import { fieldProps } from "../../lib/form";
import { AuthFooterLink, linkClass } from "./AuthCard";
import { handleSignupError, type SignupFailure } from "./signupErrors";

/** The fields both sign-up forms have. */
type CommonSignup = PatientSignupInput;

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
export function useSignupForm<T extends PatientSignupInput | DentistSignupInput>(options: {
  role: "patient" | "dentist";
  schema: typeof patientSignupSchema | typeof dentistSignupSchema;
  defaultValues: T;
  /** The form's fields in the order it shows them: the first invalid one is focused. */
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
    // React Hook Form would focus the first invalid field in the order the fields were registered
    // (the password, or the dentist's city, registered before the names): focused below instead.
    shouldFocusError: false,
  });
  const redirect = useAlreadySignedIn(submitted.current);
  const onSubmit = form.handleSubmit(
    (values) => {
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
    },
    (errors) => {
      // The first invalid field as the page shows them (Prénom first), not in the schema's order.
      const first = options.fields.find((name) => name in errors);
      if (first) form.setFocus(first as Path<T>);
    },
  );
  return { form, failure, redirect, onSubmit, pending: signup.isPending };
}

/**
 * The required consent to the terms and the privacy policy; the links open in a new tab so the
 * form being filled is not lost. The server refuses a sign-up without it and stores its date.
 */
function TermsConsent({ control, error }: { control: Control<CommonSignup>; error: string | undefined }) {
  return (
    <div className="grid gap-1.5">
      <div className="flex items-start gap-3">
        <Controller
          control={control}
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

/** 'Vous avez déjà un compte ? Se connecter', under both forms. */
export function SignInInstead({ to }: { to: string }) {
  return <AuthFooterLink question="Vous avez déjà un compte ?" to={to} label="Se connecter" />;
}

/**
 * The form both sign-ups share: names (then the dentist's practice fields), e-mail, password with
 * its meter (beside its confirmation for dentists), the consent and the submit button.
 */
export function SignupForm<T extends PatientSignupInput | DentistSignupInput>({
  form: typed,
  failure,
  onSubmit,
  pending,
  submitLabel,
  practiceFields,
  confirmation,
}: {
  form: UseFormReturn<T>;
  failure: SignupFailure;
  onSubmit: () => void;
  pending: boolean;
  submitLabel: string;
  /** The dentist's fields after the names. */
  practiceFields?: ReactNode;
  confirmation?: ReactNode;
}) {
  const form = typed as unknown as UseFormReturn<CommonSignup>;
  const field = fieldProps(form);
  const [password, email, firstName, lastName] = form.watch(["password", "email", "first_name", "last_name"]);
  const passwordField = (
    <NewPasswordField
      password={password ?? ""}
      userInputs={[email, firstName, lastName].filter(Boolean)}
      {...field("password")}
    />
  );
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <FailureAlert failure={failure} />
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField label="Prénom" required autoComplete="given-name" {...field("first_name")} />
        <InputField label="Nom" required autoComplete="family-name" {...field("last_name")} />
        {practiceFields}
      </div>
      <EmailField {...field("email")} />
      {confirmation ? (
        <div className="grid gap-5 sm:grid-cols-2">
          {passwordField}
          {confirmation}
        </div>
      ) : (
        passwordField
      )}
      <TermsConsent control={form.control} error={field("accept_terms").error} />
      <Button type="submit" size="lg" loading={pending} className="w-full">
        {submitLabel}
      </Button>
    </form>
  );
}
