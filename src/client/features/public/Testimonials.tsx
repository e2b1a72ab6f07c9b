import { ChevronLeft, ChevronRight, Star } from "lucide-react";
import { Fragment, type ReactNode, useEffect, useRef, useState } from "react";
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

/** Previous, next and the page numbers: links to the pages' anchors before hydration, buttons after. */
function Controls({
  pageCount,
  page,
  anchor,
  go,
}: {
  pageCount: number;
  page: number;
  anchor: (index: number) => string;
  /** Absent before hydration: the controls are then links. */
  go?: (target: number) => void;
}) {
  const wrap = (target: number) => ((target % pageCount) + pageCount) % pageCount;
  const control = (target: number, label: string, className: string, children: ReactNode, current = false) =>
    go ? (
      <button
        type="button"
        className={className}
        onClick={() => go(target)}
        aria-label={label}
        aria-current={current ? "true" : undefined}
      >
        {children}
      </button>
    ) : (
      <a href={`#${anchor(wrap(target))}`} className={className} aria-label={label}>
        {children}
      </a>
    );
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <div className="flex items-center gap-2">
        {control(
          page - 1,
          "Page précédente",
          navButton,
          <ChevronLeft className="size-5" aria-hidden="true" />,
        )}
        {control(
          page + 1,
          "Page suivante",
          navButton,
          <ChevronRight className="size-5" aria-hidden="true" />,
        )}
      </div>
      <div className="flex items-center gap-2">
        {Array.from({ length: pageCount }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: pages are numbered by their index.
          <Fragment key={index}>
            {control(
              index,
              `Page ${index + 1}`,
              cn(
                pageLink,
                go && index === page
                  ? "bg-brand-700 text-white"
                  : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
              ),
              index + 1,
              Boolean(go) && index === page,
            )}
          </Fragment>
        ))}
      </div>
    </div>
  );
}

/**
 * Testimonials carousel: `perPage` per page; previous and next move one page and wrap; the
 * numbered buttons jump to a page. No autoplay. ARIA carousel pattern: a region with
 * aria-roledescription "carrousel", the page shown as a group "diapositive" labelled "x sur y",
 * announced politely when it changes.
 *
 * It works before its JavaScript has run (ADR 027): the first render (the pre-rendered HTML) lays
 * every page side by side in a horizontal scroll-snap strip, and previous, next and the page
 * numbers are links to the pages' anchors, which scroll the strip. Once hydrated it switches to
 * buttons showing one page at a time, starting at the page the strip was scrolled to. The switch
 * moves nothing on the page (Lighthouse counted a layout shift of 0.57 on `/`): the strip's element
 * stays, with the height it had, and only the pages not shown leave it.
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
  // The strip's height before hydration, kept after: showing one page must not move what follows.
  const [height, setHeight] = useState<number>();
  const strip = useRef<HTMLDivElement>(null);
  const anchor = (index: number) => `${idPrefix}-page-${index + 1}`;
  const wrap = (target: number) => ((target % pageCount) + pageCount) % pageCount;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the carousel is hydrated.
  useEffect(() => {
    const element = strip.current;
    // Keep the page the visitor scrolled to (or jumped to with a link) before hydration.
    if (element && element.clientWidth > 0) {
      setPage(wrap(Math.round(element.scrollLeft / element.clientWidth)));
      setHeight(element.offsetHeight);
    }
    setEnhanced(true);
  }, []);

  const shown = enhanced ? [page] : pages.map((_, index) => index);
  return (
    <section aria-roledescription="carrousel" aria-label={label} className="grid gap-6">
      <Controls
        pageCount={pageCount}
        page={page}
        anchor={anchor}
        go={enhanced ? (target) => setPage(wrap(target)) : undefined}
      />
      {/* The same element before and after hydration (a new box would count as a layout shift). */}
      {/* Before hydration (or without JavaScript) every page is in the strip, which scrolls sideways:
          focusable, so that the keyboard scrolls it too. */}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label goes with role "group", both set before hydration only. */}
      <div
        ref={strip}
        aria-live={enhanced ? "polite" : undefined}
        role={enhanced ? undefined : "group"}
        aria-label={enhanced ? undefined : `${label} : toutes les pages`}
        tabIndex={enhanced ? undefined : 0}
        style={height ? { minHeight: height } : undefined}
        className="flex snap-x snap-mandatory overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        {shown.map((index) => (
          <Slide
            key={index}
            id={anchor(index)}
            items={pages[index] ?? []}
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

/** The landing page's carousel (an island on the pre-rendered page, ADR 027). */
export function LandingTestimonials() {
  return (
    <TestimonialsCarousel testimonials={TESTIMONIALS} illustrative={TESTIMONIALS_SECTION.illustrative} />
  );
}
