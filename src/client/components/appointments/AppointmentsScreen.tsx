import { CalendarDays } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link, useLocation } from "react-router";
import type { Appointment, AppointmentScope } from "../../../shared/schemas/appointments";
import { useMyAppointments } from "../../lib/appointments";
import { cn } from "../../lib/cn";
import { useListParams } from "../dashboard/useListParams";
import { PageHeader } from "../PageHeader";
import { Button } from "../ui/Button";
import { ListPagination } from "../ui/DataTable";
import { EmptyState } from "../ui/EmptyState";
import { LoadError } from "../ui/LoadError";
import { Loading } from "../ui/Loading";
import { Skeleton } from "../ui/Skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/Tabs";
import { AppointmentCard } from "./AppointmentCard";
import { appointmentAnchor } from "./anchor";

/** `?vue=passes` shows those that took place; the coming ones are the page's default. */
const PAST_PARAM = "passes";

/** What differs between the dentist's page and the patient's. */
export interface AppointmentsScreenOptions {
  title: string;
  description: string;
  /** The coming list's empty state, and what to do about it. */
  noneComing: { description: string; action?: ReactNode };
  /** The way from a card to its request, in the asker's area. */
  requestLink: (appointment: Appointment) => { to: string; label: string };
  /** Beside « Voir la demande » (the patient's « Donner mon avis » on a past appointment). */
  moreActions?: (appointment: Appointment) => ReactNode;
  /** Around the tabs (the dentist's verification notice). */
  wrap?: (tabs: ReactNode) => ReactNode;
}

/**
 * 'Rendez-vous' of either side: « À venir » (those to confirm first, then those to come) and « Passés »
 * (those that took place, the latest first); pages of 10, the tab and page in the URL.
 */
export function AppointmentsScreen({ options }: { options: AppointmentsScreenOptions }) {
  const { params, page, update, goToPage } = useListParams();
  const when: AppointmentScope = params.get("vue") === PAST_PARAM ? "past" : "upcoming";
  const tabs = (
    <Tabs
      value={when}
      onValueChange={(value) => update({ vue: value === "past" ? PAST_PARAM : null, page: null })}
    >
      <TabsList aria-label="Rendez-vous à venir ou passés">
        <TabsTrigger value="upcoming">À venir</TabsTrigger>
        <TabsTrigger value="past">Passés</TabsTrigger>
      </TabsList>
      <TabsContent value={when} className="mt-6">
        <AppointmentList when={when} page={page} goToPage={goToPage} options={options} />
      </TabsContent>
    </Tabs>
  );
  return (
    <>
      <PageHeader title={options.title} description={options.description} />
      {options.wrap ? options.wrap(tabs) : tabs}
    </>
  );
}

function AppointmentList({
  when,
  page,
  goToPage,
  options,
}: {
  when: AppointmentScope;
  page: number;
  goToPage: (page: number) => void;
  options: AppointmentsScreenOptions;
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
            description={options.noneComing.description}
            action={options.noneComing.action}
          />
        )
      ) : when === "past" ? (
        <Cards items={data.items} headingLevel="h2" options={options} />
      ) : (
        <>
          <Section title="À confirmer" items={toConfirm} options={options} />
          <Section title="À venir" items={coming} options={options} />
        </>
      )}
      <ListPagination page={page} hasMore={data.has_more} onPageChange={goToPage} />
    </div>
  );
}

function Section({
  title,
  items,
  options,
}: {
  title: string;
  items: Appointment[];
  options: AppointmentsScreenOptions;
}) {
  const id = useId();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-600 tabular-nums">({items.length})</span>
      </h2>
      <Cards items={items} headingLevel="h3" options={options} />
    </section>
  );
}

/** Each appointment's card, with the way to its request. */
function Cards({
  items,
  headingLevel,
  options,
}: {
  items: Appointment[];
  headingLevel: "h2" | "h3";
  options: AppointmentsScreenOptions;
}) {
  const { hash } = useLocation();
  return (
    <ul className="grid gap-4">
      {items.map((appointment) => {
        const link = options.requestLink(appointment);
        const anchor = appointmentAnchor(appointment.id);
        const targeted = hash === `#${anchor}`;
        return (
          <li
            key={appointment.id}
            id={anchor}
            data-targeted={targeted || undefined}
            className={cn("scroll-mt-24 rounded-ui", targeted && "ring-2 ring-brand-600 ring-offset-2")}
          >
            <AppointmentCard
              appointment={appointment}
              headingLevel={headingLevel}
              footer={
                <div className="flex flex-wrap gap-3">
                  <Button asChild variant="outline" size="sm">
                    <Link to={link.to} aria-label={link.label}>
                      Voir la demande
                    </Link>
                  </Button>
                  {options.moreActions?.(appointment)}
                </div>
              }
            />
          </li>
        );
      })}
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
