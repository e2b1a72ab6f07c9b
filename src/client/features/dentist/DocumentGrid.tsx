import { Download, ExternalLink, FileText } from "lucide-react";
import { DOCUMENT_TYPE_LABELS } from "../../../shared/domain/requests";
import { formatFileSize } from "../../../shared/format/size";
import type { DocumentDto } from "../../../shared/schemas/requests";
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
        <li key={doc.id} className="grid content-between gap-3 rounded-ui border border-slate-200 p-3">
          <div className="flex items-start gap-3">
            <FileText className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
            <div className="min-w-0">
              <p className="break-all font-medium text-slate-900">{doc.file_name}</p>
              <p className="text-sm text-slate-600 tabular-nums">
                {DOCUMENT_TYPE_LABELS[doc.document_type]} · {formatFileSize(doc.size)}
              </p>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => window.open(documentViewUrl(doc.id), "_blank", "noopener")}
              aria-label={`Voir ${doc.file_name} (nouvel onglet)`}
            >
              <ExternalLink aria-hidden="true" />
              Voir
            </Button>
            <Button
              variant="outline"
              size="sm"
              loading={downloading === doc.id}
              onClick={() => onDownload(doc.id, doc.file_name)}
              aria-label={`Télécharger ${doc.file_name}`}
            >
              <Download aria-hidden="true" />
              Télécharger
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
