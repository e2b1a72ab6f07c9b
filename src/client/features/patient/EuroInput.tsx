import type { ComponentProps } from "react";
import { Input } from "../../components/ui/Input";
import { cn } from "../../lib/cn";

/** An amount typed in euros ("1 250,50"), the € sign drawn at its end (the devis' amount, the cover's ceilings). */
export function EuroInput({ className, ...props }: ComponentProps<typeof Input>) {
  return (
    <div className="relative">
      <Input inputMode="decimal" autoComplete="off" className={cn("pr-9", className)} {...props} />
      <span
        className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-slate-600"
        aria-hidden="true"
      >
        €
      </span>
    </div>
  );
}
