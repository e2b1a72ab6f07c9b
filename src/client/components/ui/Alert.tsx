import { AlertCircle, CheckCircle2, Info } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/cn";

type AlertVariant = "info" | "success" | "destructive";

const styles: Record<AlertVariant, string> = {
  info: "border-brand-200 bg-brand-50 text-brand-900",
  success: "border-green-300 bg-green-50 text-green-900",
  destructive: "border-red-300 bg-red-50 text-red-900",
};

const icons = { info: Info, success: CheckCircle2, destructive: AlertCircle };

interface AlertProps extends Omit<ComponentProps<"div">, "title"> {
  variant?: AlertVariant;
  title?: ReactNode;
}

/** A message box; the destructive variant is announced (role=alert), the others politely. */
export function Alert({ variant = "info", title, className, children, ...props }: AlertProps) {
  const Icon = icons[variant];
  return (
    <div
      role={variant === "destructive" ? "alert" : "status"}
      className={cn("flex gap-3 rounded-ui border p-4 text-sm", styles[variant], className)}
      {...props}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="grid gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div>{children}</div> : null}
      </div>
    </div>
  );
}
