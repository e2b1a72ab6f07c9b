import { SearchX } from "lucide-react";
import { useId } from "react";
import { formatDetailDateTime } from "../../../shared/format/dates";
import {
  ADMIN_MESSAGES,
  AUDIT_TYPE_LABELS,
  AUDIT_TYPES,
  type AuditEntry,
} from "../../../shared/schemas/admin";
import { PageHeader } from "../../components/PageHeader";
import { type Column, ListPagination, QueryTable } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { Label } from "../../components/ui/Label";
import { SearchField } from "../../components/ui/SearchInput";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/Select";
import { loadFailure, RefreshButton, usePagedList } from "./AdminParts";
import { type AuditType, useAudit } from "./api";

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
    cell: (e) => (e.reason ? <span className="whitespace-pre-line break-words">{e.reason}</span> : "—"),
  },
];

/** /admin/audit 'Journal d'audit': recent sensitive events, filtered by type and person, paged. */
export function AdminAuditPage() {
  const typeId = useId();
  const list = usePagedList<{ type: AuditType | "" }>({ type: "" });
  const { type } = list.filters;
  const audit = useAudit(type, list.search, list.page);

  return (
    <>
      <PageHeader
        title="Journal d'audit"
        description="Décisions de vérification, consultations de documents et de pièces jointes par une autre personne que leur propriétaire, modération des avis, suspensions et suppressions de comptes, droits d'administrateur."
      />
      <search className="mb-5 grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] md:items-end">
        <div className="grid gap-1.5">
          <Label id={`${typeId}-label`} htmlFor={typeId}>
            Type d'événement
          </Label>
          <Select
            value={type || ALL}
            onValueChange={(value) => list.setFilter("type", value === ALL ? "" : (value as AuditType))}
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
        <SearchField
          label="Rechercher une personne"
          placeholder="Qui a agi ou qui est concerné"
          value={list.typed}
          onValueChange={list.setTyped}
        />
        <RefreshButton query={audit} />
      </search>
      <QueryTable
        caption="Journal d'audit"
        columns={COLUMNS}
        query={audit}
        loadingRows={10}
        error={loadFailure(audit, "Impossible de charger le journal")}
        empty={<EmptyState icon={SearchX} title={ADMIN_MESSAGES.noResult} />}
      />
      <ListPagination
        page={list.page}
        hasMore={audit.data?.has_more}
        onPageChange={list.setPage}
        className="mt-4"
      />
    </>
  );
}
