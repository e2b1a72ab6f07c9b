import { Loader2 } from "lucide-react";
import { Slot } from "radix-ui";
import type { ComponentProps } from "react";
import { cx as cn } from "../../lib/cx";

export type ButtonVariant =
  | "primary"
  | "accent"
  | "secondary"
  | "outline"
  | "ghost"
  | "destructive"
  | "destructive-ghost"
  | "light";
export type ButtonSize = "sm" | "md" | "lg" | "icon";

const base =
  "relative inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-ui font-medium " +
  "transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 " +
  "disabled:pointer-events-none disabled:opacity-60 aria-disabled:pointer-events-none aria-disabled:opacity-60 " +
  "[&_svg]:shrink-0";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-brand-700 text-white shadow-sm hover:bg-brand-800",
  accent: "bg-accent-600 text-white shadow-sm hover:bg-accent-700",
  secondary: "bg-brand-50 text-brand-800 hover:bg-brand-100",
  outline: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
  destructive: "bg-red-700 text-white shadow-sm hover:bg-red-800 focus-visible:outline-red-700",
  /** A quiet action that opens a destructive confirmation (cancel an appointment). */
  "destructive-ghost": "text-red-700 hover:bg-red-50 hover:text-red-800",
  /** On a dark (brand) background. */
  light: "bg-white text-brand-900 shadow-sm hover:bg-brand-50 focus-visible:outline-white",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-9 px-3 text-sm [&_svg]:size-4",
  md: "h-10 px-4 text-base [&_svg]:size-4",
  lg: "h-12 px-6 text-base [&_svg]:size-5",
  icon: "size-10 [&_svg]:size-5",
};

export function buttonClasses(
  variant: ButtonVariant = "primary",
  size: ButtonSize = "md",
  className?: string,
): string {
  return cn(base, variants[variant], sizes[size], className);
}

/**
 * `className` is appended without merging (this component is in the landing's initial bundle):
 * add spacing or width, never a class that fights the variant (wrap the button to hide it).
 */
export interface ButtonProps extends ComponentProps<"button"> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the single child (for instance a <Link>) with the button's look. */
  asChild?: boolean;
  /**
   * Shows a spinner over the label, keeps the width and refuses presses. The button stays focusable
   * (aria-disabled, not disabled): a disabled button loses the keyboard's focus to the page.
   */
  loading?: boolean;
}

export function Button({
  variant = "primary",
  size = "md",
  asChild = false,
  loading = false,
  disabled,
  className,
  children,
  type,
  onClick,
  ...props
}: ButtonProps) {
  if (asChild) {
    return (
      <Slot.Root className={buttonClasses(variant, size, className)} onClick={onClick} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <button
      type={type ?? "button"}
      className={buttonClasses(variant, size, className)}
      disabled={disabled}
      aria-disabled={(loading && !disabled) || undefined}
      aria-busy={loading || undefined}
      onClick={(event) => {
        // Enter, Space or a form's implicit submission while it works: nothing happens again.
        if (loading) event.preventDefault();
        else onClick?.(event);
      }}
      {...props}
    >
      {loading ? (
        <>
          {/* The label stays in the layout (and the accessible name), only made transparent. */}
          <span className="inline-flex items-center gap-2 opacity-0">{children}</span>
          <span className="absolute inset-0 flex items-center justify-center" aria-hidden="true">
            <Loader2 className="animate-spin" />
          </span>
        </>
      ) : (
        children
      )}
    </button>
  );
}
