import { Link } from "react-router";
import { formatDetailDate, formatDetailDateTime } from "../../../shared/format/dates";
import { PageHeader } from "../../components/PageHeader";
import { Card } from "../../components/ui/Card";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { useRetention } from "./api";

/**
 * /admin/retention 'Conservation des données': what the next daily run of the retention job will
 * erase (or, for inactive accounts, warn), counted by the server with the periods the privacy page
 * states.
 */
export function AdminRetentionPage() {
  const retention = useRetention();
  const data = retention.data;
  return (
    <>
      <PageHeader
        title="Conservation des données"
        description="Chaque jour, les données dont la durée de conservation est écoulée sont effacées, fichiers compris. Voici ce que le prochain passage effacera."
      />
      {retention.isError ? (
        <LoadError
          title="Impossible de charger les durées de conservation"
          onRetry={() => void retention.refetch()}
        />
      ) : (
        <Card className="grid gap-4 p-5 sm:p-6">
          {data ? (
            <p className="text-slate-700">
              Prochain passage : <strong>{formatDetailDate(data.next_run_on)}</strong>
              {data.last_run_at ? <> · dernier passage le {formatDetailDateTime(data.last_run_at)}</> : null}
            </p>
          ) : (
            <Skeleton className="h-5 w-72" />
          )}
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Ce que le prochain passage effacera</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Données
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  Antérieures au
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Nombre
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {data
                ? data.items.map((item) => (
                    <tr key={item.kind}>
                      <td className="py-2 pr-4 text-slate-900">{item.label}</td>
                      <td className="py-2 pr-4 whitespace-nowrap text-slate-700">
                        {formatDetailDate(item.before)}
                      </td>
                      <td className="py-2 text-right font-semibold tabular-nums text-slate-900">
                        {item.count}
                      </td>
                    </tr>
                  ))
                : [0, 1, 2, 3, 4].map((row) => (
                    <tr key={row}>
                      <td colSpan={3} className="py-2">
                        <Skeleton className="h-5 w-full" />
                      </td>
                    </tr>
                  ))}
            </tbody>
          </table>
          <p className="text-sm text-slate-600">
            Les durées sont celles de la{" "}
            <Link to="/privacy" className="text-brand-800 underline underline-offset-2">
              politique de confidentialité
            </Link>
            .
          </p>
        </Card>
      )}
    </>
  );
}
