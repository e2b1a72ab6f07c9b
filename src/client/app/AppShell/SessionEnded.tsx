import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { flushSync } from "react-dom";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { ACCOUNT_MESSAGES, type LoginInput, loginSchema } from "../../../shared/schemas/account";
import type { Profile } from "../../../shared/schemas/profile";
import { Button } from "../../components/ui/Button";
import { ActionDialog } from "../../components/ui/Dialog";
import { EmailField, PasswordField } from "../../components/ui/FormField";
import { LoginCodeForm, LoginFailure } from "../../features/auth/LoginPage";
import { isApiError } from "../../lib/api";
import { clearSessionCache, postLoginPath, useLogin } from "../../lib/auth";
import { fieldProps, showFieldErrors } from "../../lib/form";

export const SESSION_ENDED = {
  title: "Votre session a pris fin",
  description:
    "Saisissez à nouveau votre mot de passe pour continuer : ce que vous avez saisi sur cette page est conservé.",
  wrongPassword: "Mot de passe incorrect.",
  back: "Connexion rétablie",
  otherAccount: "Se connecter avec un autre compte",
} as const;

/**
 * Over the page, when the server answered a call of this tab « Veuillez vous connecter » (its
 * session expired, or it was signed out from another tab): the password of the same account (and its
 * app's code if two-step sign-in is on), then every read is asked again and the page, with whatever
 * was being written, stays as it was (ADR 102). `ended` counts the refusals: closed, the dialog opens
 * again at the next one. « Se connecter avec un autre compte » forgets this session and goes to the
 * area's login page (back here afterwards).
 */
export default function SessionEnded({ profile, ended }: { profile: Profile; ended: number }) {
  const queryClient = useQueryClient();
  const login = useLogin();
  const [closedAt, setClosedAt] = useState(0);
  const [step, setStep] = useState<"password" | "code">("password");
  const [formError, setFormError] = useState<string | null>(null);
  const [suspended, setSuspended] = useState(false);
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: profile.email, password: "", remember_me: false },
  });
  const field = fieldProps(form);

  const signedIn = (again: Profile) => {
    // Another account behind the same address (changed meanwhile): nothing of this one may stay.
    if (again.id !== profile.id) {
      window.location.assign(postLoginPath(again, null));
      return;
    }
    toast.success(SESSION_ENDED.back);
    // What failed while signed out is read again; the live channel reconnects by itself.
    void queryClient.invalidateQueries();
  };

  const restart = (reason: string | null) => {
    form.setValue("password", "");
    setFormError(reason);
    flushSync(() => setStep("password"));
    form.setFocus("password");
  };

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    setSuspended(false);
    // Not `mutate`'s own callbacks: signed in, the session store closes this dialog (unmounted, they
    // would not run) before the page is told to read again.
    return login.mutateAsync({ email: profile.email, password: values.password, remember_me: false }).then(
      (result) => {
        if ("profile" in result) signedIn(result.profile);
        else setStep("code");
      },
      (error: unknown) => {
        if (isApiError(error) && error.status === 401) {
          form.setError("password", { message: SESSION_ENDED.wrongPassword }, { shouldFocus: true });
        } else if (!showFieldErrors(form, error, ["password"])) {
          // Suspended (403), too many attempts (429), unreachable: said above the field.
          setFormError(isApiError(error) ? error.message : ACCOUNT_MESSAGES.loginUnexpected);
          setSuspended(isApiError(error) && error.status === 403);
        }
      },
    );
  });

  return (
    <ActionDialog
      open={ended > closedAt}
      onOpenChange={(open) => {
        if (!open) setClosedAt(ended);
      }}
      title={SESSION_ENDED.title}
      description={
        step === "code"
          ? "Saisissez le code à 6 chiffres affiché par votre application d'authentification."
          : SESSION_ENDED.description
      }
    >
      {step === "code" ? (
        <LoginCodeForm onSignedIn={signedIn} onRestart={restart} />
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <LoginFailure message={formError} suspended={suspended} />
          <EmailField name="email" value={profile.email} readOnly autoComplete="username" />
          <PasswordField label="Mot de passe" autoFocus {...field("password")} />
          <Button type="submit" loading={login.isPending} className="w-full">
            Se reconnecter
          </Button>
          <Button
            type="button"
            variant="ghost"
            className="w-full"
            onClick={() => clearSessionCache(queryClient)}
          >
            {SESSION_ENDED.otherAccount}
          </Button>
        </form>
      )}
    </ActionDialog>
  );
}
