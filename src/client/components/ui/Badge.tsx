import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

/** Status colours: yellow new/pending, blue in review/responded, green done, grey other. */
export type BadgeTone = "yellow" | "blue" | "green" | "gray" | "red" | "brand";

const tones: Record<BadgeTone, string> = {
  yellow: "bg-yellow-100 text-yellow-900 ring-yellow-300",
  blue: "bg-blue-100 text-blue-900 ring-blue-300",
  green: "bg-green-100 text-green-900 ring-green-300",
  gray: "bg-slate-100 text-slate-800 ring-slate-300",
  red: "bg-red-100 text-red-900 ring-red-300",
  brand: "bg-brand-50 text-brand-900 ring-brand-200",
};

interface BadgeProps extends ComponentProps<"span"> {
  tone?: BadgeTone;
}

/** A label with a colour; never colour alone (ui.md). */
export function Badge({ tone = "gray", className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ring-inset [&_svg]:size-3.5",
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
