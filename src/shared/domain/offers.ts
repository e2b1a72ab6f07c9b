import { labelled } from "./labels";
import type { StatusTone } from "./requests";

/** An offer's state as people see it (ADR 008); 'expired' is derived from the validity date. */
export const { values: OFFER_STATES, labels: OFFER_STATE_LABELS } = labelled({
  sent: "Envoyée",
  accepted: "Acceptée",
  closed: "Clôturée",
  expired: "Expirée",
  withdrawn: "Retirée",
});
export type OfferState = (typeof OFFER_STATES)[number];

export const OFFER_STATE_TONES: Record<OfferState, StatusTone> = {
  sent: "blue",
  accepted: "green",
  closed: "gray",
  expired: "gray",
  withdrawn: "gray",
};

/** Limits of an offer. */
export const OFFER_LIMITS = {
  maxAmountCents: 100_000_00,
  maxLines: 20,
  maxSlots: 3,
  commentMax: 2000,
  actMax: 120,
  /** Slots and validity dates at most this many days ahead. */
  horizonDays: 365,
} as const;

/**
 * FDI (ISO 3950) tooth numbers of the permanent teeth: quadrant 1–4 then tooth 1–8
 * (11–18, 21–28, 31–38, 41–48).
 */
export function isFdiTooth(value: number): boolean {
  const quadrant = Math.floor(value / 10);
  const tooth = value % 10;
  return Number.isInteger(value) && quadrant >= 1 && quadrant <= 4 && tooth >= 1 && tooth <= 8;
}
