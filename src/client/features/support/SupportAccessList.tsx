import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { ACCESS_ACTION_LABELS } from "../../../shared/schemas/requests";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { ListPagination } from "../../components/ui/DataTable";
import { LoadError } from "../../components/ui/LoadError";
import { Loading } from "../../components/ui/Loading";
import { Skeleton } from "../../components/ui/Skeleton";
import { useSupportAccess } from "./api";

/**
 * 'Qui a lu ce fil' on the help page (issue 14): each time the team opened the patient's thread or
 * one of its images, with who and when, as the request pages show the dentists' reads.
 */
export function SupportAccessList() {
  const [page, setPage] = useState(1);
  const access = useSupportAccess(page);
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle as="h2" icon={ShieldCheck}>
          Qui a lu ce fil
        </CardTitle>
        <CardDescription>
          Chaque ouverture de votre fil ou de ses images par un membre de l'équipe est enregistrée ici.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {access.isPending ? (
          <Loading>
            <Skeleton className="h-10 w-full" />
          </Loading>
        ) : access.isError ? (
          <LoadError title="Impossible de charger l'historique" onRetry={() => void access.refetch()} />
        ) : access.data.items.length === 0 && page === 1 ? (
          <p className="text-slate-600">Personne de l'équipe n'a encore ouvert ce fil.</p>
        ) : (
          <div className="grid gap-3">
            <ul className="grid gap-2" aria-label="Lectures de mon fil par l'équipe">
              {access.data.items.map((row) => (
                <li key={row.id} className="text-slate-700">
                  <span className="font-medium text-slate-900">{row.actor_name}</span> (équipe) —{" "}
                  {ACCESS_ACTION_LABELS[row.action]}
                  {row.object_name ? ` (${row.object_name})` : ""}, le {formatDetailDateTime(row.created_at)}
                </li>
              ))}
            </ul>
            <ListPagination page={page} hasMore={access.data.has_more} onPageChange={setPage} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
