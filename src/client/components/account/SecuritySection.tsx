import { useId } from "react";
import { cn } from "../../lib/cn";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { DevicesList } from "./DevicesList";
import { PasswordChangeForm } from "./PasswordChangeForm";

/** 'Sécurité' of the patient's and the dentist's profile pages. */
export function SecuritySection({ email, className }: { email: string; className?: string }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn("grid gap-4", className)}>
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        Sécurité
      </h2>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="self-start">
          <CardHeader>
            <CardTitle as="h3">Changer mon mot de passe</CardTitle>
            <CardDescription>Saisissez votre mot de passe actuel, puis le nouveau deux fois.</CardDescription>
          </CardHeader>
          <CardContent>
            <PasswordChangeForm email={email} />
          </CardContent>
        </Card>
        <Card className="self-start">
          <CardHeader>
            <CardTitle as="h3">Appareils connectés</CardTitle>
            <CardDescription>
              Les appareils où votre compte est ouvert. Si vous n'en reconnaissez pas un, déconnectez-le et
              changez votre mot de passe.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <DevicesList />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
