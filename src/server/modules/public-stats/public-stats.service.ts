import { formatRating } from "../../../shared/domain/reviews";
import { formatEuros } from "../../../shared/format/money";
import {
  type MeasuredFigures,
  PATIENTS_FIGURE_MINIMUM,
  type PublicStats,
} from "../../../shared/schemas/publicStats";

/** "16 h", "3 jours": a median delay in hours. */
function delayText(hours: number): string {
  if (hours < 1) return "moins d'1 h";
  if (hours < 48) return `${Math.round(hours)}\u00a0h`;
  return `${Math.round(hours / 24)} jours`;
}

/**
 * Each figure as the landing page writes it ("+ de 1 230", "17 h", "16 % (160,00 €)", "42", "4,5/5"),
 * null when it is not shown. Written here, with the server's Intl, so that the page makes no formatter
 * of its own (ADR 071).
 */
export function publicStatsWithText(figures: MeasuredFigures): PublicStats {
  const { patients, first_offer_hours, saving, verified_dentists, rating } = figures;
  return {
    ...figures,
    text: {
      patients: patients >= PATIENTS_FIGURE_MINIMUM ? `+ de ${patients.toLocaleString("fr-FR")}` : null,
      first_offer_hours: first_offer_hours ? delayText(first_offer_hours.median) : null,
      saving: saving ? `${saving.median_percent}\u00a0% (${formatEuros(saving.median_cents)})` : null,
      verified_dentists: verified_dentists > 0 ? verified_dentists.toLocaleString("fr-FR") : null,
      rating: rating ? `${formatRating(rating.average)}/5` : null,
    },
  };
}
