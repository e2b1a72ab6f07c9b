import type { ReactNode } from "react";

/** The title of a landing page section: its h2, named by the section's aria-labelledby. */
export function SectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
      {children}
    </h2>
  );
}
