import { Download } from "lucide-react";
import { useId } from "react";
import { DATA_EXPORT_URL } from "../../../shared/schemas/account";
import { Button } from "../ui/Button";
import { AccountCard, AccountSection } from "./AccountSection";
import { ErasureCard } from "./ErasureCard";

/**
 * 'Mes données' of the patient's and the dentist's profile pages: the personal data export
 * (RGPD art. 15 and 20). A plain link: the browser downloads the archive with the session cookie.
 * Beside it, 'Supprimer mon compte' (RGPD art. 17).
 */
export function DataSection({ className }: { className?: string }) {
  const descriptionId = useId();
  return (
    <AccountSection title="Mes données" className={className}>
      <AccountCard
        title="Télécharger mes données"
        descriptionId={descriptionId}
        description="Une archive zip avec toutes vos données (profil, demandes, propositions, conversations, rendez-vous, historique des accès, consentements et appareils connectés) dans un fichier JSON, les fichiers que vous avez envoyés et un fichier README qui explique chaque élément."
      >
        <Button asChild variant="outline">
          <a href={DATA_EXPORT_URL} download aria-describedby={descriptionId}>
            <Download aria-hidden="true" />
            Télécharger mes données
          </a>
        </Button>
      </AccountCard>
      <ErasureCard />
    </AccountSection>
  );
}
