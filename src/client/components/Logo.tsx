import { cx as cn } from "../lib/cx";

/** Sourio's mark: a white tooth on a teal shield (same drawing as public/favicon.svg). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={cn("size-8", className)} aria-hidden="true" focusable="false">
      <path d="M32 3 8 12v18c0 15.5 10.2 27.4 24 31 13.8-3.6 24-15.5 24-31V12L32 3Z" fill="#0f766e" />
      <path
        d="M24.5 18c-4.6 0-8 3.7-8 8.6 0 4.1 1.4 7 2.6 10.3 1.1 3.1 1.6 7.1 2.4 10 .5 1.8 1.4 2.8 2.6 2.8 1.5 0 2.2-1.3 2.7-3.6l1.4-6.4c.4-1.8 1.4-2.8 3.8-2.8s3.4 1 3.8 2.8l1.4 6.4c.5 2.3 1.2 3.6 2.7 3.6 1.2 0 2.1-1 2.6-2.8.8-2.9 1.3-6.9 2.4-10 1.2-3.3 2.6-6.2 2.6-10.3 0-4.9-3.4-8.6-8-8.6-3.2 0-5 1.6-7.5 1.6S27.7 18 24.5 18Z"
        fill="#fff"
      />
    </svg>
  );
}

/** Mark + brand name. */
export function Logo({ brand, className }: { brand: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-2 text-xl font-bold tracking-tight text-brand-900",
        className,
      )}
    >
      <LogoMark />
      {brand}
    </span>
  );
}
