import { mayCancelRequest } from "../../../../shared/policies/requests";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import {
  DocumentCard,
  DownloadButton,
  useDocumentDownload,
} from "../../../components/request/RequestDocuments";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/Card";
import { DocumentTypeAction } from "../reading/DocumentTypeAction";
import { ReadDocumentAction } from "../reading/ReadDocumentAction";

/**
 * 'Documents': the patient's files, each downloadable, its type correctable (issue 34) and, while the
 * request is open and has no detailed acts yet, readable into acts.
 */
export function DocumentsCard({ request }: { request: RequestDetail }) {
  const { downloading, download } = useDocumentDownload({ failure: "Impossible de télécharger le fichier" });
  const editable = mayCancelRequest(request.status) && request.quote_lines.length === 0;
  return (
    <Card className="self-start lg:col-start-3 lg:row-span-3 lg:row-start-1">
      <CardHeader>
        <CardTitle>Documents</CardTitle>
      </CardHeader>
      <CardContent>
        {request.documents.length === 0 ? (
          <p className="text-slate-600">Aucun document disponible</p>
        ) : (
          <ul className="grid gap-3">
            {request.documents.map((doc) => (
              <DocumentCard key={doc.id} document={doc}>
                <DownloadButton
                  document={doc}
                  loading={downloading === doc.id}
                  onDownload={(id, name) => void download(id, name)}
                />
                <DocumentTypeAction requestId={request.id} document={doc} />
                <ReadDocumentAction requestId={request.id} document={doc} editable={editable} />
              </DocumentCard>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
