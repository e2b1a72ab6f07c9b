import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { type Area, loginPathFor } from "../../../shared/policies/redirects";
import {
  ACCOUNT_MESSAGES,
  AREAS,
  forgotPasswordSchema,
  type ResetPasswordInput,
  resetPasswordSchema,
} from "../../../shared/schemas/account";
import { Alert } from "../../components/ui/Alert";
import { Button } from "../../components/ui/Button";
import { EmailField, PasswordField } from "../../components/ui/FormField";
import { NewPasswordField } from "../../components/ui/NewPasswordField";
import { isApiError } from "../../lib/api";
import { useForgotPassword, useResetLinkState, useResetPassword } from "../../lib/auth";
import { fieldProps } from "../../lib/form";
import { AuthCard, AuthOutcome, linkClass } from "./AuthCard";

export function forgotPathFor(area: Area): string {
  return area === "patient" ? "/forgot-password" : `/${area}/forgot-password`;
}

function areaFrom(value: string | null): Area {
  return AREAS.find((a) => a === value) ?? "patient";
}

const emailOnlySchema = forgotPasswordSchema.pick({ email: true });

/** /forgot-password, /dentist/forgot-password, /admin/forgot-password. */
export function ForgotPasswordPage({ area }: { area: Area }) {
  const forgot = useForgotPassword();
  const [sent, setSent] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ email: string }>({
    resolver: zodResolver(emailOnlySchema),
    defaultValues: { email: "" },
  });
  const onSubmit = form.handleSubmit(({ email }) => {
    setFormError(null);
    forgot.mutate(
      { email, area },
      {
        onSuccess: (result) => setSent(result?.message || ACCOUNT_MESSAGES.forgotSent),
        onError: (error) => {
          if (isApiError(error) && error.fields.email)
            form.setError("email", { message: error.fields.email });
          else setFormError(isApiError(error) ? error.message : ACCOUNT_MESSAGES.serviceUnreachable);
        },
      },
    );
  });
  return (
    <AuthCard
      title="Mot de passe oublié"
      description="Indiquez l'adresse e-mail de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe."
      footer={
        <p>
          <Link to={loginPathFor(area)} className={linkClass}>
            Retour à la connexion
          </Link>
        </p>
      }
    >
      {sent ? (
        <Alert variant="success" title="Demande envoyée">
          {sent}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          {formError ? <Alert variant="destructive">{formError}</Alert> : null}
          <EmailField {...fieldProps(form)("email")} />
          <Button type="submit" size="lg" loading={forgot.isPending} className="w-full">
            Envoyer le lien
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

/** /reset-password?token=…&area=… — choose a new password from the e-mailed link. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const area = areaFrom(params.get("area"));
  const reset = useResetPassword();
  const link = useResetLinkState(token);
  const [done, setDone] = useState<string | null>(null);
  const [invalidAnswer, setInvalid] = useState<string | null>(null);
  const invalid =
    invalidAnswer ?? (!token || link.data?.valid === false ? ACCOUNT_MESSAGES.resetInvalid : null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ResetPasswordInput>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { token, password: "", password_confirmation: "" },
  });
  const field = fieldProps(form);

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    reset.mutate(
      { token, password: values.password, password_confirmation: values.password_confirmation ?? "" },
      {
        onSuccess: (result) => setDone(result?.message || ACCOUNT_MESSAGES.resetDone),
        onError: (error) => {
          if (!isApiError(error)) return setFormError(ACCOUNT_MESSAGES.serviceUnreachable);
          if (error.code === "INVALID_TOKEN")
            return setInvalid(error.message || ACCOUNT_MESSAGES.resetInvalid);
          const fields = Object.entries(error.fields).filter(
            ([f]) => f === "password" || f === "password_confirmation",
          ) as [keyof ResetPasswordInput, string][];
          if (error.fields.token) return setInvalid(error.fields.token);
          if (fields.length > 0) for (const [f, message] of fields) form.setError(f, { message });
          else setFormError(error.message);
        },
      },
    );
  });

  let body: React.ReactNode;
  if (done) {
    body = (
      <AuthOutcome
        success
        title="Mot de passe modifié"
        message={done}
        to={loginPathFor(area)}
        label="Se connecter"
      />
    );
  } else if (invalid) {
    body = (
      <AuthOutcome
        success={false}
        title="Lien invalide"
        message={invalid}
        to={forgotPathFor(area)}
        label="Faire une nouvelle demande"
      />
    );
  } else if (link.isPending) {
    body = (
      <p role="status" className="text-slate-600">
        Vérification du lien...
      </p>
    );
  } else {
    body = (
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        {formError ? <Alert variant="destructive">{formError}</Alert> : null}
        <NewPasswordField
          label="Nouveau mot de passe"
          password={form.watch("password") ?? ""}
          {...field("password")}
        />
        <PasswordField
          label="Confirmer le mot de passe"
          autoComplete="new-password"
          {...field("password_confirmation")}
        />
        <Button type="submit" size="lg" loading={reset.isPending} className="w-full">
          Modifier le mot de passe
        </Button>
      </form>
    );
  }

  return (
    <AuthCard
      title="Nouveau mot de passe"
      description={done || invalid ? undefined : "Choisissez le nouveau mot de passe de votre compte."}
    >
      {body}
    </AuthCard>
  );
}
