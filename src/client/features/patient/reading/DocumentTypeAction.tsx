import { toast } from "sonner";
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, type DocumentType } from "../../../../shared/domain/requests";
import type { DocumentDto } from "../../../../shared/schemas/requests";
import { OptionSelect } from "../../../components/OptionSelect";
import { isApiError } from "../../../lib/api";
import { useChangeDocumentType } from "../api";

/**
 * The type of a document of the patient's request, corrected in place (issue 34): Devis, Radiographie,
 * Photo or Autre — a phone photo of the devis sent as "Photo" becomes a devis, and is then read when the
 * request has no lines yet (the server decides, and says so).
 */
export function DocumentTypeAction({ requestId, document }: { requestId: string; document: DocumentDto }) {
  const change = useChangeDocumentType(requestId);
  return (
    <OptionSelect
      className="h-9 w-full text-sm sm:w-40"
      aria-label={`Type de document pour ${document.file_name}`}
      value={document.document_type}
      options={DOCUMENT_TYPES}
      labelOf={(value) => DOCUMENT_TYPE_LABELS[value]}
      disabled={change.isPending}
      onValueChange={(type: DocumentType) => {
        if (type === document.document_type) return;
        change.mutate(
          { documentId: document.id, type },
          {
            onSuccess: ({ message }) => toast.success(message),
            onError: (error) =>
              toast.error("Le type du document n'a pas été modifié", {
                description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
              }),
          },
        );
      }}
    />
  );
}
