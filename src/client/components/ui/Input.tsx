import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

export const controlClasses =
  "block w-full rounded-ui border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-xs " +
  "placeholder:text-slate-500 focus-visible:border-brand-700 focus-visible:outline-2 focus-visible:outline-offset-0 " +
  "focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600 read-only:bg-slate-50 " +
  "aria-invalid:border-red-700 aria-invalid:focus-visible:outline-red-700";

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={cn(controlClasses, "h-10", className)} {...props} />;
}
