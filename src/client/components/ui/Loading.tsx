import type { ReactNode } from "react";

/**
 * A placeholder while something loads: marked busy and announced 'Chargement...' to screen
 * readers, with the skeletons of what is coming as children.
 */
export function Loading({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div aria-busy="true" className={className}>
      <p className="sr-only">Chargement...</p>
      {children}
    </div>
  );
}
