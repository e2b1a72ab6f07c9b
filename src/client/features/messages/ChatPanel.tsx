import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, FileText, MessageSquareOff } from "lucide-react";
import {
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { Link } from "react-router";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatFileSize } from "../../../shared/format/size";
import { CHAT_MESSAGES, type ChatAttachment, type ChatMessage } from "../../../shared/schemas/conversations";
import { ChatBubble } from "../../components/ChatBubble";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { isApiError } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useRealtimeEvents, useRealtimeStatus } from "../../lib/realtime";
import { conversationKeys, useMarkRead, useSendMessage, useThread } from "./api";
import { Composer } from "./Composer";
import { type ChatArea, otherPartyName } from "./ConversationList";
import { appendMessage, markRead, type ThreadData, threadMessages } from "./cache";
import { fullDateTime, messageTimeLabel } from "./time";

/** Closer than this to the top, older messages load; to the bottom, new ones keep it in view. */
const EDGE_PX = 80;

function subscribeVisibility(listener: () => void) {
  document.addEventListener("visibilitychange", listener);
  return () => document.removeEventListener("visibilitychange", listener);
}

/** Whether this tab is visible (a message arriving in a hidden tab stays unread). */
function useDocumentVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== "hidden",
    () => true,
  );
}

function attachmentsText(count: number): string {
  return count > 1 ? `${count} pièces jointes` : "une pièce jointe";
}

function AttachmentView({ attachment, own }: { attachment: ChatAttachment; own: boolean }) {
  if (attachment.kind === "image") {
    return (
      <a
        href={attachment.url}
        target="_blank"
        rel="noopener noreferrer"
        className="block w-fit overflow-hidden rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <img
          src={attachment.url}
          alt={attachment.file_name}
          loading="lazy"
          className="h-40 w-auto max-w-full rounded-md bg-slate-200 object-cover"
        />
      </a>
    );
  }
  return (
    <a
      href={attachment.url}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(
        "flex max-w-full items-center gap-2 rounded-md border px-3 py-2 text-sm underline-offset-2 hover:underline",
        own ? "border-brand-500 bg-brand-800 text-white" : "border-slate-300 bg-slate-50 text-slate-900",
      )}
    >
      <FileText className="size-4 shrink-0" aria-hidden="true" />
      <span className="truncate">{attachment.file_name}</span>
      <span className={cn("shrink-0 text-xs", own ? "text-brand-100" : "text-slate-600")}>
        {formatFileSize(attachment.size)}
      </span>
      <span className="sr-only"> (s'ouvre dans un nouvel onglet)</span>
    </a>
  );
}

function MessageItem({
  message,
  own,
  otherName,
  now,
}: {
  message: ChatMessage;
  own: boolean;
  otherName: string;
  now: Date;
}) {
  return (
    <ChatBubble
      mine={own}
      className={cn(
        "gap-2 rounded-2xl px-3.5 py-2 shadow-xs",
        own
          ? "rounded-br-sm bg-brand-700 text-white"
          : "rounded-bl-sm border border-slate-200 bg-white text-slate-900",
      )}
    >
      <span className="sr-only">{own ? "Vous :" : `${otherName} :`}</span>
      {message.body ? <p className="whitespace-pre-wrap break-words">{message.body}</p> : null}
      {message.attachments.length > 0 ? (
        <ul className="grid gap-2" aria-label={`Pièces jointes (${message.attachments.length})`}>
          {message.attachments.map((attachment) => (
            <li key={attachment.id}>
              <AttachmentView attachment={attachment} own={own} />
            </li>
          ))}
        </ul>
      ) : null}
      <p className={cn("flex justify-end gap-2 text-xs", own ? "text-brand-100" : "text-slate-600")}>
        <time dateTime={message.created_at} title={fullDateTime(message.created_at)}>
          {messageTimeLabel(message.created_at, now)}
        </time>
        {own ? <span>{message.read_at ? "Lu" : "Envoyé"}</span> : null}
      </p>
    </ChatBubble>
  );
}

function ThreadSkeleton() {
  return (
    <div aria-busy="true" className="grid flex-1 content-end gap-3 p-4">
      <p className="sr-only">Chargement...</p>
      <Skeleton className="h-14 w-2/3" />
      <Skeleton className="ml-auto h-10 w-1/2" />
      <Skeleton className="h-20 w-3/5" />
      <Skeleton className="ml-auto h-12 w-2/5" />
    </div>
  );
}

function BackLink({ to }: { to: string }) {
  return (
    <Button asChild variant="ghost" size="icon" className="md:hidden">
      <Link to={to} aria-label="Retour aux conversations">
        <ArrowLeft aria-hidden="true" />
      </Link>
    </Button>
  );
}

interface ChatPanelProps {
  conversationId: string;
  area: ChatArea;
  viewerId: string;
  /** The list (the first step on a phone). */
  backTo: string;
}

/** The right pane: one conversation, older messages on scroll, live updates, the composer. */
export function ChatPanel({ conversationId, area, viewerId, backTo }: ChatPanelProps) {
  const queryClient = useQueryClient();
  const thread = useThread(conversationId);
  const send = useSendMessage(conversationId);
  const read = useMarkRead(viewerId);
  const visible = useDocumentVisible();
  const realtime = useRealtimeStatus();
  const headingId = useId();
  const [announcement, setAnnouncement] = useState("");
  const scroller = useRef<HTMLDivElement>(null);
  const snapshot = useRef<{ firstId?: string; lastId?: string; height: number; top: number } | null>(null);
  const atBottom = useRef(true);

  const messages = useMemo(() => threadMessages(thread.data), [thread.data]);
  const conversation = thread.data?.pages[0]?.conversation;
  const otherName = otherPartyName(area, conversation?.other.full_name ?? "");
  const now = new Date();

  // Live: new messages and read receipts of this conversation update it in place.
  useRealtimeEvents((notice) => {
    if (notice.type === "message" && notice.conversation_id === conversationId) {
      queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (data) =>
        appendMessage(data, notice.message),
      );
      if (notice.message.sender_id !== viewerId) {
        const text = notice.message.body || attachmentsText(notice.message.attachments.length);
        setAnnouncement(`Nouveau message de ${otherName || "votre interlocuteur"} : ${text}`);
      }
    } else if (notice.type === "read" && notice.conversation_id === conversationId) {
      queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (data) =>
        markRead(data, notice.reader_id, notice.read_at, viewerId),
      );
    }
  });

  // Opening the conversation, or receiving a message while it is open and the tab visible, marks it read.
  const unreadId = messages.findLast((m) => m.sender_id !== viewerId && !m.read_at)?.id;
  // What is left to read: the newest unread message (a new one asks again), or the server's count.
  const toRead = unreadId ?? ((conversation?.unread_count ?? 0) > 0 ? "count" : null);
  const markConversationRead = read.mutate;
  useEffect(() => {
    if (toRead && visible) markConversationRead(conversationId);
  }, [toRead, visible, conversationId, markConversationRead]);

  // Scroll: the newest message in view on opening; older ones added above keep the reading
  // position; new ones scroll into view when the reader was at the bottom or wrote them.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const firstId = messages[0]?.id;
    const last = messages.at(-1);
    const previous = snapshot.current;
    if (!previous?.lastId) element.scrollTop = element.scrollHeight;
    else if (firstId !== previous.firstId && last?.id === previous.lastId)
      element.scrollTop = previous.top + (element.scrollHeight - previous.height);
    else if (last?.id !== previous.lastId && (atBottom.current || last?.sender_id === viewerId))
      element.scrollTop = element.scrollHeight;
    snapshot.current = { firstId, lastId: last?.id, height: element.scrollHeight, top: element.scrollTop };
  }, [messages, viewerId]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = thread;
  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < EDGE_PX;
    if (snapshot.current) {
      snapshot.current.top = element.scrollTop;
      snapshot.current.height = element.scrollHeight;
    }
    if (element.scrollTop < EDGE_PX) loadOlder();
  };

  const requestPath =
    conversation &&
    (area === "patient"
      ? `/patient/request/${conversation.request_id}`
      : `/dentist/patient-submission/${conversation.request_id}`);

  let body: ReactNode;
  if (thread.isPending) {
    body = <ThreadSkeleton />;
  } else if (thread.isError && messages.length === 0) {
    const notFound = isApiError(thread.error) && thread.error.status === 404;
    body = notFound ? (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
        <MessageSquareOff className="size-8 text-slate-500" aria-hidden="true" />
        <h2 className="text-lg font-semibold text-slate-900">{CHAT_MESSAGES.notFound}</h2>
        <p className="text-slate-600">Cette conversation n'existe pas ou vous n'y avez pas accès.</p>
        <Button asChild variant="outline">
          <Link to={backTo}>Retour aux conversations</Link>
        </Button>
      </div>
    ) : (
      <div className="p-4">
        <LoadError title={CHAT_MESSAGES.loadFailed} onRetry={() => void thread.refetch()} />
      </div>
    );
  } else {
    body = (
      <>
        <section
          ref={scroller}
          onScroll={onScroll}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable with the keyboard.
          tabIndex={0}
          aria-label={`Messages avec ${otherName}`}
          className="min-h-0 flex-1 overflow-y-auto bg-slate-50 px-3 py-4 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-brand-700 sm:px-4"
        >
          <div className="mb-3 flex justify-center">
            {hasNextPage ? (
              <Button variant="outline" size="sm" loading={isFetchingNextPage} onClick={loadOlder}>
                Afficher les messages précédents
              </Button>
            ) : messages.length > 0 ? (
              <p className="text-xs text-slate-600">Début de la conversation</p>
            ) : null}
          </div>
          {messages.length === 0 ? (
            <p className="py-8 text-center text-slate-600">
              Aucun message pour le moment. Écrivez le premier !
            </p>
          ) : (
            <ol className="grid gap-3">
              {messages.map((message) => (
                <MessageItem
                  key={message.id}
                  message={message}
                  own={message.sender_id === viewerId}
                  otherName={otherName}
                  now={now}
                />
              ))}
            </ol>
          )}
        </section>
        <Composer
          recipient={otherName}
          sending={send.isPending}
          onSend={(text, files) => send.mutateAsync({ body: text, files })}
        />
      </>
    );
  }

  return (
    <section
      aria-labelledby={conversation ? headingId : undefined}
      aria-label={conversation ? undefined : "Conversation"}
      className="flex min-h-0 min-w-0 flex-1 flex-col"
    >
      <div className="flex min-h-16 items-center gap-3 border-b border-slate-200 px-3 py-2">
        <BackLink to={backTo} />
        {conversation ? (
          <>
            <Avatar name={otherName} src={conversation.other.avatar_url} />
            <div className="grid min-w-0 flex-1">
              <h2 id={headingId} className="truncate font-semibold text-slate-900">
                {otherName}
              </h2>
              <p className="truncate text-sm text-slate-600">
                {treatmentLabel(conversation.treatment_type)}
                {requestPath ? (
                  <>
                    {" · "}
                    <Link
                      to={requestPath}
                      className="font-medium text-brand-800 underline-offset-2 hover:underline"
                    >
                      Voir la demande
                    </Link>
                  </>
                ) : null}
              </p>
            </div>
          </>
        ) : thread.isPending ? (
          <div className="flex flex-1 items-center gap-3" aria-hidden="true">
            <Skeleton className="size-10 rounded-full" />
            <Skeleton className="h-4 w-40" />
          </div>
        ) : null}
      </div>
      {realtime === "reconnecting" ? (
        <p
          role="status"
          className="border-b border-yellow-300 bg-yellow-50 px-3 py-1.5 text-sm text-yellow-900"
        >
          Connexion interrompue : reconnexion en cours...
        </p>
      ) : null}
      {body}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}
