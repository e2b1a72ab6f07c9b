import { useEffect, useSyncExternalStore } from "react";
import { PUBLIC_FIGURE_METHODS, PUBLIC_FIGURE_UNMEASURED } from "../../../shared/domain/publicFigures";
import type { PublicStats } from "../../../shared/schemas/publicStats";
import type { Figure } from "../../content/landing";
import { api } from "../../lib/api";

/*
 * GET /api/public/stats once per visit, after hydration, in a small store like lib/config.ts (no
 * react-query in the landing page's initial JS). null while unknown: the page shows the content's
 * written figures, which are also what the pre-rendered HTML holds. The figures come written by the
 * server: the page formats no number (no Intl formatter, ADR 071).
 */
let stats: PublicStats["text"] | null = null;
let requested = false;
const listeners = new Set<() => void>();

function load(): void {
  if (requested) return;
  requested = true;
  api<Partial<PublicStats>>("/api/public/stats")
    .then((data) => {
      // An answer without the texts (an older server's, kept by a cache) leaves the written figures.
      const text = data?.text;
      if (typeof text !== "object" || text === null) return;
      stats = text;
      for (const listener of listeners) listener();
    })
    .catch(() => {
      // Keep the written figures; the next visit asks again.
    });
}

/** Tests only: forget the loaded figures. */
export function resetPublicStatsStore(): void {
  stats = null;
  requested = false;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The figures from the database as the server writes them, or null while unknown (and when pre-rendering). */
export function usePublicStats(): PublicStats["text"] | null {
  useEffect(load, []);
  return useSyncExternalStore(
    subscribe,
    () => stats,
    () => null,
  );
}

/**
 * The figures under the hero (an island on the pre-rendered landing page, ADR 027): the written
 * value until the database's figures are known, then the measured one; a figure not shown (too few
 * cases, patients or verified dentists) is a dash that says why. Each says how it is computed; the rating links to /avis (plain links: an
 * island has no router).
 */
export function PublicFigures({ figures }: { figures: readonly Figure[] }) {
  const measured = usePublicStats();
  return (
    <dl className="grid grid-cols-1 gap-px overflow-hidden rounded-ui border border-slate-200 bg-slate-200 min-[400px]:grid-cols-2 lg:grid-cols-5">
      {figures.map((figure) => {
        const value = measured ? measured[figure.id] : figure.value;
        return (
          <div key={figure.id} className="flex flex-col gap-1 bg-white p-4 sm:p-5">
            <dt className="order-2 text-sm text-slate-700">{figure.label}</dt>
            {/* One dd (axe: a dl's groups hold dt and dd only); its parts placed around the dt. */}
            <dd className="contents">
              <span
                className="order-1 text-xl font-semibold text-brand-800 tabular sm:text-2xl"
                data-figure={figure.id}
              >
                {value ?? (
                  <>
                    <span aria-hidden="true">—</span>
                    <span className="sr-only">non mesuré</span>
                  </>
                )}
              </span>
              <span className="order-3 text-xs text-slate-600">
                {value === null && measured
                  ? PUBLIC_FIGURE_UNMEASURED[figure.id]
                  : PUBLIC_FIGURE_METHODS[figure.id]}
                {figure.id === "rating" ? (
                  <>
                    {" "}
                    <a href="/avis" className="font-medium text-brand-800 underline underline-offset-2">
                      Avis vérifiés
                    </a>
                  </>
                ) : null}
              </span>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
