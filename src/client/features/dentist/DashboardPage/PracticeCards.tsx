import { BadgeCheck, CalendarCheck, Inbox, type LucideIcon, Send } from "lucide-react";
import { Link } from "react-router";
import { formatMinutes } from "../../../../shared/format/duration";
import type { DentistDashboard } from "../../../../shared/schemas/dentist";
import { Badge } from "../../../components/ui/Badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { Progress } from "../../../components/ui/Progress";
import { Skeleton } from "../../../components/ui/Skeleton";
import { useSession } from "../../../lib/session";
import { linkClasses } from "./DashboardLists";

/**
 * 'Statut du cabinet': verification, the response rate (the open requests he answered, as the spec
 * defines it: said under the bar) and the average response time over 30 days.
 */
export function PracticeStatus({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
  // null: no open request to answer (unverified, or none at all): « — », not 0 %.
  const rate = data?.response_rate ?? null;
  const state = useSession().profile?.verification_state;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Statut du cabinet</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        {loading ? (
          <Skeleton className="h-6 w-36 rounded-full" />
        ) : data?.verified ? (
          <p>
            <Badge tone="green">
              <BadgeCheck aria-hidden="true" />
              Cabinet vérifié
            </Badge>
          </p>
        ) : state === "refused" || state === "withdrawn" ? (
          // As the card above says it: no decision is still to come.
          <p>
            <Badge tone="red">{state === "refused" ? "Vérification refusée" : "Vérification retirée"}</Badge>
          </p>
        ) : (
          <p>
            {/* Nothing is waiting at the team until he asks for it. */}
            <Badge tone="yellow">
              {state === "requested" ? "En attente de vérification" : "Vérification à demander"}
            </Badge>
          </p>
        )}
        <div className="grid gap-2">
          <div className="flex items-center justify-between gap-3 text-sm">
            <span id="response-rate-label" className="font-medium text-slate-700">
              Taux de réponse
            </span>
            <span className="font-semibold text-slate-900 tabular-nums">
              {loading ? "" : rate === null ? <span aria-hidden="true">—</span> : `${rate}\u202f%`}
            </span>
          </div>
          <Progress
            value={rate ?? 0}
            aria-labelledby="response-rate-label"
            aria-describedby="response-rate-help"
            aria-valuetext={rate === null ? "Aucune demande en cours" : `${rate}\u202f%`}
          />
          <p id="response-rate-help" className="text-sm text-slate-600">
            Part des demandes en cours auxquelles vous avez répondu
          </p>
        </div>
        <div className="grid gap-0.5">
          <p className="text-sm font-medium text-slate-700">Temps de réponse moyen</p>
          {loading ? (
            <Skeleton className="h-7 w-20" />
          ) : (
            <p className="text-xl font-bold text-slate-900 tabular-nums">
              {data?.average_response_minutes == null ? (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">Pas encore de réponse</span>
                </>
              ) : (
                formatMinutes(data.average_response_minutes)
              )}
            </p>
          )}
          <p className="text-sm text-slate-600">Calculé sur 30 jours</p>
        </div>
        <Link to="/dentist/profile" className={linkClasses}>
          Voir mon profil
        </Link>
      </CardContent>
    </Card>
  );
}

/** 'Performance mensuelle': requests received, replies sent, confirmations this month. */
export function MonthlyPerformance({ data, loading }: { data?: DentistDashboard; loading: boolean }) {
  const rows: { label: string; value: number | undefined; icon: LucideIcon }[] = [
    { label: "Demandes reçues", value: data?.monthly.received, icon: Inbox },
    { label: "Réponses envoyées", value: data?.monthly.replies, icon: Send },
    { label: "Confirmations", value: data?.monthly.confirmations, icon: CalendarCheck },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Performance mensuelle</CardTitle>
        <CardDescription>Ce mois-ci</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3">
          {rows.map(({ label, value, icon: Icon }) => (
            <div key={label} className="flex items-center justify-between gap-3">
              <dt className="flex items-center gap-2 text-slate-700">
                <Icon className="size-4 text-brand-700" aria-hidden="true" />
                {label}
              </dt>
              <dd className="font-semibold text-slate-900 tabular-nums">
                {loading ? <Skeleton className="h-5 w-8" /> : (value ?? 0)}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-sm text-slate-600">
          Demandes envoyées ce mois-ci à tous les dentistes ou à vous, y compris celles qu'un confrère a
          obtenues depuis.
        </p>
      </CardContent>
    </Card>
  );
}
