import { Download } from "lucide-react";
import { useId } from "react";
import { DATA_EXPORT_URL } from "../../../shared/schemas/account";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { ErasureCard } from "./ErasureCard";

/**
 * 'Mes données' of the patient's and the dentist's profile pages: the personal data export
 * (RGPD art. 15 and 20). A plain link: the browser downloads the archive with the session cookie.
 * Beside it, 'Supprimer mon compte' (RGPD art. 17).
 */
export function DataSection({ className }: { className?: string }) {
  const headingId = useId();
  const descriptionId = useId();
  return (
    <section aria-labelledby={headingId} className={cn("grid gap-4", className)}>
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        Mes données
      </h2>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="self-start">
          <CardHeader>
            <CardTitle as="h3">Télécharger mes données</CardTitle>
            <CardDescription id={descriptionId}>
              Une archive zip avec toutes vos données (profil, demandes, propositions, conversations,
              rendez-vous, historique des accès, consentements et appareils connectés) dans un fichier JSON,
              les fichiers que vous avez envoyés et un fichier README qui explique chaque élément.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline">
              <a href={DATA_EXPORT_URL} download aria-describedby={descriptionId}>
                <Download aria-hidden="true" />
                Télécharger mes données
              </a>
            </Button>
          </CardContent>
        </Card>
        <ErasureCard />
      </div>
    </section>
  );
}
