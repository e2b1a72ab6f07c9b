import { Info } from "lucide-react";
import { Link } from "react-router";
import { formatEuros } from "../../../shared/format/money";
import { cn } from "../../lib/cn";
import { Badge } from "../ui/Badge";

/*
 * The small parts of a reste à charge estimate (issue 15), shared by the request page, the
 * comparison and wherever a quote is shown to its patient: the figure with the price beside it, the
 * basket badges, the saving against the original quote, and the notice when no mutuelle is known.
 */

/** Where the patient enters their mutuelle (the profile page's 'Ma mutuelle' section). */
export const COVER_PATH = "/patient/profile#ma-mutuelle";

/** Every act of the quote is in the 100 % Santé basket (nothing to pay within its ceilings). */
export function SanteBadge({ className }: { className?: string }) {
  return (
    <Badge tone="green" className={className} title="Tous les actes de ce devis sont du panier 100 % Santé">
      100 % Santé
    </Badge>
  );
}

/**
 * 'Reste à charge estimé' as the main figure, the price beside it. `size` "lg" on cards, "md" in
 * the comparison's narrow columns.
 */
export function RestFigure({
  restCents,
  feeCents,
  label = "Reste à charge estimé",
  size = "lg",
  align = "start",
  hideLabel = false,
  className,
}: {
  restCents: number;
  feeCents: number;
  label?: string;
  size?: "lg" | "md";
  /** "end": right-aligned from 640 px (beside a dentist's name on a card). */
  align?: "start" | "end";
  /** Keep the label for screen readers only (where a row header already says it). */
  hideLabel?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("grid gap-0.5", align === "end" && "sm:justify-items-end sm:text-right", className)}>
      <p className={hideLabel ? "sr-only" : "text-sm font-medium text-slate-600"}>{label}</p>
      <p
        className={cn(
          "flex flex-wrap items-baseline gap-x-3 gap-y-0.5 tabular-nums",
          align === "end" && "sm:justify-end",
        )}
      >
        <span className={cn("font-semibold text-slate-900", size === "lg" ? "text-2xl" : "text-xl")}>
          {formatEuros(restCents)}
        </span>
        <span className="text-sm text-slate-700">Prix : {formatEuros(feeCents)}</span>
      </p>
    </div>
  );
}

/**
 * '420,00 € (35 %)' of reste à charge saved against the original quote's, or null without a saving.
 * The percentage is of the original quote's reste à charge (left out when it was nothing).
 */
export function restSaving(savingCents: number | null, originalRestCents: number | null): string | null {
  if (savingCents === null || savingCents <= 0) return null;
  const percent =
    originalRestCents && originalRestCents > 0 ? Math.round((savingCents / originalRestCents) * 100) : null;
  return percent === null ? formatEuros(savingCents) : `${formatEuros(savingCents)} (${percent}\u00a0%)`;
}

/**
 * 'Sans mutuelle renseignée…': said wherever an estimate counts the Assurance Maladie only, with the
 * way to give the mutuelle.
 */
export function AmoOnlyNotice({ className }: { className?: string }) {
  return (
    <p className={cn("flex items-start gap-2 text-sm text-slate-700", className)}>
      <Info className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
      <span>
        Sans mutuelle renseignée, l'estimation ne compte que l'Assurance Maladie —{" "}
        <Link to={COVER_PATH} className="font-medium text-brand-700 underline underline-offset-2">
          renseignez votre mutuelle
        </Link>
        .
      </span>
    </p>
  );
}
