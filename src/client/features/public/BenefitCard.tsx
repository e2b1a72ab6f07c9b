import type { ComponentType } from "react";

/**
 * A benefit as a card: its icon in a tinted square, a heading, a sentence (the landing page's
 * « Ce que vous y gagnez », the dentists' benefits). `level` keeps the page's heading outline;
 * a content page styles its h2 itself, the landing page passes `headingClass` and `textClass`.
 */
export function BenefitCard({
  icon: Icon,
  title,
  text,
  level = "h3",
  headingClass = "",
  textClass = "",
}: {
  icon: ComponentType<{ className?: string; "aria-hidden"?: "true" }>;
  title: string;
  text: string;
  level?: "h2" | "h3";
  headingClass?: string;
  textClass?: string;
}) {
  const Heading = level;
  return (
    <li className="rounded-ui border border-slate-200 bg-white p-5 shadow-sm">
      <span className="flex size-11 items-center justify-center rounded-ui bg-brand-50 text-brand-700 ring-1 ring-brand-100">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <Heading className={`mt-4 ${headingClass}`.trim()}>{title}</Heading>
      <p className={`mt-1 ${textClass}`.trim()}>{text}</p>
    </li>
  );
}
