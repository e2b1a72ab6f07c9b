import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/cn";
import { Card } from "./Card";
import { Skeleton } from "./Skeleton";

/** A dashboard counter: icon, label and a large number (a skeleton of the same size while loading). */
export function StatCard({
  icon: Icon,
  label,
  value,
  loading,
  className,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  loading: boolean;
  /** Where it stands in its grid (a tile across both columns of a phone's). */
  className?: string;
}) {
  // On a phone, two tiles a row (the grids' grid-cols-2), their icon above their figure.
  return (
    <Card
      className={cn(
        "flex h-full flex-col items-start gap-2 p-4 sm:flex-row sm:items-center sm:gap-4 sm:p-5",
        className,
      )}
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 sm:size-11">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="grid min-w-0 gap-0.5">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        {loading ? (
          <Skeleton className="my-1 h-6 w-20" />
        ) : (
          <p className="text-xl font-bold text-slate-900 tabular-nums sm:text-2xl">{value}</p>
        )}
      </div>
    </Card>
  );
}
