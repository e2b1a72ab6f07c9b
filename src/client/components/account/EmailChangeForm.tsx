import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { type EmailChangeInput, emailChangeSchema } from "../../../shared/schemas/account";
import { fieldProps, showFieldErrors } from "../../lib/form";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { InputField, PasswordField } from "../ui/FormField";
import { useRequestEmailChange } from "./securityApi";

const FIELDS = ["new_email", "current_password"] as const;
const EMPTY: EmailChangeInput = { new_email: "", current_password: "" };

/**
 * 'Changer mon adresse e-mail' (ADR 083): the new address and the current password; a link goes to
 * the new address, and the account keeps the current one until it is opened.
 */
export function EmailChangeForm({ email }: { email: string }) {
  const request = useRequestEmailChange();
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<EmailChangeInput>({ resolver: zodResolver(emailChangeSchema), defaultValues: EMPTY });
  const field = fieldProps(form);

  const onSubmit = form.handleSubmit((values) => {
    setSent(null);
    request.mutate(values, {
      onSuccess: (result) => {
        form.reset(EMPTY);
        setSent(result.message);
        toast.success("Lien de confirmation envoyé");
      },
      onError: (error) => {
        if (!showFieldErrors(form, error, FIELDS))
          toast.error("L'adresse n'a pas été modifiée", {
            description: error instanceof Error ? error.message : undefined,
          });
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Changer d'adresse" className="grid gap-5">
      <p className="text-sm text-slate-600">
        Adresse actuelle : <span className="font-medium text-slate-900">{email}</span>
      </p>
      {/* For password managers: which account this password belongs to (not shown, not focusable). */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <InputField
        label="Nouvelle adresse"
        required
        type="email"
        autoComplete="email"
        {...field("new_email")}
      />
      <PasswordField label="Mot de passe actuel" {...field("current_password")} />
      {sent ? (
        <Alert variant="success" title="Vérifiez votre boîte de réception">
          {sent}
        </Alert>
      ) : null}
      <div>
        <Button type="submit" loading={request.isPending} className="w-full sm:w-auto">
          Recevoir le lien de confirmation
        </Button>
      </div>
    </form>
  );
}
