import { BASKET_LABELS } from "../../../shared/domain/acts";
import type { Basket } from "../../../shared/domain/out-of-pocket";
import { Badge, type BadgeTone } from "../ui/Badge";

const TONES: Record<Basket, BadgeTone> = { "100_sante": "green", maitrise: "blue", libre: "gray" };

/** The basket of an act ("100 % Santé", "Tarifs maîtrisés", "Tarifs libres"), its label always written. */
export function BasketBadge({ basket, className }: { basket: Basket; className?: string }) {
  return (
    <Badge tone={TONES[basket]} className={className ?? "text-xs"}>
      {BASKET_LABELS[basket]}
    </Badge>
  );
}
