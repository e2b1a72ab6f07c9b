import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "./Card";
import { Skeleton } from "./Skeleton";

/** A dashboard counter: icon, label and a large number (a skeleton of the same size while loading). */
export function StatCard({
  icon: Icon,
  label,
  value,
  loading,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  loading: boolean;
}) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div className="grid min-w-0 gap-0.5">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        {loading ? (
          <Skeleton className="my-1 h-6 w-20" />
        ) : (
          <p className="text-2xl font-bold text-slate-900 tabular-nums">{value}</p>
        )}
      </div>
    </Card>
  );
}
