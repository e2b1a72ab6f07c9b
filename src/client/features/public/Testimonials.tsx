import { ChevronLeft, ChevronRight, Star } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { TESTIMONIALS, TESTIMONIALS_SECTION, type Testimonial } from "../../content/landing";
import { cn } from "../../lib/cn";

// The testimonials themselves are content (src/client/content/landing.ts).
export type { Testimonial } from "../../content/landing";
export { TESTIMONIALS };

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

const pageLink =
  "inline-flex size-11 items-center justify-center rounded-full text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700";

function Slide({
  items,
  index,
  pageCount,
  illustrative,
  id,
  className,
}: {
  items: readonly Testimonial[];
  index: number;
  pageCount: number;
  illustrative: boolean;
  id?: string;
  className?: string;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the ARIA carousel pattern's slide is a role=group, not a form fieldset.
    <div
      id={id}
      role="group"
      aria-roledescription="diapositive"
      aria-label={`${index + 1} sur ${pageCount}`}
      className={cn("grid gap-5 md:grid-cols-2", className)}
    >
      {items.map((item) => (
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
  );
}

/**
 * Testimonials carousel (spec §4): `perPage` per page; previous and next move one page and wrap;
 * the numbered buttons jump to a page. No autoplay. ARIA carousel pattern: a region with
 * aria-roledescription "carrousel", the page shown as a group "diapositive" labelled "x sur y",
 * announced politely when it changes.
 *
 * It works before its JavaScript has run (ADR 027): the first render (the pre-rendered HTML) lays
 * every page side by side in a horizontal scroll-snap strip, and previous, next and the page
 * numbers are links to the pages' anchors, which scroll the strip. Once hydrated it switches to
 * buttons showing one page at a time, starting at the page the strip was scrolled to.
 */
export function TestimonialsCarousel({
  testimonials,
  perPage = 2,
  label = "Témoignages",
  illustrative = false,
  idPrefix = "temoignages",
}: {
  testimonials: readonly Testimonial[];
  perPage?: number;
  label?: string;
  /** Invented testimonials: each caption says "exemple". */
  illustrative?: boolean;
  /** Prefix of the pages' anchors ("temoignages-page-2") in the version without JavaScript. */
  idPrefix?: string;
}) {
  const pageCount = Math.max(1, Math.ceil(testimonials.length / perPage));
  const pages = Array.from({ length: pageCount }, (_, index) =>
    testimonials.slice(index * perPage, index * perPage + perPage),
  );
  const [page, setPage] = useState(0);
  const [enhanced, setEnhanced] = useState(false);
  const strip = useRef<HTMLDivElement>(null);
  const anchor = (index: number) => `${idPrefix}-page-${index + 1}`;
  const wrap = (target: number) => ((target % pageCount) + pageCount) % pageCount;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the carousel is hydrated.
  useEffect(() => {
    const element = strip.current;
    // Keep the page the visitor scrolled to (or jumped to with a link) before hydration.
    if (element && element.clientWidth > 0)
      setPage(wrap(Math.round(element.scrollLeft / element.clientWidth)));
    setEnhanced(true);
  }, []);

  const go = (target: number) => setPage(wrap(target));

  if (!enhanced) {
    // Without JavaScript: links to the pages' anchors; 'previous' and 'next' are those of page 1.
    return (
      <section aria-roledescription="carrousel" aria-label={label} className="grid gap-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex items-center gap-2">
            <a href={`#${anchor(wrap(-1))}`} className={navButton} aria-label="Page précédente">
              <ChevronLeft className="size-5" aria-hidden="true" />
            </a>
            <a href={`#${anchor(wrap(1))}`} className={navButton} aria-label="Page suivante">
              <ChevronRight className="size-5" aria-hidden="true" />
            </a>
          </div>
          <div className="flex items-center gap-2">
            {pages.map((_, index) => (
              <a
                // biome-ignore lint/suspicious/noArrayIndexKey: pages are numbered by their index.
                key={index}
                href={`#${anchor(index)}`}
                aria-label={`Page ${index + 1}`}
                className={cn(pageLink, "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50")}
              >
                {index + 1}
              </a>
            ))}
          </div>
        </div>
        <div ref={strip} className="flex snap-x snap-mandatory overflow-x-auto">
          {pages.map((items, index) => (
            <Slide
              // biome-ignore lint/suspicious/noArrayIndexKey: pages are numbered by their index.
              key={index}
              id={anchor(index)}
              items={items}
              index={index}
              pageCount={pageCount}
              illustrative={illustrative}
              className="w-full shrink-0 snap-start scroll-mt-24"
            />
          ))}
        </div>
      </section>
    );
  }

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
          {pages.map((_, index) => (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: pages are numbered by their index.
              key={index}
              type="button"
              onClick={() => go(index)}
              aria-label={`Page ${index + 1}`}
              aria-current={index === page ? "true" : undefined}
              className={cn(
                pageLink,
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
        <Slide items={pages[page] ?? []} index={page} pageCount={pageCount} illustrative={illustrative} />
      </div>
    </section>
  );
}

/** The landing page's carousel (an island on the pre-rendered page, ADR 027). */
export function LandingTestimonials() {
  return (
    <TestimonialsCarousel testimonials={TESTIMONIALS} illustrative={TESTIMONIALS_SECTION.illustrative} />
  );
}
