import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, MessagesSquare, RefreshCw, Send } from "lucide-react";
import {
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { formatListDate } from "../../../shared/format/dates";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import {
  SUPPORT_ROLE_LABELS,
  type SupportThread,
  type SupportThreadList,
} from "../../../shared/schemas/support";
import { PageHeader } from "../../components/PageHeader";
import { SupportBubble } from "../../components/SupportBubble";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Checkbox } from "../../components/ui/Checkbox";
import { Pagination } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { Label } from "../../components/ui/Label";
import { LoadError } from "../../components/ui/LoadError";
import { SearchInput } from "../../components/ui/SearchInput";
import { Skeleton } from "../../components/ui/Skeleton";
import { Textarea } from "../../components/ui/Textarea";
import { cn } from "../../lib/cn";
import { useRealtimeEvents } from "../../lib/realtime";
import {
  adminKeys,
  appendToThread,
  type SupportFilterRole,
  threadMessages,
  useDebounced,
  useMarkThreadRead,
  useSupportReply,
  useSupportThread,
  useSupportThreads,
} from "./api";

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
function clearUnread(queryClient: ReturnType<typeof useQueryClient>, patientId: string) {
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

/** Tous / Patients / Dentistes, and 'Non lus seulement'. */
function ThreadFilters({
  role,
  onRole,
  unread,
  onUnread,
}: {
  role: SupportFilterRole;
  onRole: (role: SupportFilterRole) => void;
  unread: boolean;
  onUnread: (unread: boolean) => void;
}) {
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
            onClick={() => onRole(filter.value)}
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
        <Checkbox id={unreadId} checked={unread} onCheckedChange={(value) => onUnread(value === true)} />
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

function ThreadList({
  selected,
  typed,
  onType,
  search,
  page,
  onPageChange,
  role,
  onRole,
  unread,
  onUnread,
  threads,
  hidden,
}: {
  selected: string | null;
  typed: string;
  onType: (value: string) => void;
  search: string;
  page: number;
  onPageChange: (page: number) => void;
  role: SupportFilterRole;
  onRole: (role: SupportFilterRole) => void;
  unread: boolean;
  onUnread: (unread: boolean) => void;
  threads: ReturnType<typeof useSupportThreads>;
  hidden: boolean;
}) {
  const searchId = useId();
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
        <div className="grid min-w-0 flex-1 gap-1.5">
          <Label htmlFor={searchId} className="sr-only">
            Rechercher une personne
          </Label>
          <SearchInput
            id={searchId}
            placeholder="Rechercher un nom, un e-mail..."
            value={typed}
            onChange={(event) => onType(event.target.value)}
          />
        </div>
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
      <ThreadFilters role={role} onRole={onRole} unread={unread} onUnread={onUnread} />
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
        ) : threads.isError && !data ? (
          <LoadError title={ADMIN_MESSAGES.messagesFailed} onRetry={() => void threads.refetch()} />
        ) : data && data.items.length === 0 ? (
          <p className="p-3 text-center text-slate-600">
            {search ? ADMIN_MESSAGES.noResult : unread ? "Aucun message non lu." : EMPTY[role]}
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
        )}
      </div>
      {data && (page > 1 || data.has_more) ? (
        <Pagination page={page} hasMore={data.has_more} onPageChange={onPageChange} />
      ) : null}
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
      <span className="truncate text-sm text-slate-600">{thread.last_message || "📷 Image"}</span>
    </Link>
  );
}

function ReplyBox({ patientId, patientName }: { patientId: string; patientName: string }) {
  const id = useId();
  const [text, setText] = useState("");
  const reply = useSupportReply();
  const canSend = !reply.isPending && text.trim().length > 0;

  const send = () => {
    if (!canSend) return;
    reply.mutate(
      { patientId, body: text.trim() },
      {
        onSuccess: () => {
          setText("");
          toast.success(ADMIN_MESSAGES.replySent);
        },
        onError: (error) => toast.error(ADMIN_MESSAGES.replyFailed, { description: error.message }),
      },
    );
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <form
      onSubmit={onSubmit}
      aria-label={`Répondre à ${patientName}`}
      className="grid gap-1.5 border-t border-slate-200 p-3"
    >
      <div className="flex items-end gap-2">
        <div className="grid min-w-0 flex-1">
          <Label htmlFor={id} className="sr-only">
            {`Votre réponse à ${patientName}`}
          </Label>
          <Textarea
            id={id}
            rows={1}
            value={text}
            maxLength={5000}
            placeholder="Écrivez votre réponse..."
            aria-describedby={`${id}-hint`}
            className="field-sizing-content max-h-40 min-h-10 resize-none"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </div>
        <Button type="submit" disabled={!canSend} loading={reply.isPending}>
          <Send aria-hidden="true" />
          Envoyer
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Entrée pour envoyer, Maj + Entrée pour aller à la ligne. La réponse s'affiche tout de suite chez la
        personne, ou lui est envoyée par e-mail si elle ne l'a pas lue.
      </p>
    </form>
  );
}

function ThreadView({ patientId, thread }: { patientId: string; thread: SupportThread | undefined }) {
  const messages = useSupportThread(patientId);
  const markRead = useMarkThreadRead();
  const queryClient = useQueryClient();
  const scroller = useRef<HTMLDivElement>(null);
  const items = threadMessages(messages.data);
  const lastId = items.at(-1)?.id;
  const name = thread?.patient_name ?? "Conversation";
  const unreadFromPatient = items.some((m) => !m.from_team && !m.read_at);

  useEffect(() => {
    if (messages.isError) toast.error(ADMIN_MESSAGES.messagesFailed, { id: "admin-support-thread" });
  }, [messages.isError]);

  // Opening a thread (or a new message in it) marks the patient's messages read; a failure is only logged.
  const { mutate } = markRead;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs per thread and per new message.
  useEffect(() => {
    if (!messages.isSuccess) return;
    if (!unreadFromPatient && !thread?.unread) return;
    clearUnread(queryClient, patientId);
    mutate(patientId, {
      onError: (error) => console.error("Impossible de marquer la conversation comme lue", error),
    });
  }, [patientId, messages.isSuccess, lastId]);

  // Keep the newest message in view when one arrives (not when older ones are loaded).
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when the last message changes.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lastId]);

  return (
    <section
      aria-label={`Conversation avec ${name}`}
      className="flex min-h-0 flex-col rounded-ui border border-slate-200 bg-white shadow-sm"
    >
      <div className="flex items-center gap-2 border-b border-slate-200 p-3">
        <Button asChild variant="ghost" size="icon" className="md:hidden">
          <Link to="/admin/chat-messages" aria-label="Retour aux conversations">
            <ArrowLeft aria-hidden="true" />
          </Link>
        </Button>
        <div className="grid min-w-0">
          <h2 className="truncate text-lg font-semibold text-slate-900">{name}</h2>
          {thread ? (
            <p className="truncate text-sm text-slate-600">
              {`${SUPPORT_ROLE_LABELS[thread.role]} · ${thread.patient_email}`}
            </p>
          ) : null}
        </div>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto p-3">
        {messages.isPending ? (
          <div className="grid gap-3" aria-busy="true">
            <p className="sr-only">Chargement...</p>
            <Skeleton className="h-16 w-2/3" />
            <Skeleton className="ml-auto h-16 w-2/3" />
          </div>
        ) : messages.isError && !messages.data ? (
          <LoadError title={ADMIN_MESSAGES.messagesFailed} onRetry={() => void messages.refetch()} />
        ) : (
          <>
            {messages.hasNextPage ? (
              <div className="mb-3 flex justify-center">
                <Button
                  variant="outline"
                  size="sm"
                  loading={messages.isFetchingNextPage}
                  onClick={() => void messages.fetchNextPage()}
                >
                  Messages précédents
                </Button>
              </div>
            ) : null}
            <ol className="grid gap-3" aria-label="Messages">
              {items.map((message) => (
                <SupportBubble
                  key={message.id}
                  message={message}
                  mine={message.from_team}
                  author={message.from_team ? (message.author_name ?? "L'équipe") : name}
                />
              ))}
            </ol>
          </>
        )}
      </div>
      <ReplyBox patientId={patientId} patientName={name} />
    </section>
  );
}

/**
 * /admin/chat-messages 'Support' (spec §2, issues 7 and 16): the support chat, team side, patients and
 * dentists in one inbox, filtered by role and unread.
 */
export function AdminChatMessagesPage() {
  const [params] = useSearchParams();
  const selected = params.get("p");
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState("");
  const search = useDebounced(typed.trim());
  const [page, setPage] = useState(1);
  const [role, setRole] = useState<SupportFilterRole>("all");
  const [unread, setUnread] = useState(false);
  const threads = useSupportThreads(search, page, role, unread);
  // The open thread's summary, kept when a search or another page leaves it out of the list.
  const known = useRef(new Map<string, SupportThread>());
  for (const item of threads.data?.items ?? []) known.current.set(item.patient_id, item);
  const thread = selected ? known.current.get(selected) : undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or filter starts at its first page.
  useEffect(() => setPage(1), [search, role, unread]);

  // New patient messages (and other admins' replies) arrive live.
  useRealtimeEvents((notice) => {
    if (notice.type === "support") {
      appendToThread(queryClient, notice.message);
      void queryClient.invalidateQueries({ queryKey: adminKeys.threads() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    } else if (notice.type === "resync") {
      void queryClient.invalidateQueries({ queryKey: ["admin", "support"] });
    }
  });

  return (
    <>
      <PageHeader
        title="Support"
        description="Les questions des patients et des dentistes à l'équipe, la conversation la plus récente d'abord."
      />
      <div className="grid h-[calc(100dvh-16rem)] min-h-[30rem] gap-4 md:grid-cols-[20rem_minmax(0,1fr)]">
        <ThreadList
          selected={selected}
          hidden={selected !== null}
          typed={typed}
          onType={setTyped}
          search={search}
          page={page}
          onPageChange={setPage}
          role={role}
          onRole={setRole}
          unread={unread}
          onUnread={setUnread}
          threads={threads}
        />
        {selected ? (
          <ThreadView key={selected} patientId={selected} thread={thread} />
        ) : (
          <EmptyState
            className="hidden md:flex md:justify-center"
            icon={MessagesSquare}
            title={ADMIN_MESSAGES.noConversation}
            description="Choisissez une conversation dans la liste pour lire les messages et répondre."
          />
        )}
      </div>
    </>
  );
}
