import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Controller, useForm } from "react-hook-form";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import type { Area } from "../../../shared/policies/redirects";
import { ACCOUNT_MESSAGES, type LoginInput, loginSchema } from "../../../shared/schemas/account";
import type { Profile } from "../../../shared/schemas/profile";
import { type LoginCodeInput, loginCodeSchema } from "../../../shared/schemas/twoFactor";
import { Alert } from "../../components/ui/Alert";
import { Button } from "../../components/ui/Button";
import { Checkbox } from "../../components/ui/Checkbox";
import { EmailField, InputField, PasswordField } from "../../components/ui/FormField";
import { Label } from "../../components/ui/Label";
import { isApiError } from "../../lib/api";
import { postLoginPath, useLogin, useLoginCode, useSession } from "../../lib/auth";
import { fieldProps, showFieldErrors } from "../../lib/form";
import { AuthCard, AuthFooterLink, linkClass } from "./AuthCard";

/**
 * Why a sign-in failed, above the form. A suspended account (403) is told to use the contact form:
 * linked here, since the person cannot reach the help pages of her space.
 */
export function LoginFailure({ message, suspended }: { message: string | null; suspended: boolean }) {
  if (!message) return null;
  return (
    <Alert variant="destructive">
      {message}
      {suspended ? (
        <>
          {" "}
          <Link to="/contact" className={linkClass}>
            Ouvrir le formulaire de contact
          </Link>
        </>
      ) : null}
    </Alert>
  );
}

/** The sign-in's failures share one toast: the next replaces it, and signing in takes it away. */
const LOGIN_ERROR_TOAST = "login-error";

const COPY: Record<Area, { title: string; description: string; forgot: string }> = {
  patient: {
    title: "Connexion",
    description: "Accédez à votre espace patient pour suivre vos demandes de devis.",
    forgot: "/forgot-password",
  },
  dentist: {
    title: "Connexion Dentiste",
    description: "Accédez à votre espace dentiste pour consulter les demandes des patients.",
    forgot: "/dentist/forgot-password",
  },
  admin: {
    title: "Connexion Administration",
    description: "Espace réservé à l'équipe d'administration.",
    forgot: "/admin/forgot-password",
  },
};

function LoginFooter({ area, next }: { area: Area; next: string | null }) {
  if (area === "patient") {
    // Arriving with an intent (?next=/patient/upload…): the sign-up keeps it, no role choice.
    const signup = next ? `/signup?next=${encodeURIComponent(next)}` : "/choose-role";
    return (
      <>
        <AuthFooterLink question="Pas encore de compte ?" to={signup} label="Créer un compte" />
        <AuthFooterLink question="Vous êtes dentiste ?" to="/dentist/login" label="Connexion dentiste" />
      </>
    );
  }
  if (area === "dentist") {
    return (
      <>
        <AuthFooterLink question="Pas encore de compte ?" to="/dentist/signup" label="Inscription Dentiste" />
        <AuthFooterLink question="Vous êtes patient ?" to="/login" label="Connexion patient" />
      </>
    );
  }
  return <AuthFooterLink to="/" label="Retour à l'accueil" />;
}

/**
 * The second step of a sign-in when two-step sign-in is on (ADR 098): the code of the person's app,
 * or one of the recovery codes. A 401 (this sign-in expired, too many codes) starts again from the
 * password, with the server's reason (`onRestart`).
 */
export function LoginCodeForm({
  onSignedIn,
  onRestart,
}: {
  onSignedIn: (profile: Profile) => void;
  onRestart: (reason: string | null) => void;
}) {
  const login = useLoginCode();
  const hintId = useId();
  const trustId = useId();
  const [formError, setFormError] = useState<string | null>(null);
  /** A recovery code has letters: the phone's keyboard must not be the digits' pad. */
  const [recovery, setRecovery] = useState(false);
  const form = useForm<LoginCodeInput>({
    resolver: zodResolver(loginCodeSchema),
    defaultValues: { code: "", trust_device: false },
  });
  const field = fieldProps(form);

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    // Not `mutate`'s own callbacks: signed in, the session store may unmount this form first (the
    // dialog of a session that had ended), and `onSignedIn` must still run.
    return login
      .mutateAsync({ code: values.code, trust_device: values.trust_device ?? false })
      .then(onSignedIn, (error: unknown) => {
        if (isApiError(error) && error.status === 401) onRestart(error.message);
        else if (!showFieldErrors(form, error, ["code"]))
          // Locked for 15 minutes (429), suspended (403), unreachable: said above the field.
          setFormError(isApiError(error) ? error.message : ACCOUNT_MESSAGES.loginUnexpected);
      });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      {formError ? <Alert variant="destructive">{formError}</Alert> : null}
      <InputField
        label={recovery ? "Code de secours" : "Code de vérification"}
        required
        inputMode={recovery ? "text" : "numeric"}
        autoComplete={recovery ? "off" : "one-time-code"}
        autoCapitalize="off"
        autoFocus
        aria-describedby={hintId}
        {...field("code")}
      />
      <div className="flex items-center gap-2">
        <Controller
          control={form.control}
          name="trust_device"
          render={({ field }) => (
            <Checkbox
              id={trustId}
              name={field.name}
              checked={field.value === true}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
            />
          )}
        />
        <Label htmlFor={trustId} className="font-normal text-slate-700">
          Ne plus demander de code sur cet appareil pendant 30 jours
        </Label>
      </div>
      <Button type="submit" size="lg" loading={login.isPending} className="w-full">
        Valider
      </Button>
      <p id={hintId} className="text-sm text-slate-600">
        {recovery
          ? "Saisissez un des codes de secours reçus à l'activation (comme ABCDE-23456) : chacun ne sert qu'une fois."
          : "Vous n'avez plus votre téléphone ? Saisissez un de vos codes de secours à la place."}{" "}
        <button
          type="button"
          onClick={() => {
            setRecovery(!recovery);
            form.setFocus("code");
          }}
          className={linkClass}
        >
          {recovery ? "Utiliser le code de l'application" : "Utiliser un code de secours"}
        </button>
      </p>
      <button
        type="button"
        onClick={() => onRestart(null)}
        className={`${linkClass} justify-self-start text-sm`}
      >
        Revenir à la connexion
      </button>
    </form>
  );
}

/** The three login pages (patient, dentist, admin): same form, different links. */
export function LoginPage({ area }: { area: Area }) {
  const copy = COPY[area];
  const { status, profile } = useSession();
  const [params] = useSearchParams();
  const next = params.get("next");
  const navigate = useNavigate();
  const login = useLogin();
  const submitted = useRef(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [suspended, setSuspended] = useState(false);
  /** "code" once the password was right and the account asks for a code of its app (202). */
  const [step, setStep] = useState<"password" | "code">("password");
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: "", password: "", remember_me: false },
  });
  const field = fieldProps(form);

  // Already signed in (and not because this form just succeeded): go to the person's space.
  if (status === "signed-in" && profile && !submitted.current) {
    return <Navigate to={postLoginPath(profile, next)} replace />;
  }

  const signedIn = (profile: Profile) => {
    // A failure said before (a mistyped password) is no longer true.
    toast.dismiss(LOGIN_ERROR_TOAST);
    toast.success("Connexion réussie");
    navigate(postLoginPath(profile, next), { replace: true });
  };

  /** Back to the e-mail and password (the password typed again), with the server's reason if any. */
  const restart = (reason: string | null) => {
    submitted.current = false;
    form.setValue("password", "");
    setFormError(reason);
    flushSync(() => setStep("password"));
    form.setFocus("password");
  };

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    setSuspended(false);
    submitted.current = true;
    login.mutate(
      { email: values.email, password: values.password, remember_me: values.remember_me ?? false },
      {
        onSuccess: (result) => {
          if ("profile" in result) signedIn(result.profile);
          else setStep("code");
        },
        onError: (error) => {
          submitted.current = false;
          if (isApiError(error) && error.status === 401) {
            setFormError(ACCOUNT_MESSAGES.invalidCredentials);
            toast.error("Échec de connexion", {
              id: LOGIN_ERROR_TOAST,
              description: "Vérifiez vos identifiants et réessayez.",
            });
          } else if (isApiError(error) && error.status === 403) {
            // The account is suspended (ADR 092): said only to whoever gave its password.
            setFormError(error.message);
            setSuspended(true);
          } else if (isApiError(error) && error.status === 429) {
            setFormError(error.message);
            toast.error("Erreur de connexion", {
              id: LOGIN_ERROR_TOAST,
              description: "Veuillez patienter avant de réessayer.",
            });
          } else if (isApiError(error) && error.status === 400 && Object.keys(error.fields).length > 0) {
            for (const [field, message] of Object.entries(error.fields)) {
              if (field === "email" || field === "password") form.setError(field, { message });
            }
          } else {
            setFormError(ACCOUNT_MESSAGES.loginUnexpected);
            toast.error("Erreur de connexion", {
              id: LOGIN_ERROR_TOAST,
              description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
            });
          }
        },
      },
    );
  });

  if (step === "code") {
    return (
      <AuthCard
        title={copy.title}
        description="Saisissez le code à 6 chiffres affiché par votre application d'authentification."
      >
        <LoginCodeForm onSignedIn={signedIn} onRestart={restart} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={copy.title}
      description={copy.description}
      footer={<LoginFooter area={area} next={next} />}
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <LoginFailure message={formError} suspended={suspended} />
        <EmailField {...field("email")} />
        <PasswordField label="Mot de passe" {...field("password")} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2">
            <Controller
              control={form.control}
              name="remember_me"
              render={({ field }) => (
                <Checkbox
                  id={`remember-${area}`}
                  name={field.name}
                  checked={field.value === true}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                />
              )}
            />
            <Label htmlFor={`remember-${area}`} className="font-normal text-slate-700">
              Se souvenir de moi
            </Label>
          </div>
          <Link to={copy.forgot} className={`${linkClass} text-sm`}>
            Mot de passe oublié ?
          </Link>
        </div>
        <Button type="submit" size="lg" loading={login.isPending} className="w-full">
          Se connecter
        </Button>
      </form>
    </AuthCard>
  );
}
