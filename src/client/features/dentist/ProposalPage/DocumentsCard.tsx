import { FileArchive } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { DocumentType } from "../../../../shared/domain/requests";
import type { DentistRequestDetail } from "../../../../shared/schemas/dentist";
import { OFFER_MESSAGES } from "../../../../shared/schemas/offers";
import { useDocumentDownload } from "../../../components/request/RequestDocuments";
import { Button } from "../../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/Tabs";
import { isApiError } from "../../../lib/api";
import { DocumentGrid } from "../DocumentGrid";
import { downloadRequestZip } from "../offersApi";

type DocumentTab = "all" | Extract<DocumentType, "quote" | "xray" | "photo">;

const DOCUMENT_TABS: { value: DocumentTab; label: string; empty: string }[] = [
  { value: "all", label: "Tous", empty: "Aucun document pour cette demande." },
  { value: "quote", label: "Devis", empty: "Aucun devis pour cette demande." },
  { value: "xray", label: "Radiographies", empty: "Aucune radiographie pour cette demande." },
  { value: "photo", label: "Photos", empty: "Aucune photo pour cette demande." },
];

/** 'Documents' by type (tabs), each viewable and downloadable, and 'Tout télécharger' as a zip. */
export function DocumentsCard({ request }: { request: DentistRequestDetail }) {
  const [tab, setTab] = useState<DocumentTab>("all");
  const { downloading, download } = useDocumentDownload({
    success: "Téléchargement du document terminé",
    failure: "Impossible de télécharger le document",
  });
  const [zipping, setZipping] = useState(false);
  const documents = request.documents;
  const ofTab = (value: DocumentTab) =>
    value === "all" ? documents : documents.filter((doc) => doc.document_type === value);

  const onDownloadAll = async () => {
    setZipping(true);
    try {
      await downloadRequestZip(request.id);
      toast.success("Téléchargement des documents terminé");
    } catch (error) {
      toast.error(OFFER_MESSAGES.zipFailed, {
        description: isApiError(error) ? error.message : undefined,
      });
    } finally {
      setZipping(false);
    }
  };

  return (
    <Card>
      <CardHeader className="sm:flex sm:items-start sm:justify-between sm:gap-4">
        <div className="grid gap-1">
          <CardTitle>Documents</CardTitle>
          <CardDescription>
            Chaque consultation ou téléchargement est enregistré pour le patient.
          </CardDescription>
        </div>
        <div className="mt-3 sm:mt-0">
          <Button
            variant="outline"
            size="sm"
            disabled={documents.length === 0}
            loading={zipping}
            onClick={() => void onDownloadAll()}
          >
            <FileArchive aria-hidden="true" />
            Tout télécharger
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <Tabs value={tab} onValueChange={(value) => setTab(value as DocumentTab)}>
          <TabsList aria-label="Types de documents">
            {DOCUMENT_TABS.map(({ value, label }) => (
              <TabsTrigger key={value} value={value}>
                {label} <span className="tabular-nums">({ofTab(value).length})</span>
              </TabsTrigger>
            ))}
          </TabsList>
          {DOCUMENT_TABS.map(({ value, empty }) => {
            const list = ofTab(value);
            return (
              <TabsContent key={value} value={value}>
                {list.length === 0 ? (
                  <p className="text-slate-600">{empty}</p>
                ) : (
                  <DocumentGrid
                    documents={list}
                    downloading={downloading}
                    onDownload={(id, name) => void download(id, name)}
                  />
                )}
              </TabsContent>
            );
          })}
        </Tabs>
      </CardContent>
    </Card>
  );
}
