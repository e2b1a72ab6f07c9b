import { ArrowRight } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { JourneyDto } from "../../../shared/schemas/requests";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { StepIndicator } from "./StepIndicator";

/**
 * The top of the patient's request page (issue 16): where the request stands, what happens now, and
 * the next action as the primary button right under the steps.
 */
export function JourneyCard({ journey, children }: { journey: JourneyDto; children?: ReactNode }) {
  return (
    <Card className="mb-6 grid gap-4 p-4 sm:p-5">
      <StepIndicator state={journey.state} />
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold text-slate-900">{journey.label}</h2>
        <p className="text-slate-700">{journey.hint}</p>
      </div>
      {journey.next || children ? (
        <div className="flex flex-wrap items-center gap-3">
          {journey.next ? <NextAction next={journey.next} /> : null}
          {children}
        </div>
      ) : null}
    </Card>
  );
}

/** The next action as a primary button (a link to where it is done). */
export function NextAction({
  next,
  size = "md",
  label,
}: {
  next: NonNullable<JourneyDto["next"]>;
  size?: "sm" | "md";
  /** An accessible name when the button's text alone is not enough (lists). */
  label?: string;
}) {
  return (
    <Button asChild size={size} className="h-auto! min-h-9 py-1.5 whitespace-normal!">
      <Link to={next.path} aria-label={label}>
        {next.label}
        <ArrowRight aria-hidden="true" />
      </Link>
    </Button>
  );
}
