import { MessagesSquare } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import { CHAT_MESSAGES } from "../../../shared/schemas/conversations";
import { VerificationPending } from "../../components/dashboard/VerificationPending";
import { PageHeader } from "../../components/PageHeader";
import { cn } from "../../lib/cn";
import { useSession } from "../../lib/session";
import { ChatPanel } from "./ChatPanel";
import { type ChatArea, ConversationList } from "./ConversationList";

const DESCRIPTIONS: Record<ChatArea, string> = {
  patient: "Échangez avec les dentistes qui ont répondu à vos demandes.",
  dentist: "Échangez avec les patients dont vous avez traité les demandes.",
};

/** Under 768 px the list and the thread are two steps: one shows at a time. */
const PHONE = "(max-width: 767px)";

interface MessagesScreenProps {
  area: ChatArea;
  /** The open conversation, or null for the placeholder. */
  selectedId: string | null;
  /** The page of a conversation, with the current search kept in `?q=`. */
  pathOf: (id: string, search: string) => string;
  /** The list alone (the first step on a phone), with the current search. */
  listPath: (search: string) => string;
}

/**
 * The Messages page (patient and dentist): the conversation list on the left, the chat panel on the
 * right; under 768 px they are two steps (the list, then the thread with a back button).
 */
export function MessagesScreen({ area, selectedId, pathOf, listPath }: MessagesScreenProps) {
  const { profile } = useSession();
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const screenRef = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLElement>(null);
  const shown = useRef(selectedId);

  // On a phone, the link pressed hides with the list (and « Retour aux conversations » with the
  // thread): the focus would fall to the page's body. Opened, it goes into the thread; back, to
  // the conversation just left. (A dentist's change of page moves it to <main> after this.)
  useEffect(() => {
    const left = shown.current;
    shown.current = selectedId;
    if (left === selectedId) return;
    if (selectedId) {
      if (window.matchMedia(PHONE).matches) panel.current?.focus();
      return;
    }
    const links = screenRef.current?.querySelectorAll<HTMLElement>("[data-conversation]") ?? [];
    Array.from(links)
      .find((link) => link.dataset.conversation === left)
      ?.focus();
  }, [selectedId]);
  const onSearch = useCallback(
    (term: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (term) next.set("q", term);
          else next.delete("q");
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  // A dentist not verified (pending, or withdrawn) reads no conversation (D6): the server answers
  // none; this says why.
  if (area === "dentist" && profile && !profile.is_verified)
    return (
      <>
        <PageHeader title="Mes messages" description={DESCRIPTIONS[area]} />
        <VerificationPending />
      </>
    );

  return (
    <>
      <PageHeader title="Mes messages" description={DESCRIPTIONS[area]} />
      <div
        ref={screenRef}
        className="grid h-[clamp(28rem,calc(100dvh-15rem),52rem)] grid-cols-[minmax(0,1fr)] overflow-hidden rounded-ui border border-slate-200 bg-white shadow-sm md:grid-cols-[20rem_minmax(0,1fr)] lg:grid-cols-[22rem_minmax(0,1fr)]"
      >
        <ConversationList
          area={area}
          selectedId={selectedId}
          search={search}
          onSearch={onSearch}
          linkTo={(id) => pathOf(id, search)}
          className={selectedId ? "hidden md:flex" : "flex"}
        />
        <div className={cn("min-h-0 min-w-0 flex-col", selectedId ? "flex" : "hidden md:flex")}>
          {selectedId && profile ? (
            <ChatPanel
              ref={panel}
              key={selectedId}
              conversationId={selectedId}
              area={area}
              viewerId={profile.id}
              backTo={listPath(search)}
            />
          ) : (
            <div className="flex flex-1 flex-col items-center justify-center gap-3 bg-slate-50 p-6 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <MessagesSquare className="size-6" aria-hidden="true" />
              </span>
              <p className="max-w-xs text-slate-700">{CHAT_MESSAGES.placeholder}</p>
            </div>
          )}
        </div>
      </div>
    </>
  );
}
