/**
 * "À vérifier", in words (never colour alone), for a figure read from a devis with doubt: in an
 * input's label in the lines editor, and beside a compared or corrected figure on the reading review.
 */
export function ToCheckBadge() {
  return (
    <span className="ml-1 inline-block rounded-sm bg-amber-100 px-1.5 text-xs font-semibold text-amber-950 ring-1 ring-amber-700 ring-inset">
      À vérifier
    </span>
  );
}
