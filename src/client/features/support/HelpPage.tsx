import { useQueryClient } from "@tanstack/react-query";
import { FileText, ImagePlus, LifeBuoy, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { toast } from "sonner";
import { SUPPORT_MESSAGES } from "../../../shared/schemas/support";
import { AttachButton, ChatForm } from "../../components/chat/ChatForm";
import { FileChip } from "../../components/chat/FileChip";
import { PageHeader } from "../../components/PageHeader";
import { SupportThread } from "../../components/support/SupportThread";
import { useConfig } from "../../lib/config";
import { wrongContentOf } from "../../lib/fileContent";
import { oldestFirst } from "../../lib/olderPages";
import { useRealtimeEvents } from "../../lib/realtime";
import {
  appendSupportMessage,
  imageProblem,
  supportKeys,
  useMarkSupportRead,
  useSendSupportMessage,
  useSupportMessages,
} from "./api";
import { SupportAccessList } from "./SupportAccessList";

/** The chosen image's chip: a thumbnail, its name and size, and a remove button. */
function ImageChip({ file, onRemove }: { file: File; onRemove: () => void }) {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== "function") return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <FileChip
      file={file}
      onRemove={onRemove}
      className="w-fit gap-2 pl-1"
      leading={
        preview ? (
          <img src={preview} alt="" className="size-8 shrink-0 rounded-full object-cover" />
        ) : (
          <ImagePlus className="ml-2 size-4 shrink-0 text-slate-600" aria-hidden="true" />
        )
      }
    />
  );
}

/** What the help page was opened about: `?request=<id>`, with the label a request page passed along. */
function useRequestAbout() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const requestId = params.get("request");
  const state = location.state as { requestLabel?: unknown } | null;
  const label = typeof state?.requestLabel === "string" ? state.requestLabel : null;
  const clear = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("request");
        return next;
      },
      { replace: true, state: null },
    );
  return { requestId, label, clear };
}

/** "À propos de la demande …": the request the next message will name, and a way to leave it out. */
function RequestAbout({ label, onRemove }: { label: string | null; onRemove: () => void }) {
  return (
    <div className="flex w-fit max-w-full items-center gap-2 rounded-full border border-brand-200 bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-900">
      <FileText className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 truncate">
        {label ? `À propos de la demande ${label}` : "À propos de votre demande"}
      </span>
      <button
        type="button"
        onClick={onRemove}
        aria-label="Ne pas joindre la demande à ce message"
        className="flex size-7 shrink-0 items-center justify-center rounded-full text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-700"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}

function SupportComposer() {
  const about = useRequestAbout();
  const errorId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState("");
  const [image, setImage] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useSendSupportMessage();
  const canSend = !send.isPending && (text.trim().length > 0 || image !== null);

  const submit = () => {
    if (!canSend) return;
    send.mutate(
      { body: text.trim(), image, requestId: about.requestId },
      {
        onSuccess: () => {
          setText("");
          setImage(null);
          setError(null);
          // The request is named once, by the first message.
          if (about.requestId) about.clear();
          toast.success(SUPPORT_MESSAGES.sent);
          textarea.current?.focus();
        },
        onError: (failure) => toast.error(SUPPORT_MESSAGES.sendFailed, { description: failure.message }),
      },
    );
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    // An empty file, or one whose first bytes are not the JPEG or PNG its name says, is no image.
    const problem =
      imageProblem(file) ?? ((await wrongContentOf([file])).size > 0 ? SUPPORT_MESSAGES.imageOnly : null);
    setError(problem);
    if (!problem) setImage(file);
  };

  return (
    <ChatForm
      label="Écrire à l'équipe"
      className="grid gap-2 border-t border-slate-200 bg-white p-3"
      fieldLabel="Votre message à l'équipe"
      placeholder="Écrivez votre message..."
      maxLength={5000}
      value={text}
      onChange={setText}
      onSend={submit}
      canSend={canSend}
      sending={send.isPending}
      textareaRef={textarea}
      errorId={error ? errorId : undefined}
      hint="Une image JPG ou PNG de 10 Mo au plus."
      above={
        <>
          {about.requestId ? <RequestAbout label={about.label} onRemove={about.clear} /> : null}
          {image ? (
            <ImageChip
              file={image}
              onRemove={() => {
                setImage(null);
                textarea.current?.focus();
              }}
            />
          ) : null}
          {error ? (
            <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
        </>
      }
      attach={
        <AttachButton
          label="Joindre une image"
          inputLabel="Image à joindre"
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          icon={<ImagePlus aria-hidden="true" />}
          onFiles={(files) => void choose(files[0])}
        />
      }
    />
  );
}

const DESCRIPTIONS = {
  patient: (brand: string) =>
    `Une question sur ${brand}, une demande ou un devis ? Écrivez à notre équipe : elle vous répond ici (et par e-mail si vous ne lisez pas sa réponse).`,
  dentist: (brand: string) =>
    `Une question sur ${brand}, une demande de patient ou la vérification de votre compte ? Écrivez à notre équipe : elle vous répond ici (et par e-mail si vous ne lisez pas sa réponse).`,
} as const;

/**
 * /patient/help (issue 7) and /dentist/help (issue 16) 'Besoin d'aide ?': one person's thread with
 * the Sourio team, their messages on the right, the team's on the left.
 */
export function HelpPage({ area }: { area: "patient" | "dentist" }) {
  const { brand_name: brand } = useConfig();
  const team = `L'équipe ${brand}`;
  const messages = useSupportMessages();
  const markRead = useMarkSupportRead();
  const queryClient = useQueryClient();
  const items = oldestFirst(messages.data);
  const lastId = items.at(-1)?.id;
  const unreadReplies = items.some((m) => m.from_team && !m.read_at);

  useEffect(() => {
    if (messages.isError) toast.error(SUPPORT_MESSAGES.loadFailed, { id: "support-messages" });
  }, [messages.isError]);

  // The team's replies live; a reconnection fetches what was missed. A reply means the team opened
  // the thread: « Qui a lu ce fil » reloads with it rather than say nobody did.
  useRealtimeEvents((notice) => {
    if (notice.type === "support") {
      appendSupportMessage(queryClient, notice.message);
      if (notice.message.from_team) void queryClient.invalidateQueries({ queryKey: supportKeys.access() });
    } else if (notice.type === "resync") {
      void queryClient.invalidateQueries({ queryKey: supportKeys.thread() });
      void queryClient.invalidateQueries({ queryKey: supportKeys.access() });
    }
  });

  // Opening the page (and a reply arriving while it is open) marks the team's replies read.
  const { mutate } = markRead;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a new message arrives.
  useEffect(() => {
    if (!unreadReplies) return;
    mutate(undefined, {
      onError: (error) => console.error("Impossible de marquer les réponses comme lues", error),
    });
  }, [unreadReplies, lastId]);

  return (
    <>
      <PageHeader title={SUPPORT_MESSAGES.title} description={DESCRIPTIONS[area](brand)} />
      <section
        aria-label={`Conversation avec l'équipe ${brand}`}
        className="flex h-[calc(100dvh-18rem)] min-h-[26rem] flex-col rounded-ui border border-slate-200 bg-white shadow-sm"
      >
        <SupportThread
          query={messages}
          items={items}
          mine={(message) => !message.from_team}
          author={(message) => (message.from_team ? team : "Vous")}
          loadFailed={SUPPORT_MESSAGES.loadFailed}
          mineFirst
          empty={
            <div className="flex h-full flex-col items-center justify-center gap-3 px-6 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <LifeBuoy className="size-6" aria-hidden="true" />
              </span>
              <h2 className="text-lg font-semibold text-slate-900">Posez votre question</h2>
              <p className="max-w-md text-slate-600">
                Décrivez votre question ci-dessous ; vous pouvez joindre une capture d'écran ou une photo.
                Notre équipe vous répond en général dans la journée.
              </p>
            </div>
          }
        />
        <SupportComposer />
      </section>
      <SupportAccessList />
    </>
  );
}
