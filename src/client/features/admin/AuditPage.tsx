import { SearchX } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { formatDetailDateTime } from "../../../shared/format/dates";
import {
  ADMIN_MESSAGES,
  AUDIT_TYPE_LABELS,
  AUDIT_TYPES,
  type AuditEntry,
} from "../../../shared/schemas/admin";
import { PageHeader } from "../../components/PageHeader";
import { type Column, DataTable, Pagination } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { Label } from "../../components/ui/Label";
import { LoadError } from "../../components/ui/LoadError";
import { SearchInput } from "../../components/ui/SearchInput";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/Select";
import { RefreshButton } from "./AdminParts";
import { type AuditType, useAudit, useDebounced } from "./api";

const ALL = "all";

const COLUMNS: Column<AuditEntry>[] = [
  {
    header: "Date",
    cell: (e) => <time dateTime={e.created_at}>{formatDetailDateTime(e.created_at)}</time>,
    className: "whitespace-nowrap",
  },
  { header: "Personne", cell: (e) => <span className="font-medium">{e.actor_name}</span> },
  { header: "Événement", cell: (e) => e.label },
  { header: "Concerne", cell: (e) => e.subject ?? "—" },
  {
    header: "Raison",
    cell: (e) => (e.reason ? <span className="whitespace-pre-line">{e.reason}</span> : "—"),
  },
];

/** /admin/audit 'Journal d'audit': recent sensitive events, filtered by type and person, paged. */
export function AdminAuditPage() {
  const typeId = useId();
  const personId = useId();
  const [type, setType] = useState<AuditType | "">("");
  const [typed, setTyped] = useState("");
  const person = useDebounced(typed.trim());
  const [page, setPage] = useState(1);
  const audit = useAudit(type, person, page);
  const data = audit.data;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at its first page.
  useEffect(() => setPage(1), [type, person]);

  return (
    <>
      <PageHeader
        title="Journal d'audit"
        description="Décisions de vérification, consultations de documents par une autre personne que leur propriétaire, suppressions de comptes."
      />
      <search className="mb-5 grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] md:items-end">
        <div className="grid gap-1.5">
          <Label id={`${typeId}-label`} htmlFor={typeId}>
            Type d'événement
          </Label>
          <Select
            value={type || ALL}
            onValueChange={(value) => setType(value === ALL ? "" : (value as AuditType))}
          >
            <SelectTrigger id={typeId} aria-labelledby={`${typeId}-label`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>Tous les événements</SelectItem>
              {AUDIT_TYPES.map((t) => (
                <SelectItem key={t} value={t}>
                  {AUDIT_TYPE_LABELS[t]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={personId}>Rechercher une personne</Label>
          <SearchInput
            id={personId}
            placeholder="Nom ou e-mail"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
        </div>
        <RefreshButton query={audit} />
      </search>
      <DataTable
        caption="Journal d'audit"
        columns={COLUMNS}
        rows={data?.items}
        rowKey={(e) => e.id}
        loading={audit.isPending}
        loadingRows={10}
        error={
          audit.isError && !data ? (
            <LoadError title="Impossible de charger le journal" onRetry={() => void audit.refetch()} />
          ) : undefined
        }
        empty={<EmptyState icon={SearchX} title={ADMIN_MESSAGES.noResult} />}
      />
      {data && (page > 1 || data.has_more) ? (
        <div className="mt-4">
          <Pagination page={page} hasMore={data.has_more} onPageChange={setPage} />
        </div>
      ) : null}
    </>
  );
}
