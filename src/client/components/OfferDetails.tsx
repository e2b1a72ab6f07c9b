import { BadgeCheck, CalendarClock } from "lucide-react";
import { type ReactNode, useId } from "react";
import { OFFER_STATE_LABELS, OFFER_STATE_TONES, type OfferState } from "../../shared/domain/offers";
import { formatAppointmentTime, formatDetailDate } from "../../shared/format/dates";
import { formatEuros } from "../../shared/format/money";
import { APPOINTMENT_MESSAGES } from "../../shared/schemas/appointments";
import type { OfferDto } from "../../shared/schemas/offers";
import { BasketBadge } from "./quote/BasketBadge";
import { Badge } from "./ui/Badge";

/*
 * The parts of an offer (ADR 008) that the dentist's proposal page and the patient's request page
 * show alike: its state, line items, proposed slots and validity.
 */

/** "Valable jusqu'au 1er décembre 2026" (a Paris calendar day 'YYYY-MM-DD'). */
export function validityText(validUntil: string): string {
  return `Valable jusqu'au ${formatDetailDate(`${validUntil}T12:00:00Z`)}`;
}

/** An offer's state as its French label on its colour. */
export function OfferStateBadge({ state, className }: { state: OfferState; className?: string }) {
  return (
    <Badge tone={OFFER_STATE_TONES[state] ?? "gray"} className={className}>
      {OFFER_STATE_LABELS[state] ?? state}
    </Badge>
  );
}

/** 'Vérifié': the team checked this dentist's RPPS number and diplomas. */
export function VerifiedBadge() {
  return (
    <Badge tone="green">
      <BadgeCheck aria-hidden="true" />
      Vérifié
    </Badge>
  );
}

/** A list under its small label (read by screen readers only when `hideLabel`), which names it. */
function LabelledList({
  label,
  hideLabel,
  className,
  children,
}: {
  label: string;
  hideLabel: boolean;
  className: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <p id={id} className={hideLabel ? "sr-only" : "text-sm font-medium text-slate-600"}>
        {label}
      </p>
      <ul className={className} aria-labelledby={id}>
        {children}
      </ul>
    </div>
  );
}

/**
 * The line items: act, tooth ('dent 36') and fee. With `showBasket` (the patient's screens, issue 15),
 * each line of the reference table also shows its code and its basket ('100 % Santé'…).
 */
export function OfferLines({
  lines,
  label = "Détail des actes",
  hideLabel = false,
  showBasket = false,
}: {
  lines: OfferDto["lines"];
  label?: string;
  /** Keep the label for screen readers only (where a heading already says it, as in a table row). */
  hideLabel?: boolean;
  showBasket?: boolean;
}) {
  if (lines.length === 0) return null;
  return (
    <LabelledList
      label={label}
      hideLabel={hideLabel}
      className="grid divide-y divide-slate-200 rounded-ui border border-slate-200"
    >
      {lines.map((line, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and never move.
          key={index}
          className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2"
        >
          <span className="min-w-0 text-slate-900">
            {showBasket && line.code ? <span className="text-slate-600">{line.code} · </span> : null}
            {line.act}
            {line.tooth !== null ? <span className="text-slate-600"> · dent {line.tooth}</span> : null}
            {showBasket && line.code ? (
              <>
                {" "}
                <BasketBadge basket={line.basket} className="align-middle text-xs" />
              </>
            ) : null}
          </span>
          <span className="font-medium text-slate-900 tabular-nums">{formatEuros(line.fee_cents)}</span>
        </li>
      ))}
    </LabelledList>
  );
}

/** The proposed appointment slots, in French and Paris time; those taken since are said so. */
export function OfferSlots({
  slots,
  label = "Créneaux proposés",
  hideLabel = false,
  taken = [],
  takenHint = APPOINTMENT_MESSAGES.takenHint,
}: {
  slots: string[];
  label?: string;
  /** Keep the label for screen readers only. */
  hideLabel?: boolean;
  /** Those of `slots` the dentist has since confirmed for another appointment (`taken_slots`). */
  taken?: readonly string[];
  /** What follows a taken slot: the patient's words by default, the dentist's on his own offer. */
  takenHint?: string;
}) {
  if (slots.length === 0) return null;
  return (
    <LabelledList label={label} hideLabel={hideLabel} className="grid gap-1.5">
      {slots.map((slot) => (
        <li key={slot} className="flex items-center gap-2 text-slate-900">
          <CalendarClock className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
          <span className={taken.includes(slot) ? "text-slate-600" : undefined}>
            {formatAppointmentTime(slot)}
            {taken.includes(slot) ? takenHint : null}
          </span>
        </li>
      ))}
    </LabelledList>
  );
}
