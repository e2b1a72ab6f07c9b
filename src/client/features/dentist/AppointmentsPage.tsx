import { CalendarDays } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import type { Appointment, AppointmentScope } from "../../../shared/schemas/appointments";
import { AppointmentCard } from "../../components/appointments/AppointmentCard";
import { useListParams } from "../../components/dashboard/useListParams";
// An unverified dentist sees the same explanation as on 'Demandes de devis'.
import { VerifiedOnly } from "../../components/dashboard/VerificationPending";
import { PageHeader } from "../../components/PageHeader";
import { Button } from "../../components/ui/Button";
import { ListPagination } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Loading } from "../../components/ui/Loading";
import { Skeleton } from "../../components/ui/Skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/Tabs";
import { useMyAppointments } from "../../lib/appointments";

/** `?vue=passes` shows those that took place; the coming ones are the page's default. */
const PAST_PARAM = "passes";

/**
 * /dentist/appointments 'Rendez-vous': « À venir » (those to confirm first, then those to come) and
 * « Passés » (those that took place, the latest first); pages of 10, the tab and page in the URL.
 */
export function DentistAppointmentsPage() {
  const { params, page, update, goToPage } = useListParams();
  const when: AppointmentScope = params.get("vue") === PAST_PARAM ? "past" : "upcoming";
  return (
    <>
      <PageHeader
        title="Rendez-vous"
        description="Les rendez-vous demandés par vos patients, ceux à venir et ceux qui ont eu lieu, à l'heure de Paris."
      />
      <VerifiedOnly>
        <Tabs
          value={when}
          onValueChange={(value) => update({ vue: value === "past" ? PAST_PARAM : null, page: null })}
        >
          <TabsList aria-label="Rendez-vous à venir ou passés">
            <TabsTrigger value="upcoming">À venir</TabsTrigger>
            <TabsTrigger value="past">Passés</TabsTrigger>
          </TabsList>
          <TabsContent value={when} className="mt-6">
            <AppointmentList when={when} page={page} goToPage={goToPage} />
          </TabsContent>
        </Tabs>
      </VerifiedOnly>
    </>
  );
}

function AppointmentList({
  when,
  page,
  goToPage,
}: {
  when: AppointmentScope;
  page: number;
  goToPage: (page: number) => void;
}) {
  const list = useMyAppointments(when, page);
  const data = list.data;

  if (list.isPending) return <ListSkeleton />;
  if (list.isError || !data)
    return <LoadError title="Impossible de charger vos rendez-vous" onRetry={() => void list.refetch()} />;

  const toConfirm = data.items.filter((a) => a.view === "awaiting_me");
  const coming = data.items.filter((a) => a.view !== "awaiting_me");

  return (
    <div className="grid gap-8" aria-busy={list.isFetching || undefined}>
      {data.items.length === 0 ? (
        when === "past" ? (
          <EmptyState
            icon={CalendarDays}
            title="Aucun rendez-vous passé."
            description="Un rendez-vous confirmé apparaît ici une fois son heure venue."
          />
        ) : (
          <EmptyState
            icon={CalendarDays}
            title="Aucun rendez-vous à venir."
            description="Quand un patient accepte votre proposition, il choisit un créneau : sa demande de rendez-vous apparaîtra ici."
          />
        )
      ) : when === "past" ? (
        <Cards items={data.items} headingLevel="h2" />
      ) : (
        <>
          <Section title="À confirmer" items={toConfirm} />
          <Section title="À venir" items={coming} />
        </>
      )}
      <ListPagination page={page} hasMore={data.has_more} onPageChange={goToPage} />
    </div>
  );
}

function Section({ title, items }: { title: string; items: Appointment[] }) {
  const id = useId();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-600 tabular-nums">({items.length})</span>
      </h2>
      <Cards items={items} headingLevel="h3" />
    </section>
  );
}

/** Each appointment's card, with the way to its patient's request. */
function Cards({ items, headingLevel }: { items: Appointment[]; headingLevel: "h2" | "h3" }) {
  return (
    <ul className="grid gap-4">
      {items.map((appointment) => (
        <li key={appointment.id}>
          <AppointmentCard
            appointment={appointment}
            headingLevel={headingLevel}
            footer={
              <div>
                <Button asChild variant="outline" size="sm">
                  <Link
                    to={`/dentist/patient-submission/${appointment.request_id}`}
                    aria-label={`Voir la demande de ${appointment.patient.full_name}`}
                  >
                    Voir la demande
                  </Link>
                </Button>
              </div>
            }
          />
        </li>
      ))}
    </ul>
  );
}

function ListSkeleton() {
  return (
    <Loading className="grid gap-4">
      {["a", "b", "c"].map((key) => (
        <div key={key} className="grid gap-3 rounded-ui border border-slate-200 p-5">
          <div className="flex justify-between gap-4">
            <Skeleton className="h-6 w-48" />
            <Skeleton className="h-6 w-24 rounded-full" />
          </div>
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-5 w-64" />
        </div>
      ))}
    </Loading>
  );
}
