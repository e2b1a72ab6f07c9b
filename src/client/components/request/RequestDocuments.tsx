import { Download, FileText } from "lucide-react";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { DOCUMENT_TYPE_LABELS } from "../../../shared/domain/requests";
import { formatFileSize } from "../../../shared/format/size";
import type { DocumentDto } from "../../../shared/schemas/requests";
import { isApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { downloadDocument } from "../../lib/download";
import { Button } from "../ui/Button";

/** A request's documents, as the patient and the dentists see them: one card a file, with its actions. */

/**
 * Downloads one document at a time: `downloading` is the id in progress (its button spins); a
 * failure is a toast with the server's message, a success one only when `success` is given.
 */
export function useDocumentDownload({ success, failure }: { success?: string; failure: string }) {
  const [downloading, setDownloading] = useState<string | null>(null);
  const download = async (documentId: string, fileName: string) => {
    setDownloading(documentId);
    try {
      await downloadDocument(documentId, fileName);
      if (success) toast.success(success);
    } catch (error) {
      toast.error(failure, { description: isApiError(error) ? error.message : undefined });
    } finally {
      setDownloading(null);
    }
  };
  return { downloading, download };
}

/** One document: its name, type and size, then its actions (`children`). */
export function DocumentCard({
  document,
  className,
  children,
}: {
  document: DocumentDto;
  className?: string;
  children: ReactNode;
}) {
  return (
    <li className={cn("grid gap-3 rounded-ui border border-slate-200 p-3", className)}>
      <div className="flex items-start gap-3">
        <FileText className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <div className="min-w-0">
          <p className="break-all font-medium text-slate-900">{document.file_name}</p>
          <p className="text-sm text-slate-600 tabular-nums">
            {DOCUMENT_TYPE_LABELS[document.document_type]} · {formatFileSize(document.size)}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">{children}</div>
    </li>
  );
}

/** 'Télécharger' for one document (spins while `loading`). */
export function DownloadButton({
  document,
  loading,
  onDownload,
}: {
  document: DocumentDto;
  loading: boolean;
  onDownload: (id: string, fileName: string) => void;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      loading={loading}
      onClick={() => onDownload(document.id, document.file_name)}
      aria-label={`Télécharger ${document.file_name}`}
    >
      <Download aria-hidden="true" />
      Télécharger
    </Button>
  );
}
