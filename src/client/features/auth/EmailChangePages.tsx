import { useState } from "react";
import { useSearchParams } from "react-router";
import { ACCOUNT_MESSAGES, EMAIL_CHANGE_MESSAGES } from "../../../shared/schemas/account";
import { Button } from "../../components/ui/Button";
import { isApiError } from "../../lib/api";
import { useConfirmEmailChange } from "../../lib/auth";
import { AuthCard, AuthOutcome } from "./AuthCard";

/**
 * /confirm-email?token=… — the link sent to a new address (ADR 083). A button confirms it: opening
 * the link alone changes nothing (a mail provider that visits links must not do it in her stead).
 * No session needed: the link may be opened on another device.
 */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const confirm = useConfirmEmailChange();
  const [done, setDone] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ title: string; message: string } | null>(
    token ? null : { title: "Lien invalide", message: EMAIL_CHANGE_MESSAGES.linkInvalid },
  );

  const onConfirm = () => {
    confirm.mutate(token, {
      onSuccess: (result) => setDone(result?.message || EMAIL_CHANGE_MESSAGES.done),
      onError: (error) => {
        if (isApiError(error) && error.code === "INVALID_TOKEN")
          setRefused({ title: "Lien invalide", message: error.message });
        else
          setRefused({
            title: "Adresse non modifiée",
            message: error instanceof Error ? error.message : ACCOUNT_MESSAGES.serviceUnreachable,
          });
      },
    });
  };

  let body: React.ReactNode;
  if (done) {
    body = (
      <AuthOutcome
        success
        title="Adresse e-mail modifiée"
        message={done}
        to="/index"
        label="Aller à mon espace"
      />
    );
  } else if (refused) {
    body = (
      <AuthOutcome
        success={false}
        title={refused.title}
        message={refused.message}
        to="/index"
        label="Aller à mon espace"
      />
    );
  } else {
    body = (
      <div className="grid gap-5">
        <p className="text-sm text-slate-600">
          Confirmez que cette adresse devient celle de votre compte : vous l'utiliserez pour vous connecter et
          recevoir nos e-mails.
        </p>
        <Button size="lg" loading={confirm.isPending} onClick={onConfirm} className="w-full">
          Confirmer ma nouvelle adresse
        </Button>
      </div>
    );
  }

  return <AuthCard title="Nouvelle adresse e-mail">{body}</AuthCard>;
}
