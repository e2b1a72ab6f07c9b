import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

/** A grey placeholder of the final size while data loads (ui.md: nothing jumps when it arrives). */
export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return (
    <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-slate-200", className)} {...props} />
  );
}
