import { Link } from "react-router";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "../../components/ui/Accordion";
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

/** The FAQ of spec §2: one item open at a time, collapsible. Questions are h2 on /faq, h3 under a section. */
export function FaqAccordion({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  return (
    <Accordion type="single" collapsible className="border-t border-slate-200">
      {FAQ_ITEMS.map((item) => (
        <AccordionItem key={item.id} value={item.id}>
          <AccordionTrigger headingLevel={headingLevel}>{item.question}</AccordionTrigger>
          <AccordionContent>
            <Answer entry={item} />
          </AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}
