import { CalendarDays } from "lucide-react";
import { useId } from "react";
import type { Appointment } from "../../../shared/schemas/appointments";
import { AppointmentCard } from "../../components/appointments/AppointmentCard";
import { useListParams } from "../../components/dashboard/useListParams";
// An unverified dentist sees the same explanation as on 'Demandes de devis'.
import { VerifiedOnly } from "../../components/dashboard/VerificationPending";
import { PageHeader } from "../../components/PageHeader";
import { ListPagination } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Loading } from "../../components/ui/Loading";
import { Skeleton } from "../../components/ui/Skeleton";
import { useUpcomingAppointments } from "../../lib/appointments";

/** /dentist/appointments 'Rendez-vous': those to confirm first, then those to come; pages of 10. */
export function DentistAppointmentsPage() {
  return (
    <>
      <PageHeader
        title="Rendez-vous"
        description="Les rendez-vous demandés par vos patients et ceux à venir, à l'heure de Paris."
      />
      <VerifiedOnly>
        <UpcomingList />
      </VerifiedOnly>
    </>
  );
}

function UpcomingList() {
  const { page, goToPage } = useListParams();
  const list = useUpcomingAppointments(page);
  const data = list.data;

  if (list.isPending) return <ListSkeleton />;
  if (list.isError || !data)
    return <LoadError title="Impossible de charger vos rendez-vous" onRetry={() => void list.refetch()} />;

  const toConfirm = data.items.filter((a) => a.view === "awaiting_me");
  const coming = data.items.filter((a) => a.view !== "awaiting_me");

  return (
    <div className="grid gap-8" aria-busy={list.isFetching || undefined}>
      {data.items.length === 0 ? (
        <EmptyState
          icon={CalendarDays}
          title="Aucun rendez-vous à venir."
          description="Quand un patient accepte votre proposition, il choisit un créneau : sa demande de rendez-vous apparaîtra ici."
        />
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
      <ul className="grid gap-4">
        {items.map((appointment) => (
          <li key={appointment.id}>
            <AppointmentCard appointment={appointment} headingLevel="h3" />
          </li>
        ))}
      </ul>
    </section>
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
