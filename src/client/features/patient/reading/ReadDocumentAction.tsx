import { ScanText } from "lucide-react";
import { toast } from "sonner";
import { READING_MESSAGES } from "../../../../shared/schemas/reading";
import type { DocumentDto } from "../../../../shared/schemas/requests";
import { Button } from "../../../components/ui/Button";
import { isApiError } from "../../../lib/api";
import { useReadDocument, useReading } from "../api";
import { READABLE_TYPES, readingStage } from "./readLines";

/**
 * "Lire ce devis" on a document of the request (issue 17): while the request is open and its devis has
 * no saved line, a document typed 'Devis' in PDF, JPEG or PNG can be read; not while a reading is
 * under way or waits for the patient's review in 'Mon devis' (a new one would replace it).
 */
export function ReadDocumentAction({
  requestId,
  document,
  editable,
}: {
  requestId: string;
  document: DocumentDto;
  /** The request is open and its devis has no saved line. */
  editable: boolean;
}) {
  // The server reads the documents typed 'Devis' only (READING_MESSAGES.notQuote otherwise).
  const readable =
    editable && document.document_type === "quote" && READABLE_TYPES.includes(document.mime_type);
  const reading = useReading(requestId, readable);
  const read = useReadDocument(requestId);
  const stage = readingStage(reading.data, readable);
  if (!readable || reading.isPending || stage === "pending" || stage === "review") return null;
  return (
    <Button
      variant="outline"
      size="sm"
      loading={read.isPending}
      aria-label={`Lire ce devis : ${document.file_name}`}
      onClick={() =>
        read.mutate(document.id, {
          onSuccess: () =>
            toast(READING_MESSAGES.pending, {
              description: "Les lignes lues s'afficheront dans « Mon devis », pour que vous les vérifiiez.",
            }),
          onError: (error) =>
            toast.error("Ce devis n'a pas pu être lu", {
              description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
            }),
        })
      }
    >
      <ScanText aria-hidden="true" />
      Lire ce devis
    </Button>
  );
}
