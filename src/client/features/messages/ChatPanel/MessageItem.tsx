import { FileText } from "lucide-react";
import { formatFileSize } from "../../../../shared/format/size";
import type { ChatAttachment, ChatMessage } from "../../../../shared/schemas/conversations";
import { ChatBubble } from "../../../components/ChatBubble";
import { cn } from "../../../lib/cn";
import { fullDateTime, messageTimeLabel } from "../time";

/** One message of the thread: its text, its attachments (an image as a thumbnail, a file as a link), when it was sent and read. */

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

export function MessageItem({
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
      {message.body ? <p className="whitespace-pre-wrap wrap-anywhere">{message.body}</p> : null}
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
