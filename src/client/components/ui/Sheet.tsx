import { Menu } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";
import { Button } from "./Button";
import { ModalContent } from "./Dialog";

/**
 * A menu in a side drawer (under 768 px), opened by the 'Ouvrir le menu' button it renders; built
 * on Radix Dialog: focus trapped, Escape closes. `description` is read by screen readers only.
 */
export function MenuSheet({
  open,
  onOpenChange,
  side,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side: "left" | "right";
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label="Ouvrir le menu">
          <Menu aria-hidden="true" />
        </Button>
      </DialogPrimitive.Trigger>
      <ModalContent
        className={cn(
          "fixed inset-y-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-4 overflow-y-auto bg-white p-5 shadow-xl",
          side === "right" ? "right-0 border-l border-slate-200" : "left-0 border-r border-slate-200",
        )}
        closeLabel="Fermer le menu"
        closeClassName="top-4 right-4"
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
