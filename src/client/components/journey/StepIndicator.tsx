import { Check, CircleX } from "lucide-react";
import { JOURNEY_STEP_NAMES, JOURNEY_STEPS, type JourneyState } from "../../../shared/domain/journey";
import { cn } from "../../lib/cn";

/*
 * The patient's journey on one request (issue 16, ADR 016) as an ordered list of steps: the steps
 * done, the current one (aria-current="step"), those to come. On a phone only the current step's
 * name is shown beside the dots ("Étape 3 sur 6"); every name stays in the list for screen readers.
 */

export function StepIndicator({ state, className }: { state: JourneyState; className?: string }) {
  if (state === "cancelled")
    return (
      <p className={cn("flex items-center gap-2 font-medium text-slate-700", className)}>
        <CircleX className="size-5 text-slate-500" aria-hidden="true" />
        Demande annulée
      </p>
    );
  const current = JOURNEY_STEPS.indexOf(state);
  // 'Terminée' is the last step: once there, every step is done.
  const done = (index: number) => index < current || state === "done";
  return (
    <nav aria-label="Étapes de votre demande" className={cn("grid gap-2", className)}>
      <p className="text-sm text-slate-600 sm:sr-only">
        Étape {current + 1} sur {JOURNEY_STEPS.length}
        {"\u202f"}: <span className="font-medium text-slate-900">{JOURNEY_STEP_NAMES[state]}</span>
      </p>
      <ol className="flex w-full items-start gap-1 sm:gap-2">
        {JOURNEY_STEPS.map((step, index) => {
          const isCurrent = index === current && state !== "done";
          const isDone = done(index);
          return (
            <li
              key={step}
              aria-current={isCurrent ? "step" : undefined}
              className="flex min-w-0 flex-1 flex-col items-center gap-1.5 text-center"
            >
              <span
                className={cn(
                  "flex size-7 shrink-0 items-center justify-center rounded-full border-2 text-xs font-semibold tabular-nums",
                  isDone && "border-green-700 bg-green-700 text-white",
                  isCurrent && "border-brand-700 bg-brand-700 text-white",
                  !isDone && !isCurrent && "border-slate-300 bg-white text-slate-600",
                )}
                aria-hidden="true"
              >
                {isDone ? <Check className="size-4" /> : index + 1}
              </span>
              <span
                className={cn(
                  "sr-only text-xs leading-tight sm:not-sr-only",
                  isCurrent ? "font-semibold text-slate-900" : "text-slate-600",
                )}
              >
                {JOURNEY_STEP_NAMES[step]}
                <span className="sr-only">
                  {isDone ? " (terminée)" : isCurrent ? " (étape actuelle)" : " (à venir)"}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
