import { Info, Star } from "lucide-react";
import { Link } from "react-router";
import { formatRating, REVIEWS_POLICY_PATH, reviewsCountLabel } from "../../../shared/domain/reviews";
import type { RatingSummary } from "../../../shared/schemas/reviews";
import { cn } from "../../lib/cn";

/** Five stars for a mark (filled up to the mark), with the mark said in words to screen readers. */
export function Stars({ value, className }: { value: number; className?: string }) {
  const label = `${formatRating(value)} sur 5`;
  return (
    <span role="img" aria-label={label} className={cn("inline-flex items-center gap-0.5", className)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn(
            "size-4",
            n <= Math.round(value) ? "fill-amber-500 text-amber-600" : "text-slate-400",
          )}
        />
      ))}
    </span>
  );
}

/** The link to the page that says how reviews are collected and checked (French consumer code). */
export function ReviewsPolicyLink({ className }: { className?: string }) {
  return (
    <Link
      to={REVIEWS_POLICY_PATH}
      className={cn(
        "inline-flex items-center gap-1 text-sm text-brand-800 underline underline-offset-2",
        className,
      )}
    >
      <Info className="size-3.5" aria-hidden="true" />
      Avis vérifiés
    </Link>
  );
}

/**
 * A dentist's rating as patients see it next to an offer: the average and the count, a link to the
 * reviews (`reviewsPath`, when given) and the link to /avis beside it, always. No rating (null: a
 * dentist not verified, whose reviews patients cannot open): nothing at all, neither a figure nor a
 * link.
 */
export function DentistRating({
  rating,
  reviewsPath,
  className,
}: {
  rating: RatingSummary | null;
  reviewsPath?: string;
  className?: string;
}) {
  if (rating === null) return null;
  const figure =
    rating.average === null || rating.count === 0 ? (
      <span className="text-sm text-slate-600">Pas encore d'avis</span>
    ) : (
      <span className="inline-flex items-center gap-1.5 text-sm text-slate-800">
        <Star aria-hidden="true" className="size-4 fill-amber-500 text-amber-600" />
        <span className="font-semibold tabular-nums">{formatRating(rating.average)}/5</span>
        {reviewsPath ? (
          <Link to={reviewsPath} className="text-brand-800 underline underline-offset-2">
            {reviewsCountLabel(rating.count)}
          </Link>
        ) : (
          <span>{reviewsCountLabel(rating.count)}</span>
        )}
      </span>
    );
  return (
    <div className={cn("flex flex-wrap items-center gap-x-3 gap-y-1", className)}>
      {figure}
      <ReviewsPolicyLink />
    </div>
  );
}
