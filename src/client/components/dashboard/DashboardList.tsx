import type { ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { Skeleton } from "../ui/Skeleton";

/**
 * The short lists of the patient's and the dentist's dashboards (recent requests, next
 * appointments): rows of a title, a line below it and, on the right, badges or buttons. `inCard`
 * rows stand alone in a Card of their own, with its padding; the others sit in a card's content.
 */

const ROW = "flex flex-wrap items-center justify-between gap-x-4 gap-y-2";
const ROW_PADDING = { inCard: "px-5 py-4 sm:min-h-[4.5rem]", inContent: "py-3 first:pt-0 last:pb-0" };

export function DashboardRow({
  title,
  meta,
  inCard = false,
  titleClassName,
  metaClassName,
  children,
}: {
  title: ReactNode;
  meta: ReactNode;
  inCard?: boolean;
  titleClassName?: string;
  metaClassName?: string;
  /** The right side: a status badge, buttons. */
  children: ReactNode;
}) {
  return (
    <li className={cn(ROW, inCard ? ROW_PADDING.inCard : ROW_PADDING.inContent)}>
      <div className="grid min-w-0 gap-0.5">
        <p className={cn("font-medium text-slate-900", titleClassName)}>{title}</p>
        <p className={cn("text-sm text-slate-600", metaClassName)}>{meta}</p>
      </div>
      {children}
    </li>
  );
}

/** A row's 'Voir' button; `label` names what it opens for screen readers. */
export function ViewLink({ to, label }: { to: string; label: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={to} aria-label={label}>
        Voir
      </Link>
    </Button>
  );
}

/** Grey rows (three unless told) while a list loads ('Chargement...' for screen readers). */
export function ListSkeleton({ inCard = false, rows: count = 3 }: { inCard?: boolean; rows?: number }) {
  const rows = (
    <>
      <p className="sr-only">Chargement...</p>
      <ul className="divide-y divide-slate-200">
        {Array.from({ length: count }, (_, i) => `row-${i}`).map((key) => (
          <li
            key={key}
            className={cn("flex h-[4.5rem] items-center justify-between gap-4", inCard && "px-5")}
          >
            <div className="grid gap-2">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-4 w-24" />
            </div>
            <Skeleton className="h-6 w-20 rounded-full" />
          </li>
        ))}
      </ul>
    </>
  );
  return inCard ? <Card aria-busy="true">{rows}</Card> : <div aria-busy="true">{rows}</div>;
}
