import { Loader2 } from "lucide-react";
import { cx as cn } from "../../lib/cx";

interface SpinnerProps {
  /** Text read by screen readers and shown beside the icon. */
  label?: string;
  /** Hide the text visually (it stays available to screen readers). */
  hideLabel?: boolean;
  className?: string;
}

/** Loading indicator 'Chargement...' (role=status). */
export function Spinner({ label = "Chargement...", hideLabel = false, className }: SpinnerProps) {
  return (
    <div role="status" className={cn("flex items-center justify-center gap-2 text-slate-600", className)}>
      <Loader2 className="size-5 animate-spin text-brand-700" aria-hidden="true" />
      <span className={cn(hideLabel && "sr-only")}>{label}</span>
    </div>
  );
}

/** A full-area loading state of a page. */
export function PageSpinner() {
  return <Spinner className="min-h-[50vh] py-16" />;
}
