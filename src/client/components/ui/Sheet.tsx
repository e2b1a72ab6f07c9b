import { Menu } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { Button } from "./Button";
import { ModalContent } from "./Dialog";

/**
 * Opens the menu on its first entry. Radix's own choice skips links (it takes the first button):
 * in a menu of links, that was the last entry ('Déconnexion') or the close button.
 */
function focusFirstEntry(event: Event) {
  const content = event.currentTarget;
  if (!(content instanceof HTMLElement)) return;
  const first = content.querySelector<HTMLElement>("a[href], button:not(:disabled)");
  if (!first) return;
  event.preventDefault();
  first.focus();
}

/**
 * A menu in a side drawer (under 768 px), opened by the 'Ouvrir le menu' button it renders; built
 * on Radix Dialog: focus trapped, on the first entry when it opens; Escape closes. The drawer is the
 * screen's height and scrolls when its entries are taller. `description` is read by screen readers
 * only. `pending` (unread messages, requests to answer…) puts a dot on the closed menu's button,
 * said as its description: on a phone the entries' counters are inside the menu.
 */
export function MenuSheet({
  open,
  onOpenChange,
  side,
  title,
  description,
  pending = 0,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side: "left" | "right";
  title: string;
  description: string;
  pending?: number;
  children: ReactNode;
}) {
  const pendingId = useId();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Ouvrir le menu"
          aria-describedby={pending > 0 ? pendingId : undefined}
          className="relative"
        >
          <Menu aria-hidden="true" />
          {pending > 0 ? (
            <span
              aria-hidden="true"
              data-testid="menu-pending-dot"
              className="absolute top-1.5 right-1.5 size-2.5 rounded-full bg-red-600 ring-2 ring-white"
            />
          ) : null}
        </Button>
      </DialogPrimitive.Trigger>
      {pending > 0 ? (
        <span id={pendingId} className="sr-only">
          {pending > 1 ? `${pending} éléments en attente` : "1 élément en attente"}
        </span>
      ) : null}
      <ModalContent
        className={cn(
          "fixed inset-y-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-4 overflow-y-auto bg-white p-5 shadow-xl",
          side === "right" ? "right-0 border-l border-slate-200" : "left-0 border-r border-slate-200",
        )}
        closeLabel="Fermer le menu"
        closeClassName="top-4 right-4"
        onOpenAutoFocus={focusFirstEntry}
        onCloseAutoFocus={(event) => {
          // Closed by following one of its links: the new page's main content has the focus (as after
          // any navigation), not the menu's button.
          if (document.activeElement?.id === "main") event.preventDefault();
        }}
      >
        <DialogPrimitive.Title className="pr-10 text-lg font-semibold text-slate-900">
          {title}
        </DialogPrimitive.Title>
        <DialogPrimitive.Description className="sr-only">{description}</DialogPrimitive.Description>
        {children}
      </ModalContent>
    </DialogPrimitive.Root>
  );
}
