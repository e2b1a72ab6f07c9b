import { Link } from "react-router";
import { formatDetailDate } from "../../../shared/format/dates";
import { cn } from "../../lib/cn";
import { useSubscription } from "./api";

export const SUBSCRIPTION_PATH = "/dentist/subscription";

/**
 * The dentist area's banner (issue 35): the last 7 days of the trial, a payment past due, access
 * limited; each with its one action, to the Abonnement page. Nothing otherwise.
 */
export function SubscriptionBanner() {
  const { data } = useSubscription();
  const subscription = data?.subscription;
  if (!subscription) return null;
  const until = subscription.changes_at ? formatDetailDate(subscription.changes_at) : "";
  const banner =
    subscription.phase === "trial_ending"
      ? { text: `Votre essai gratuit se termine le ${until}.`, action: "Choisir ma formule", urgent: false }
      : subscription.phase === "past_due"
        ? {
            text: `Le paiement de votre abonnement a échoué. Votre accès reste complet jusqu'au ${until}.`,
            action: "Gérer mon moyen de paiement",
            urgent: true,
          }
        : subscription.phase === "limited"
          ? {
              text: "Votre abonnement n'est plus actif : vous gardez vos conversations, vos patients et vos rendez-vous, mais vous ne recevez plus de nouvelles demandes.",
              action: "Réactiver mon abonnement",
              urgent: true,
            }
          : null;
  if (!banner) return null;
  return (
    <section
      aria-label="Abonnement"
      className={cn(
        "border-b px-4 py-3 text-sm sm:px-6",
        banner.urgent
          ? "border-red-300 bg-red-50 text-red-900"
          : "border-amber-300 bg-amber-50 text-amber-950",
      )}
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p>{banner.text}</p>
        <Link
          to={SUBSCRIPTION_PATH}
          className="shrink-0 font-semibold underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          {banner.action}
        </Link>
      </div>
    </section>
  );
}
