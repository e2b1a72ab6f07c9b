import { ExternalLink } from "lucide-react";
import type { DocumentDto } from "../../../shared/schemas/requests";
import { DocumentCard, DownloadButton } from "../../components/request/RequestDocuments";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { documentViewUrl } from "./api";

/**
 * A request's documents as cards, each with 'Voir' (inline, new tab) and 'Télécharger'; both are
 * recorded for the patient by the server. Used by the submission and proposal pages.
 */
export function DocumentGrid({
  documents,
  downloading,
  onDownload,
  className,
}: {
  documents: DocumentDto[];
  /** The id of the document being downloaded (its button shows a spinner). */
  downloading: string | null;
  onDownload: (id: string, fileName: string) => void;
  className?: string;
}) {
  return (
    <ul className={cn("grid gap-3 sm:grid-cols-2", className)}>
      {documents.map((doc) => (
        <DocumentCard key={doc.id} document={doc} className="content-between">
          <Button
            variant="outline"
            size="sm"
            onClick={() => window.open(documentViewUrl(doc.id), "_blank", "noopener")}
            aria-label={`Voir ${doc.file_name} (nouvel onglet)`}
          >
            <ExternalLink aria-hidden="true" />
            Voir
          </Button>
          <DownloadButton document={doc} loading={downloading === doc.id} onDownload={onDownload} />
        </DocumentCard>
      ))}
    </ul>
  );
}
