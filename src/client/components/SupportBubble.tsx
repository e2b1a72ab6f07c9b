import { formatDetailDateTime } from "../../shared/format/dates";
import type { SupportMessage } from "../../shared/schemas/support";
import { cn } from "../lib/cn";
import { ChatBubble } from "./ChatBubble";

/**
 * One message of the support chat, on the right (brand colours) when `mine`, else on the left:
 * its author, its image (opens in a new tab), its text and its date. Used by the patient's help page
 * and the admins' thread.
 */
export function SupportBubble({
  message,
  mine,
  author,
}: {
  message: SupportMessage;
  mine: boolean;
  author: string;
}) {
  return (
    <ChatBubble
      mine={mine}
      className={cn(
        "gap-1.5 rounded-ui px-4 py-2.5",
        mine ? "bg-brand-700 text-white" : "bg-slate-100 text-slate-900",
      )}
    >
      <p className={cn("text-xs font-semibold", mine ? "text-brand-50" : "text-slate-700")}>{author}</p>
      {message.request ? (
        <p className={cn("text-xs italic", mine ? "text-brand-50" : "text-slate-700")}>
          {`À propos de la demande ${message.request.label}`}
        </p>
      ) : null}
      {message.image ? (
        <a
          href={message.image.url}
          target="_blank"
          rel="noopener noreferrer"
          className={cn(
            "block w-fit overflow-hidden rounded-md focus-visible:outline-2 focus-visible:outline-offset-2",
            mine ? "focus-visible:outline-white" : "focus-visible:outline-brand-700",
          )}
        >
          <img
            src={message.image.url}
            alt={message.image.name}
            loading="lazy"
            className="h-40 w-auto max-w-full rounded-md bg-slate-200 object-cover"
          />
        </a>
      ) : null}
      {message.body ? <p className="whitespace-pre-line wrap-anywhere">{message.body}</p> : null}
      <time
        dateTime={message.created_at}
        className={cn("text-xs tabular-nums", mine ? "text-brand-50" : "text-slate-600")}
      >
        {formatDetailDateTime(message.created_at)}
      </time>
    </ChatBubble>
  );
}
