import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { chatTimeLabel, oneLine } from "../../../shared/format/chat";
import { formatDetailDate } from "../../../shared/format/dates";
import { drName } from "../../../shared/format/names";
import { CHAT_MESSAGES, type ConversationSummary } from "../../../shared/schemas/conversations";
import { Avatar } from "../../components/ui/Avatar";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Label } from "../../components/ui/Label";
import { LoadError } from "../../components/ui/LoadError";
import { Loading } from "../../components/ui/Loading";
import { SearchInput } from "../../components/ui/SearchInput";
import { Skeleton } from "../../components/ui/Skeleton";
import { cn } from "../../lib/cn";
import { useConversations } from "./api";
import { fullDateTime } from "./time";

export type ChatArea = "patient" | "dentist";

/** The other party as the glossary names them: a patient talks with "Dr Sophie Leroy", a dentist with the patient. */
export function otherPartyName(area: ChatArea, fullName: string): string {
  return area === "patient" && fullName ? drName(fullName) : fullName;
}

/** Typing pauses this long before the list asks the server (search is server-side). */
export const SEARCH_DEBOUNCE_MS = 300;

const TEXTS: Record<ChatArea, { search: string; searchLabel: string; none: string; empty: string }> = {
  patient: {
    search: CHAT_MESSAGES.searchPatient,
    searchLabel: "Rechercher une conversation",
    none: CHAT_MESSAGES.noConversationPatient,
    empty: "Lorsqu'un dentiste répondra à l'une de vos demandes, vous pourrez échanger avec lui ici.",
  },
  dentist: {
    search: CHAT_MESSAGES.searchDentist,
    searchLabel: "Rechercher un patient",
    none: CHAT_MESSAGES.noConversationDentist,
    empty: "Vos échanges avec les patients apparaîtront ici dès que vous aurez répondu à une demande.",
  },
};

/** The last message in one line: its text, or '📎 Pièce jointe' when it only carries files. */
export function lastMessagePreview(conversation: ConversationSummary): string {
  const last = conversation.last_message;
  if (!last) return "Aucun message";
  const prefix = last.from_me ? "Vous : " : "";
  const body = oneLine(last.body);
  if (body) return `${prefix}${body}`;
  if (last.attachment_count > 1) return `${prefix}📎 ${last.attachment_count} pièces jointes`;
  if (last.attachment_count === 1) return `${prefix}📎 Pièce jointe`;
  return `${prefix}Message vide`;
}

function ConversationItem({
  area,
  conversation,
  selected,
  to,
  now,
}: {
  area: ChatArea;
  conversation: ConversationSummary;
  selected: boolean;
  to: string;
  now: Date;
}) {
  const at = conversation.last_message?.created_at ?? conversation.last_message_at;
  const unread = conversation.unread_count;
  return (
    <li>
      <Link
        to={to}
        data-conversation={conversation.id}
        aria-current={selected ? "page" : undefined}
        className={cn(
          "flex gap-3 border-l-4 px-3 py-3 outline-offset-[-3px] transition-colors hover:bg-slate-50",
          selected ? "border-brand-700 bg-brand-50 hover:bg-brand-50" : "border-transparent",
        )}
      >
        <Avatar name={conversation.other.full_name} src={conversation.other.avatar_url} />
        <span className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-0.5">
          <span className="flex items-baseline justify-between gap-2">
            <span
              className={cn("min-w-0 truncate text-slate-900", unread > 0 ? "font-bold" : "font-semibold")}
            >
              {otherPartyName(area, conversation.other.full_name)}
            </span>
            <time dateTime={at} title={fullDateTime(at)} className="shrink-0 text-xs text-slate-600">
              {chatTimeLabel(at, now)}
            </time>
          </span>
          <span className="truncate text-sm text-slate-600">
            {treatmentLabel(conversation.treatment_type)} · demande du{" "}
            {formatDetailDate(conversation.request_created_at)}
          </span>
          <span className="flex items-center justify-between gap-2">
            <span
              className={cn(
                "min-w-0 truncate text-sm",
                unread > 0 ? "font-medium text-slate-900" : "text-slate-600",
              )}
            >
              {lastMessagePreview(conversation)}
            </span>
            {unread > 0 ? (
              <Badge tone="brand" className="shrink-0 px-2 text-xs tabular-nums">
                {unread}
                <span className="sr-only">{unread > 1 ? " messages non lus" : " message non lu"}</span>
              </Badge>
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  );
}

function ListSkeleton() {
  return (
    <Loading>
      <ul>
        {["a", "b", "c", "d"].map((key) => (
          <li key={key} className="flex h-[5.25rem] items-center gap-3 px-4">
            <Skeleton className="size-10 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-3 w-24" />
              <Skeleton className="h-3 w-40" />
            </div>
          </li>
        ))}
      </ul>
    </Loading>
  );
}

interface ConversationListProps {
  area: ChatArea;
  selectedId: string | null;
  /** The search in the page's URL (kept when a conversation is opened). */
  search: string;
  onSearch: (search: string) => void;
  linkTo: (id: string) => string;
  className?: string;
}

/** The left pane: search box, conversations (newest activity first), more on demand. */
export function ConversationList({
  area,
  selectedId,
  search,
  onSearch,
  linkTo,
  className,
}: ConversationListProps) {
  const texts = TEXTS[area];
  const searchId = useId();
  const headingId = useId();
  const [typed, setTyped] = useState(search);
  const list = useConversations(search);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const now = new Date();

  useEffect(() => {
    const term = typed.trim();
    if (term === search) return;
    const timer = setTimeout(() => onSearch(term), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, search, onSearch]);

  return (
    <section
      aria-labelledby={headingId}
      className={cn("min-h-0 min-w-0 flex-col border-slate-200 md:border-r", className)}
    >
      <div className="grid gap-2 border-b border-slate-200 p-3">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          Conversations
        </h2>
        <search>
          <Label htmlFor={searchId} className="sr-only">
            {texts.searchLabel}
          </Label>
          <SearchInput
            id={searchId}
            placeholder={texts.search}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
          />
        </search>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {list.isPending ? (
          <ListSkeleton />
        ) : list.isError && items.length === 0 ? (
          <LoadError
            className="m-3"
            title="Impossible de charger vos conversations"
            onRetry={() => void list.refetch()}
          />
        ) : items.length === 0 ? (
          <div role="status" className="grid gap-2 p-6 text-center">
            <p className="font-medium text-slate-900">{texts.none}</p>
            {search ? null : <p className="text-sm text-slate-600">{texts.empty}</p>}
          </div>
        ) : (
          <>
            <ul aria-labelledby={headingId} className="divide-y divide-slate-100">
              {items.map((conversation) => (
                <ConversationItem
                  key={conversation.id}
                  area={area}
                  conversation={conversation}
                  selected={conversation.id === selectedId}
                  to={linkTo(conversation.id)}
                  now={now}
                />
              ))}
            </ul>
            {list.hasNextPage ? (
              <div className="p-3">
                <Button
                  variant="outline"
                  size="sm"
                  className="w-full"
                  loading={list.isFetchingNextPage}
                  onClick={() => void list.fetchNextPage()}
                >
                  Afficher plus de conversations
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
