import { ShieldCheck } from "lucide-react";
import { formatDetailDateTime } from "../../../../shared/format/dates";
import { ACCESS_ACTION_LABELS, type DocumentAccessDto } from "../../../../shared/schemas/requests";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { type Column, DataTable } from "../../../components/ui/DataTable";
import { useConfig } from "../../../lib/config";

const accessColumns = (brand: string): Column<DocumentAccessDto>[] => [
  { header: "Personne", cell: (a) => a.actor_name },
  { header: "Rôle", cell: (a) => (a.actor_kind === "dentist" ? "Dentiste" : `Équipe ${brand}`) },
  { header: "Action", cell: (a) => ACCESS_ACTION_LABELS[a.action] },
  { header: "Document", cell: (a) => <span className="break-all">{a.document_name ?? "—"}</span> },
  { header: "Date", cell: (a) => formatDetailDateTime(a.created_at), className: "whitespace-nowrap" },
];

/** 'Qui a consulté mes documents': every opening, view or download by a dentist or the team (ADR 005). */
export function AccessLogCard({ accessLog }: { accessLog: DocumentAccessDto[] }) {
  const { brand_name: brand } = useConfig();
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle icon={ShieldCheck}>Qui a consulté mes documents</CardTitle>
        <CardDescription>
          Chaque ouverture de cette demande, chaque consultation ou téléchargement de vos documents et de vos
          pièces jointes par un dentiste ou par l'équipe est enregistré ici.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {accessLog.length === 0 ? (
          <p className="text-slate-600">Personne n'a encore consulté vos documents.</p>
        ) : (
          <DataTable
            caption="Consultations de mes documents"
            columns={accessColumns(brand)}
            rows={accessLog}
            rowKey={(a) => a.id}
          />
        )}
      </CardContent>
    </Card>
  );
}
