import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import {
  type PasswordChangeInput,
  passwordChangeSchema,
  SECURITY_MESSAGES,
} from "../../../shared/schemas/account";
import { fieldProps, showFieldErrors } from "../../lib/form";
import { Button } from "../ui/Button";
import { PasswordField } from "../ui/FormField";
import { NewPasswordField } from "../ui/NewPasswordField";
import { useChangePassword } from "./securityApi";

const FIELDS = ["current_password", "new_password", "new_password_confirmation"] as const;
const EMPTY: PasswordChangeInput = { current_password: "", new_password: "", new_password_confirmation: "" };

/** 'Changer mon mot de passe': current, new, confirmation; French errors beside each field. */
export function PasswordChangeForm({ email }: { email: string }) {
  const change = useChangePassword();
  const form = useForm<PasswordChangeInput>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: EMPTY,
  });
  const field = fieldProps(form);

  const onSubmit = form.handleSubmit((values) => {
    change.mutate(values, {
      onSuccess: (result) => {
        form.reset(EMPTY);
        toast.success("Mot de passe modifié", { description: result.message });
      },
      onError: (error) => {
        if (!showFieldErrors(form, error, FIELDS))
          toast.error(SECURITY_MESSAGES.passwordChangeFailed, {
            description: error instanceof Error ? error.message : undefined,
          });
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Changer mon mot de passe" className="grid gap-5">
      {/* For password managers: which account this password belongs to (not shown, not focusable). */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordField label="Mot de passe actuel" {...field("current_password")} />
      <NewPasswordField
        label="Nouveau mot de passe"
        password={form.watch("new_password") ?? ""}
        {...field("new_password")}
      />
      <PasswordField
        label="Confirmer le nouveau mot de passe"
        autoComplete="new-password"
        {...field("new_password_confirmation")}
      />
      <p className="text-sm text-slate-600">
        Vos autres appareils seront déconnectés ; cet appareil reste connecté.
      </p>
      <div>
        <Button type="submit" loading={change.isPending} className="w-full sm:w-auto">
          Changer mon mot de passe
        </Button>
      </div>
    </form>
  );
}
