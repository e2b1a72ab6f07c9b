import type { useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { useEffect, useId } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { oneLine } from "../../../shared/format/chat";
import { formatListDate } from "../../../shared/format/dates";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import {
  SUPPORT_ROLE_LABELS,
  type SupportThread,
  type SupportThreadList,
} from "../../../shared/schemas/support";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Checkbox } from "../../components/ui/Checkbox";
import { ListPagination } from "../../components/ui/DataTable";
import { Label } from "../../components/ui/Label";
import { SearchField } from "../../components/ui/SearchInput";
import { Skeleton } from "../../components/ui/Skeleton";
import { cn } from "../../lib/cn";
import { loadFailure, usePagedList } from "./AdminParts";
import { adminKeys } from "./api";
import type { SupportFilterRole, useSupportThreads } from "./supportApi";

/** The support inbox's list of threads (/admin/chat-messages): search, filters, pages, unread dots. */

const TIME = new Intl.DateTimeFormat("fr-FR", {
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Paris",
});

/** Today: the hour; otherwise dd/MM/yyyy. */
function threadTime(iso: string): string {
  const sameDay = formatListDate(iso) === formatListDate(new Date());
  return sameDay ? TIME.format(new Date(iso)) : formatListDate(iso);
}

function unreadLabel(count: number): string {
  return count > 1 ? `${count} messages non lus` : "1 message non lu";
}

/** Sets a thread's unread count to 0 in every loaded list (the dot goes at once). */
export function clearUnread(queryClient: ReturnType<typeof useQueryClient>, patientId: string) {
  queryClient.setQueriesData<SupportThreadList>({ queryKey: adminKeys.threads() }, (data) =>
    data
      ? {
          ...data,
          items: data.items.map((t) => (t.patient_id === patientId ? { ...t, unread: 0 } : t)),
        }
      : data,
  );
}

const FILTERS: { value: SupportFilterRole; label: string }[] = [
  { value: "all", label: "Tous" },
  { value: "patient", label: "Patients" },
  { value: "dentist", label: "Dentistes" },
];

/** The inbox's search, filters and page. */
export function useThreadListState() {
  return usePagedList<{ role: SupportFilterRole; unread: boolean }>({ role: "all", unread: false });
}

type ThreadListState = ReturnType<typeof useThreadListState>;

/** Tous / Patients / Dentistes, and 'Non lus seulement'. */
function ThreadFilters({ list }: { list: ThreadListState }) {
  const { role, unread } = list.filters;
  const unreadId = useId();
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <fieldset className="flex rounded-md border border-slate-300 p-0.5">
        <legend className="sr-only">Afficher</legend>
        {FILTERS.map((filter) => (
          <button
            key={filter.value}
            type="button"
            aria-pressed={role === filter.value}
            onClick={() => list.setFilter("role", filter.value)}
            className={cn(
              "rounded px-2.5 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700",
              role === filter.value && "bg-brand-700 text-white hover:bg-brand-700",
            )}
          >
            {filter.label}
          </button>
        ))}
      </fieldset>
      <div className="flex items-center gap-2">
        <Checkbox
          id={unreadId}
          checked={unread}
          onCheckedChange={(value) => list.setFilter("unread", value === true)}
        />
        <Label htmlFor={unreadId} className="text-sm font-normal">
          Non lus seulement
        </Label>
      </div>
    </div>
  );
}

const EMPTY: Record<SupportFilterRole, string> = {
  all: "Aucun message pour le moment.",
  patient: "Aucun message de patient pour le moment.",
  dentist: "Aucun message de dentiste pour le moment.",
};

export function ThreadList({
  selected,
  list,
  threads,
  hidden,
}: {
  selected: string | null;
  list: ThreadListState;
  threads: ReturnType<typeof useSupportThreads>;
  hidden: boolean;
}) {
  const { role, unread } = list.filters;
  const data = threads.data;

  useEffect(() => {
    if (threads.isError) toast.error(ADMIN_MESSAGES.messagesFailed, { id: "admin-support-threads" });
  }, [threads.isError]);

  return (
    <section
      aria-label="Conversations"
      className={cn(
        "flex min-h-0 flex-col gap-3 rounded-ui border border-slate-200 bg-white p-3 shadow-sm",
        hidden && "hidden md:flex",
      )}
    >
      <div className="flex items-end gap-2">
        <SearchField
          className="min-w-0 flex-1"
          label="Rechercher une personne"
          labelClassName="sr-only"
          placeholder="Nom ou e-mail"
          value={list.typed}
          onValueChange={list.setTyped}
        />
        <Button
          variant="outline"
          size="icon"
          aria-label="Actualiser les conversations"
          title="Actualiser"
          loading={threads.isFetching && !threads.isPending}
          onClick={() => void threads.refetch()}
        >
          <RefreshCw aria-hidden="true" />
        </Button>
      </div>
      <ThreadFilters list={list} />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {threads.isPending ? (
          <ul className="grid gap-1" aria-busy="true">
            <li className="sr-only">Chargement...</li>
            {["a", "b", "c", "d"].map((key) => (
              <li key={key} className="grid gap-2 p-3">
                <Skeleton className="h-5 w-36" />
                <Skeleton className="h-4 w-48" />
              </li>
            ))}
          </ul>
        ) : (
          (loadFailure(threads, ADMIN_MESSAGES.messagesFailed) ??
          (data && data.items.length === 0 ? (
            <p className="p-3 text-center text-slate-600">
              {list.search ? ADMIN_MESSAGES.noResult : unread ? "Aucun message non lu." : EMPTY[role]}
            </p>
          ) : (
            <ul className="grid gap-1">
              {data?.items.map((thread) => (
                <li key={thread.patient_id}>
                  <ThreadLink
                    thread={thread}
                    active={thread.patient_id === selected}
                    href={`/admin/chat-messages?p=${encodeURIComponent(thread.patient_id)}`}
                  />
                </li>
              ))}
            </ul>
          )))
        )}
      </div>
      <ListPagination page={list.page} hasMore={data?.has_more} onPageChange={list.setPage} />
    </section>
  );
}

function ThreadLink({ thread, active, href }: { thread: SupportThread; active: boolean; href: string }) {
  const unread = thread.unread > 0;
  return (
    <Link
      to={href}
      aria-current={active ? "true" : undefined}
      className={cn(
        "grid gap-0.5 rounded-md p-3 text-left transition-colors hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700",
        active && "bg-brand-50 hover:bg-brand-50",
      )}
    >
      <span className="flex items-center gap-2">
        <span
          className={cn("min-w-0 flex-1 truncate text-slate-900", unread ? "font-semibold" : "font-medium")}
        >
          {thread.patient_name}
        </span>
        <Badge tone={thread.role === "dentist" ? "blue" : "gray"} className="shrink-0">
          {SUPPORT_ROLE_LABELS[thread.role]}
        </Badge>
        <time dateTime={thread.last_message_at} className="shrink-0 text-xs text-slate-600 tabular-nums">
          {threadTime(thread.last_message_at)}
        </time>
        {unread ? (
          <span className="flex items-center" data-testid="unread-dot">
            <span aria-hidden="true" className="size-2.5 rounded-full bg-red-600" />
            <span className="sr-only">{`, ${unreadLabel(thread.unread)}`}</span>
          </span>
        ) : null}
      </span>
      <span className="truncate text-sm text-slate-600">{oneLine(thread.last_message) || "📷 Image"}</span>
    </Link>
  );
}
