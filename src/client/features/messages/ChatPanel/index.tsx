import { MessageSquareOff } from "lucide-react";
import { type ReactNode, type Ref, useId, useMemo } from "react";
import { Link } from "react-router";
import { CHAT_MESSAGES, type ConversationSummary } from "../../../../shared/schemas/conversations";
import { Button } from "../../../components/ui/Button";
import { LoadError } from "../../../components/ui/LoadError";
import { Loading } from "../../../components/ui/Loading";
import { Skeleton } from "../../../components/ui/Skeleton";
import { isApiError } from "../../../lib/api";
import { useRealtimeStatus } from "../../../lib/realtime";
import { useSendMessage, useThread } from "../api";
import { Composer } from "../Composer";
import { type ChatArea, otherPartyName } from "../ConversationList";
import { threadMessages } from "../cache";
import { ChatHeader } from "./ChatHeader";
import { MessageItem } from "./MessageItem";
import { useLiveThread } from "./useLiveThread";
import { useThreadScroll } from "./useThreadScroll";

/** Why nobody would read a new message: said in place of the composer (the server refuses it, 409). */
const WHY_NOT_WRITTEN: Record<Exclude<ConversationSummary["other_status"], "active">, string> = {
  erased: CHAT_MESSAGES.otherErased,
  suspended: CHAT_MESSAGES.otherSuspended,
  unverified: CHAT_MESSAGES.otherUnverified,
};

function ThreadSkeleton() {
  return (
    <Loading className="grid flex-1 content-end gap-3 p-4">
      <Skeleton className="h-14 w-2/3" />
      <Skeleton className="ml-auto h-10 w-1/2" />
      <Skeleton className="h-20 w-3/5" />
      <Skeleton className="ml-auto h-12 w-2/5" />
    </Loading>
  );
}

interface ChatPanelProps {
  conversationId: string;
  area: ChatArea;
  viewerId: string;
  /** The list (the first step on a phone). */
  backTo: string;
  /** The panel, which takes the focus when opened on a phone (the list it was opened from hides). */
  ref?: Ref<HTMLElement>;
}

/** The right pane: one conversation, older messages on scroll, live updates, the composer. */
export function ChatPanel({ conversationId, area, viewerId, backTo, ref }: ChatPanelProps) {
  const thread = useThread(conversationId);
  const send = useSendMessage(conversationId);
  const realtime = useRealtimeStatus();
  const headingId = useId();

  const messages = useMemo(() => threadMessages(thread.data), [thread.data]);
  const conversation = thread.data?.pages[0]?.conversation;
  const otherName = otherPartyName(area, conversation?.other.full_name ?? "");
  const now = new Date();
  const announcement = useLiveThread({ conversationId, viewerId, otherName, messages, conversation });
  const { hasNextPage, isFetchingNextPage } = thread;
  const { scroller, onScroll, loadOlder } = useThreadScroll(messages, viewerId, thread);

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
        {conversation && conversation.other_status !== "active" ? (
          // Nobody would read a new message (the server refuses it, 409): said instead of a composer.
          <p role="status" className="border-t border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
            {WHY_NOT_WRITTEN[conversation.other_status]}
          </p>
        ) : (
          <Composer
            conversationId={conversationId}
            recipient={otherName}
            sending={send.isPending}
            onSend={(text, files) => send.mutateAsync({ body: text, files })}
          />
        )}
      </>
    );
  }

  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby={conversation ? headingId : undefined}
      aria-label={conversation ? undefined : "Conversation"}
      className="flex min-h-0 min-w-0 flex-1 flex-col focus:outline-none"
    >
      <ChatHeader area={area} backTo={backTo} headingId={headingId} thread={thread} />
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
