import type { ReactNode } from "react";
import { REVIEW_ASPECT_LABELS, REVIEW_ASPECTS } from "../../../shared/domain/reviews";
import { formatDetailDate } from "../../../shared/format/dates";
import { drName, ofName } from "../../../shared/format/names";
import type { PublicReview } from "../../../shared/schemas/reviews";
import { Stars } from "./Rating";

/**
 * One review as it is published: its mark, its author ("Marie D., patiente vérifiée"), the month of
 * the appointment and the date of publication, the detailed marks given, the text, and the dentist's
 * answer. `footer` holds what the reader may do (answer, report, edit).
 */
export function ReviewItem({
  review,
  dentistName,
  footer,
  publishedLabel = true,
}: {
  review: Omit<PublicReview, "published_at"> & { published_at: string | null };
  dentistName: string;
  footer?: ReactNode;
  publishedLabel?: boolean;
}) {
  const aspects = REVIEW_ASPECTS.filter((aspect) => review[aspect] !== null);
  return (
    <article
      className="grid gap-3 rounded-ui border border-slate-200 bg-white p-4"
      aria-label={`Avis ${ofName(review.author)}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Stars value={review.rating} />
        {publishedLabel && review.published_at ? (
          <p className="text-sm text-slate-600">Publié le {formatDetailDate(review.published_at)}</p>
        ) : null}
      </div>
      <p className="text-sm text-slate-700">
        <span className="font-medium text-slate-900">{review.author}</span> · {review.appointment_month}
      </p>
      {aspects.length > 0 ? (
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
          {aspects.map((aspect) => (
            <div key={aspect} className="flex gap-1">
              <dt>{REVIEW_ASPECT_LABELS[aspect]} :</dt>
              <dd className="font-medium tabular-nums">{review[aspect]}/5</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="whitespace-pre-line wrap-anywhere text-slate-800">{review.text}</p>
      {review.answer ? (
        <div className="grid gap-1 rounded-ui border-l-4 border-brand-600 bg-brand-50 p-3">
          <p className="text-sm font-semibold text-slate-900">Réponse {ofName(drName(dentistName))}</p>
          <p className="whitespace-pre-line wrap-anywhere text-sm text-slate-800">{review.answer}</p>
        </div>
      ) : null}
      {footer}
    </article>
  );
}
