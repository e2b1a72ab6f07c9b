import { FolderOpen } from "lucide-react";
import { Link } from "react-router";
import { JOURNEY_TONES } from "../../../../shared/domain/journey";
import { treatmentLabel } from "../../../../shared/domain/treatments";
import { formatListDate } from "../../../../shared/format/dates";
import { DashboardRow, ListSkeleton, ViewLink } from "../../../components/dashboard/DashboardList";
import { NextAction } from "../../../components/journey/JourneyCard";
import { Badge } from "../../../components/ui/Badge";
import { Button } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Card";
import { EmptyState } from "../../../components/ui/EmptyState";
import { LoadError } from "../../../components/ui/LoadError";
import type { usePatientDashboard } from "../api";

/** 'Mes demandes récentes': the five newest requests, each with its step and next action. */
export function RecentRequests({ dashboard }: { dashboard: ReturnType<typeof usePatientDashboard> }) {
  const data = dashboard.data;
  const loading = dashboard.isPending;
  return (
    <section aria-labelledby="recent-requests" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="recent-requests" className="text-xl font-semibold text-slate-900">
          Mes demandes récentes
        </h2>
        {data && data.recent.length > 0 ? (
          <Link
            to="/patient/requests"
            className="font-medium text-brand-700 underline-offset-4 hover:underline"
          >
            Voir toutes mes demandes
          </Link>
        ) : null}
      </div>
      {loading ? (
        <ListSkeleton inCard />
      ) : dashboard.isError ? (
        <LoadError title="Impossible de charger vos demandes" onRetry={() => void dashboard.refetch()} />
      ) : data && data.recent.length > 0 ? (
        <Card>
          <ul className="divide-y divide-slate-200">
            {data.recent.map((request) => (
              <DashboardRow
                key={request.id}
                inCard
                title={treatmentLabel(request.treatment_type)}
                metaClassName="tabular-nums"
                meta={formatListDate(request.created_at)}
              >
                <div className="flex flex-wrap items-center gap-3">
                  <Badge tone={JOURNEY_TONES[request.journey.state]}>{request.journey.label}</Badge>
                  {request.journey.next ? (
                    // The request's next step is the row's main button (issue 16).
                    <NextAction
                      next={request.journey.next}
                      size="sm"
                      label={`${request.journey.next.label} — ${treatmentLabel(request.treatment_type)} du ${formatListDate(request.created_at)}`}
                    />
                  ) : null}
                  <ViewLink
                    to={`/patient/request/${request.id}`}
                    label={`Voir la demande ${treatmentLabel(request.treatment_type)} du ${formatListDate(request.created_at)}`}
                  />
                </div>
              </DashboardRow>
            ))}
          </ul>
        </Card>
      ) : (
        <EmptyState
          as="h3"
          icon={FolderOpen}
          title="Aucune demande pour le moment"
          description="Déposez le devis de votre dentiste : des dentistes vérifiés vous répondront ; un e-mail vous préviendra."
          action={
            <Button asChild>
              <Link to="/patient/upload">Créer ma première demande</Link>
            </Button>
          }
        />
      )}
    </section>
  );
}
