import { ChevronLeft, ChevronRight, Star } from "lucide-react";
import { useState } from "react";
import type { Testimonial } from "../../content/landing";
import { cn } from "../../lib/cn";

// The testimonials themselves are content (src/client/content/landing.ts).
export type { Testimonial } from "../../content/landing";
export { TESTIMONIALS } from "../../content/landing";

export function Stars({ rating, max = 5 }: { rating: number; max?: number }) {
  return (
    <span role="img" aria-label={`Note : ${rating} sur ${max}`} className="flex gap-0.5">
      {Array.from({ length: max }, (_, index) => (
        <Star
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed list of identical icons.
          key={index}
          aria-hidden="true"
          className={cn("size-5", index < rating ? "fill-amber-500 text-amber-600" : "text-slate-400")}
        />
      ))}
    </span>
  );
}

const navButton =
  "inline-flex size-11 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700";

/**
 * Testimonials carousel (spec §4): `perPage` per page; previous and next move one page and wrap;
 * the numbered buttons jump to a page. No autoplay. ARIA carousel pattern: a region with
 * aria-roledescription "carrousel", the page shown as a group "diapositive" labelled "x sur y",
 * announced politely when it changes.
 */
export function TestimonialsCarousel({
  testimonials,
  perPage = 2,
  label = "Témoignages",
  illustrative = false,
}: {
  testimonials: readonly Testimonial[];
  perPage?: number;
  label?: string;
  /** Invented testimonials: each caption says "exemple". */
  illustrative?: boolean;
}) {
  const pageCount = Math.max(1, Math.ceil(testimonials.length / perPage));
  const [page, setPage] = useState(0);
  const go = (target: number) => setPage(((target % pageCount) + pageCount) % pageCount);
  const shown = testimonials.slice(page * perPage, page * perPage + perPage);

  return (
    <section aria-roledescription="carrousel" aria-label={label} className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-2">
          <button
            type="button"
            className={navButton}
            onClick={() => go(page - 1)}
            aria-label="Page précédente"
          >
            <ChevronLeft className="size-5" aria-hidden="true" />
          </button>
          <button type="button" className={navButton} onClick={() => go(page + 1)} aria-label="Page suivante">
            <ChevronRight className="size-5" aria-hidden="true" />
          </button>
        </div>
        <div className="flex items-center gap-2">
          {Array.from({ length: pageCount }, (_, index) => (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: pages are numbered by their index.
              key={index}
              type="button"
              onClick={() => go(index)}
              aria-label={`Page ${index + 1}`}
              aria-current={index === page ? "true" : undefined}
              className={cn(
                "inline-flex size-11 items-center justify-center rounded-full text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
                index === page
                  ? "bg-brand-700 text-white"
                  : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
              )}
            >
              {index + 1}
            </button>
          ))}
        </div>
      </div>
      <div aria-live="polite">
        {/* biome-ignore lint/a11y/useSemanticElements: the ARIA carousel pattern's slide is a role=group, not a form fieldset. */}
        <div
          role="group"
          aria-roledescription="diapositive"
          aria-label={`${page + 1} sur ${pageCount}`}
          className="grid gap-5 md:grid-cols-2"
        >
          {shown.map((item) => (
            <figure
              key={item.id}
              className="flex flex-col rounded-ui border border-slate-200 bg-white p-6 shadow-sm"
            >
              <Stars rating={item.rating} />
              <blockquote className="mt-4 flex-1 text-slate-800">
                <p>« {item.content} »</p>
              </blockquote>
              <figcaption className="mt-5 text-sm">
                <span className="font-semibold text-slate-900">{item.author}</span>
                <span className="text-slate-600">
                  {" "}
                  · {item.role}
                  {illustrative ? " (exemple)" : null}
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </section>
  );
}
