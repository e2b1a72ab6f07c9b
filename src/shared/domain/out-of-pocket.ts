/**
 * What a patient pays in the end for a dental quote (issue 15): per line and per quote, the fee, the
 * reimbursement base (BR), the Assurance Maladie's part (AMO), the mutuelle's part and the reste à
 * charge. One pure function, used alike by the server and the screens. Amounts in cents.
 *
 * Rules (sources: Code de la sécurité sociale art. R160-5 and the dentists' national agreement, avenant 3
 * of 2019; the AMO rate for dental care is 60 % of the BR since 15 October 2023):
 * - AMO = 60 % of the BR (rounded to the cent); an act outside the nomenclature (an implant) has BR 0.
 * - Mutuelle, "RO inclus": it tops the reimbursement up to `percentOfBr` % of the BR, AMO included;
 *   otherwise it pays `percentOfBr` % of the BR on top of the AMO.
 * - A "100 % Santé" line with a contrat responsable costs nothing up to its ceiling: the mutuelle pays
 *   the rest of the ceiling whatever its percentage (only a fee above the ceiling is left to pay). These
 *   lines do not use the contract's annual ceiling (the 100 % Santé cover is owed in full).
 * - An implant (an act without BR) is paid from the contract's yearly implant allowance, if any; another
 *   act without BR (a free line) gets nothing from the mutuelle.
 * - The annual ceiling for prosthetics applies to the other lines, in the order of the quote.
 * - The mutuelle never pays more than what is left after the AMO.
 */

export const AMO_RATE = 0.6;

export const BASKETS = ["100_sante", "maitrise", "libre"] as const;
export type Basket = (typeof BASKETS)[number];

export interface QuoteLineAmounts {
  /** Fee of the line ("honoraires dont prix du dispositif médical"). */
  feeCents: number;
  /** Reimbursement base; 0 for an act the Assurance Maladie does not cover. */
  brCents: number;
  basket: Basket;
  /** The "honoraire limite de facturation" of 100 % Santé and maîtrisé lines; null for libre. */
  ceilingCents: number | null;
  /** An implant: without BR, the mutuelle's implant allowance pays it. */
  implant?: boolean;
}

/** The patient's mutuelle, as entered in 'Ma mutuelle'; null when unknown (AMO only). */
export interface MutuelleCover {
  /** Cover of dental prosthetics as a percentage of the BR (100 to 500). */
  percentOfBr: number;
  /** True when that percentage includes the Assurance Maladie's part ("RO inclus"). */
  roIncluded: boolean;
  /** Yearly ceiling of the mutuelle's prosthetic payments, if any. */
  annualCeilingCents: number | null;
  /** Yearly allowance for implants (acts without BR), if any. */
  implantAllowanceCents: number | null;
  /** A "contrat responsable" (most are): 100 % Santé lines are then free within their ceiling. */
  responsible: boolean;
}

export interface LineEstimate {
  feeCents: number;
  brCents: number;
  amoCents: number;
  mutuelleCents: number;
  restCents: number;
  /** The fee is above the line's ceiling (flagged on a patient's own quote; refused on an offer). */
  aboveCeiling: boolean;
}

export interface QuoteEstimate {
  lines: LineEstimate[];
  total: Omit<LineEstimate, "aboveCeiling">;
  /** False without a mutuelle: the estimate then counts the Assurance Maladie only. */
  withMutuelle: boolean;
}

const cents = (value: number) => Math.round(value);

/** The estimate of a whole quote, lines in their order (the annual ceiling is used up in that order). */
export function estimateQuote(
  lines: readonly QuoteLineAmounts[],
  cover: MutuelleCover | null,
): QuoteEstimate {
  let ceilingLeft = cover?.annualCeilingCents ?? Number.POSITIVE_INFINITY;
  let implantLeft = cover?.implantAllowanceCents ?? 0;
  const estimates = lines.map((line): LineEstimate => {
    const fee = Math.max(0, line.feeCents);
    const br = Math.max(0, line.brCents);
    const amo = Math.min(fee, cents(br * AMO_RATE));
    const left = fee - amo;
    const aboveCeiling = line.ceilingCents !== null && fee > line.ceilingCents;
    let mutuelle = 0;
    if (cover) {
      if (line.basket === "100_sante" && cover.responsible && line.ceilingCents !== null) {
        mutuelle = Math.max(0, Math.min(fee, line.ceilingCents) - amo);
      } else if (br === 0) {
        mutuelle = line.implant ? Math.min(left, implantLeft) : 0;
        implantLeft -= mutuelle;
      } else {
        const promised = cents((br * cover.percentOfBr) / 100) - (cover.roIncluded ? amo : 0);
        mutuelle = Math.min(left, Math.max(0, promised), ceilingLeft);
        ceilingLeft -= mutuelle;
      }
    }
    return {
      feeCents: fee,
      brCents: br,
      amoCents: amo,
      mutuelleCents: mutuelle,
      restCents: left - mutuelle,
      aboveCeiling,
    };
  });
  const sum = (pick: (e: LineEstimate) => number) => estimates.reduce((total, e) => total + pick(e), 0);
  return {
    lines: estimates,
    total: {
      feeCents: sum((e) => e.feeCents),
      brCents: sum((e) => e.brCents),
      amoCents: sum((e) => e.amoCents),
      mutuelleCents: sum((e) => e.mutuelleCents),
      restCents: sum((e) => e.restCents),
    },
    withMutuelle: cover !== null,
  };
}
