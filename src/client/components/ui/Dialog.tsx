import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ComponentProps, type ReactNode, useRef } from "react";
import { cn } from "../../lib/cn";
import { Button } from "./Button";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogOverlay({ className, ...props }: ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay className={cn("fixed inset-0 z-50 bg-slate-950/50", className)} {...props} />
  );
}

/**
 * Radix's portal, overlay and content, with the close button (its name `closeLabel`) in the top
 * right corner: the centred dialogs and the side menus (Sheet).
 */
export function ModalContent({
  children,
  closeLabel,
  closeClassName,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { closeLabel: string; closeClassName: string }) {
  return (
    <DialogPrimitive.Portal>
      <DialogOverlay />
      <DialogPrimitive.Content {...props}>
        {children}
        <DialogPrimitive.Close
          className={cn(
            "absolute rounded-md p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900",
            closeClassName,
          )}
          aria-label={closeLabel}
        >
          <X className="size-5" aria-hidden="true" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/**
 * A centred modal; Radix traps the focus inside and gives it back on close. Never taller than the
 * screen less 1 rem above and below: a longer one (a form on a small phone) scrolls inside, its
 * title, close button and actions all reachable.
 */
export function DialogContent({ className, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  return (
    <ModalContent
      className={cn(
        "fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4",
        "max-h-[calc(100dvh-2rem)] overflow-y-auto overscroll-contain",
        "rounded-ui border border-slate-200 bg-white p-6 shadow-xl",
        className,
      )}
      closeLabel="Fermer"
      closeClassName="top-3 right-3"
      {...props}
    />
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      className={cn("pr-8 text-lg font-semibold text-slate-900", className)}
      {...props}
    />
  );
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn("text-slate-700", className)} {...props} />;
}

/** A dialog's buttons: the cancel one (it closes the dialog), then `children`, right-aligned from 640 px. */
export function DialogActions({
  cancelLabel = "Annuler",
  cancelDisabled,
  children,
}: {
  cancelLabel?: string;
  /** While the action runs, it cannot be cancelled. */
  cancelDisabled?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <DialogClose asChild>
        <Button variant="outline" disabled={cancelDisabled}>
          {cancelLabel}
        </Button>
      </DialogClose>
      {children}
    </div>
  );
}

/**
 * A modal with its title and description, then `children` (a field, an error, DialogActions);
 * `trigger` (a DialogTrigger) opens it. Other props go to the content (focus on close, …).
 *
 * Without a trigger (opened from a state, by a row's or a card's button), Radix would leave the
 * focus on the page's body once it closes: it goes back to what had it when the dialog opened,
 * unless `onCloseAutoFocus` placed it (and prevented the default). If the action removed it (a row
 * verified, a card deleted), the app's focus rescue (useFocusRescue) puts it on the main content.
 */
export function ActionDialog({
  open,
  onOpenChange,
  title,
  description,
  trigger,
  children,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...content
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  trigger?: ReactNode;
} & Omit<ComponentProps<typeof DialogPrimitive.Content>, "title">) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger}
      <DialogContent
        onOpenAutoFocus={(event) => {
          // Radix calls this before it moves the focus into the dialog.
          const focused = document.activeElement;
          opener.current = focused instanceof HTMLElement && focused !== document.body ? focused : null;
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const element = opener.current;
          opener.current = null;
          if (trigger || event.defaultPrevented || !element?.isConnected) return;
          event.preventDefault();
          element.focus();
        }}
        {...content}
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        {children}
      </DialogContent>
    </Dialog>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
  loading?: boolean;
  onConfirm: () => void;
}

/** A confirmation ("Êtes-vous sûr… ?") with Annuler and a confirm button; the focus returns to the opener. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = "Annuler",
  destructive = false,
  loading = false,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <ActionDialog open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <DialogActions cancelLabel={cancelLabel}>
        <Button variant={destructive ? "destructive" : "primary"} loading={loading} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </ActionDialog>
  );
}
