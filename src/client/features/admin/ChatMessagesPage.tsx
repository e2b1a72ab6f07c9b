import { useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, MessagesSquare } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import { SUPPORT_ROLE_LABELS, type SupportThread } from "../../../shared/schemas/support";
import { ChatForm } from "../../components/chat/ChatForm";
import { PageHeader } from "../../components/PageHeader";
import { SupportThread as SupportThreadMessages } from "../../components/support/SupportThread";
import { Button } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/EmptyState";
import { oldestFirst } from "../../lib/olderPages";
import { useRealtimeEvents } from "../../lib/realtime";
import { adminKeys } from "./api";
import { clearUnread, ThreadList, useThreadListState } from "./SupportThreadList";
import {
  appendToThread,
  useMarkThreadRead,
  useSupportReply,
  useSupportThread,
  useSupportThreads,
} from "./supportApi";

function ReplyBox({ patientId, patientName }: { patientId: string; patientName: string }) {
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

  return (
    <ChatForm
      label={`Répondre à ${patientName}`}
      className="grid gap-1.5 border-t border-slate-200 p-3"
      fieldLabel={`Votre réponse à ${patientName}`}
      placeholder="Écrivez votre réponse..."
      maxLength={5000}
      value={text}
      onChange={setText}
      onSend={send}
      canSend={canSend}
      sending={reply.isPending}
      hint="La réponse s'affiche tout de suite chez la personne, ou lui est envoyée par e-mail si elle ne l'a pas lue."
    />
  );
}

function ThreadView({ patientId, thread }: { patientId: string; thread: SupportThread | undefined }) {
  const messages = useSupportThread(patientId);
  const markRead = useMarkThreadRead();
  const queryClient = useQueryClient();
  const items = oldestFirst(messages.data);
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
      <SupportThreadMessages
        query={messages}
        items={items}
        mine={(message) => message.from_team}
        author={(message) => (message.from_team ? (message.author_name ?? "L'équipe") : name)}
        loadFailed={ADMIN_MESSAGES.messagesFailed}
        mineFirst={false}
      />
      <ReplyBox patientId={patientId} patientName={name} />
    </section>
  );
}

/**
 * /admin/chat-messages 'Support' (issues 7 and 16): the support chat, team side, patients and
 * dentists in one inbox, filtered by role and unread.
 */
export function AdminChatMessagesPage() {
  const [params] = useSearchParams();
  const selected = params.get("p");
  const queryClient = useQueryClient();
  const list = useThreadListState();
  const { role, unread } = list.filters;
  const threads = useSupportThreads(list.search, list.page, role, unread);
  // The open thread's summary, kept when a search or another page leaves it out of the list.
  const known = useRef(new Map<string, SupportThread>());
  for (const item of threads.data?.items ?? []) known.current.set(item.patient_id, item);
  const thread = selected ? known.current.get(selected) : undefined;

  // New patient messages (and other admins' replies) arrive live.
  useRealtimeEvents((notice) => {
    if (notice.type === "support") {
      appendToThread(queryClient, notice.message);
      void queryClient.invalidateQueries({ queryKey: adminKeys.threads() });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
    } else if (notice.type === "resync") {
      void queryClient.invalidateQueries({ queryKey: adminKeys.support() });
    }
  });

  return (
    <>
      <PageHeader
        title="Support"
        description="Les questions des patients et des dentistes à l'équipe, la conversation la plus récente d'abord."
      />
      <div className="grid h-[calc(100dvh-16rem)] min-h-[30rem] gap-4 md:grid-cols-[20rem_minmax(0,1fr)]">
        <ThreadList selected={selected} hidden={selected !== null} list={list} threads={threads} />
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
