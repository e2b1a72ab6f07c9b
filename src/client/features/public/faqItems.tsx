import { ChevronDown } from "lucide-react";
import { Link } from "react-router";
import { FAQ, type FaqEntry, type FaqSegment } from "../../content/faq";

/** The FAQ's questions and answers are content (src/client/content/faq.ts). */
export const FAQ_ITEMS: readonly FaqEntry[] = FAQ;

const link = "font-medium text-brand-800 underline underline-offset-2";

function Segment({ segment, first }: { segment: FaqSegment; first: boolean }) {
  if (typeof segment === "string")
    return <>{first ? segment : ` ${segment}`.replace(/^ ([.,;:!?)])/, "$1")}</>;
  return (
    <>
      {first ? null : " "}
      <Link to={segment.to} className={link}>
        {segment.label}
      </Link>
    </>
  );
}

function Answer({ entry }: { entry: FaqEntry }) {
  return (
    <>
      {entry.answer.map((paragraph, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of fixed content, never reordered.
        <p key={index} className={index > 0 ? "mt-2" : undefined}>
          {paragraph.map((segment, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: segments of fixed content, never reordered.
            <Segment key={i} segment={segment} first={i === 0} />
          ))}
        </p>
      ))}
    </>
  );
}

/**
 * The FAQ: one item open at a time, collapsible. Native <details>/<summary> sharing a
 * `name` (an exclusive group), so a question opens on the first click, before any JavaScript has
 * run (ADR 027). Questions are h2 on /faq, h3 under a section.
 */
export function FaqAccordion({ headingLevel = 3, name = "faq" }: { headingLevel?: 2 | 3; name?: string }) {
  const Heading = `h${headingLevel}` as "h2" | "h3";
  return (
    <div className="border-t border-slate-200">
      {FAQ_ITEMS.map((item) => (
        <details key={item.id} name={name} className="group border-b border-slate-200">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-sm py-4 text-left text-slate-900 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&::-webkit-details-marker]:hidden">
            <Heading className="text-base font-medium">{item.question}</Heading>
            <ChevronDown
              className="size-5 shrink-0 text-slate-600 transition-transform group-open:rotate-180"
              aria-hidden="true"
            />
          </summary>
          <div className="pb-4 text-slate-700">
            <Answer entry={item} />
          </div>
        </details>
      ))}
    </div>
  );
}
