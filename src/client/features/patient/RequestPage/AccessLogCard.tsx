import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { formatDetailDateTime } from "../../../../shared/format/dates";
import { drName } from "../../../../shared/format/names";
import {
  ACCESS_ACTION_LABELS,
  type DocumentAccessDto,
  type RequestDetail,
} from "../../../../shared/schemas/requests";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { type Column, DataTable, ListPagination } from "../../../components/ui/DataTable";
import { LoadError } from "../../../components/ui/LoadError";
import { useConfig } from "../../../lib/config";
import { useAccessLogPage } from "../api";

const accessColumns = (brand: string): Column<DocumentAccessDto>[] => [
  // A dentist with his title, as patients read him (glossary), the team by name.
  { header: "Personne", cell: (a) => (a.actor_kind === "dentist" ? drName(a.actor_name) : a.actor_name) },
  { header: "Rôle", cell: (a) => (a.actor_kind === "dentist" ? "Dentiste" : `Équipe ${brand}`) },
  { header: "Action", cell: (a) => ACCESS_ACTION_LABELS[a.action] },
  { header: "Document", cell: (a) => <span className="break-all">{a.document_name ?? "—"}</span> },
  { header: "Date", cell: (a) => formatDetailDateTime(a.created_at), className: "whitespace-nowrap" },
];

/**
 * 'Qui a consulté mes documents': every opening, view or download by a dentist or the team (ADR 005),
 * newest first, by pages — the first from the request's detail, the others asked for.
 */
export function AccessLogCard({ request }: { request: RequestDetail }) {
  const { brand_name: brand } = useConfig();
  const [page, setPage] = useState(1);
  const later = useAccessLogPage(request.id, page);
  const first = page === 1;
  const rows = first ? request.access_log : later.data?.items;
  const hasMore = first ? request.access_log_has_more : later.data?.has_more;
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
        {first && rows?.length === 0 ? (
          <p className="text-slate-600">Personne n'a encore consulté vos documents.</p>
        ) : (
          <div className="grid gap-3">
            <DataTable
              caption="Consultations de mes documents"
              columns={accessColumns(brand)}
              rows={rows}
              rowKey={(a) => a.id}
              loading={!first && later.isPending}
              loadingRows={3}
              error={
                !first && later.isError ? (
                  <LoadError
                    title="Ces consultations n'ont pas pu être chargées."
                    onRetry={() => later.refetch()}
                  />
                ) : undefined
              }
              empty={<p className="text-slate-600">Aucune consultation plus ancienne.</p>}
            />
            <ListPagination page={page} hasMore={hasMore ?? false} onPageChange={setPage} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
