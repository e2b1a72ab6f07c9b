import type { LucideIcon } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return (
    <div className={cn("rounded-ui border border-slate-200 bg-white shadow-sm", className)} {...props} />
  );
}

export function CardHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("grid gap-1 p-5 pb-3 sm:p-6 sm:pb-3", className)} {...props} />;
}

/** A card's heading; with `icon`, the icon stands before the words. */
export function CardTitle({
  className,
  as: Heading = "h2",
  icon: Icon,
  children,
  ...props
}: ComponentProps<"h2"> & { as?: "h2" | "h3"; icon?: LucideIcon }) {
  return (
    <Heading
      className={cn("text-lg font-semibold text-slate-900", Icon && "flex items-center gap-2", className)}
      {...props}
    >
      {Icon ? <Icon className="size-5 text-brand-700" aria-hidden="true" /> : null}
      {children}
    </Heading>
  );
}

export function CardDescription({ className, ...props }: ComponentProps<"p">) {
  return <p className={cn("text-sm text-slate-600", className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("p-5 pt-0 sm:p-6 sm:pt-0", className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex items-center gap-3 p-5 pt-0 sm:p-6 sm:pt-0", className)} {...props} />;
}
