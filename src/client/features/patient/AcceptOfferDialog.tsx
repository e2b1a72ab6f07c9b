import { CheckCircle2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { formatEuros } from "../../../shared/format/money";
import type { offerAcceptBlocker } from "../../../shared/policies/appointments";
import { OFFER_MESSAGES, type PatientOffer } from "../../../shared/schemas/offers";
import { Button, type ButtonSize } from "../../components/ui/Button";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { isApiError } from "../../lib/api";
import { useAcceptOffer } from "./api";

/*
 * 'Accepter cette proposition' (D14), the same on the request page and the comparison: a
 * confirmation first (Radix traps the focus, Escape closes), then the POST, then a toast.
 */

/** Why an offer cannot be accepted, in the patient's words (null when it can). */
export function acceptBlockerText(blocker: ReturnType<typeof offerAcceptBlocker>): string | null {
  switch (blocker) {
    case "cancelled":
      return "Demande annulée";
    case "withdrawn":
      return "Retirée par le dentiste";
    case "expired":
      return "Proposition expirée";
    case "already_decided":
      return "Une autre proposition a été acceptée";
    default:
      return null;
  }
}

/** The sentence on what accepting does: the others closed, the dentist told, then the appointment. */
export function acceptConsequences(offer: PatientOffer, othersToClose: number): string {
  const name = `Dr ${offer.dentist.full_name}`;
  const others =
    othersToClose === 0
      ? ""
      : othersToClose === 1
        ? "L'autre proposition reçue pour cette demande sera clôturée. "
        : `Les ${othersToClose} autres propositions reçues pour cette demande seront clôturées. `;
  return (
    `Vous choisissez le ${name} pour ${formatEuros(offer.amount_cents)}. ${others}` +
    "Un e-mail lui sera envoyé pour l'en informer, puis vous pourrez choisir votre rendez-vous. " +
    "Ce choix est définitif."
  );
}

interface AcceptOfferButtonProps {
  requestId: string;
  offer: PatientOffer;
  /** How many other offers of the request are still open (closed by the acceptance). */
  othersToClose: number;
  size?: ButtonSize;
  className?: string;
  /** After the server accepted the offer (the toast is already shown). */
  onAccepted?: () => void;
}

/** The button and its confirmation; only render it when `offerAcceptBlocker(...)` is null. */
export function AcceptOfferButton({
  requestId,
  offer,
  othersToClose,
  size = "md",
  className,
  onAccepted,
}: AcceptOfferButtonProps) {
  const [open, setOpen] = useState(false);
  const accept = useAcceptOffer(requestId);
  const name = `Dr ${offer.dentist.full_name}`;

  const onConfirm = () =>
    accept.mutate(offer.id, {
      onSuccess: () => {
        setOpen(false);
        toast.success(OFFER_MESSAGES.accepted);
        onAccepted?.();
      },
      onError: (error) => {
        setOpen(false);
        toast.error(OFFER_MESSAGES.acceptFailed, {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
      },
    });

  return (
    <>
      <Button
        size={size}
        className={className}
        aria-label={`Accepter cette proposition (${name})`}
        onClick={() => setOpen(true)}
      >
        <CheckCircle2 aria-hidden="true" />
        Accepter cette proposition
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!accept.isPending) setOpen(next);
        }}
        title={`Accepter la proposition du ${name} ?`}
        description={acceptConsequences(offer, othersToClose)}
        confirmLabel="Accepter la proposition"
        cancelLabel="Annuler"
        loading={accept.isPending}
        onConfirm={onConfirm}
      />
    </>
  );
}
