import { toast } from "sonner";
import { formatEuros } from "../../../shared/format/money";
import { OFFER_MESSAGES } from "../../../shared/schemas/offers";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { isApiError } from "../../lib/api";
import { useWithdrawOffer } from "./offersApi";

interface WithdrawTarget {
  id: string;
  request_id: string;
  amount_cents: number;
  patient_name?: string;
  /** 'expired': past its last valid day, the patient could no longer accept it (nothing to tell her). */
  state?: string;
}

/**
 * 'Retirer cette proposition ?': the patient will no longer see it, and is told when she could still
 * accept it (the server's message and e-mail). Shared by 'Mes propositions' and the proposal page;
 * open while `offer` is set.
 */
export function WithdrawOfferDialog({
  offer,
  onClose,
  onWithdrawn,
}: {
  offer: WithdrawTarget | null;
  onClose: () => void;
  onWithdrawn?: () => void;
}) {
  const withdraw = useWithdrawOffer();

  const onConfirm = () => {
    if (!offer) return;
    withdraw.mutate(offer, {
      onSuccess: () => {
        onClose();
        toast.success(OFFER_MESSAGES.withdrawnDone, {
          description:
            "Le patient ne la voit plus. Vous pouvez en envoyer une nouvelle tant que sa demande est ouverte.",
        });
        onWithdrawn?.();
      },
      onError: (error) => {
        onClose();
        toast.error(OFFER_MESSAGES.withdrawFailed, {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
      },
    });
  };

  const about = offer
    ? `votre proposition de ${formatEuros(offer.amount_cents)}${offer.patient_name ? ` à ${offer.patient_name}` : ""}`
    : "votre proposition";
  return (
    <ConfirmDialog
      open={offer !== null}
      onOpenChange={(open) => {
        if (!open && !withdraw.isPending) onClose();
      }}
      title="Retirer cette proposition ?"
      description={`Le patient ne verra plus ${about}${
        offer?.state === "expired"
          ? ", qui a expiré."
          : " et ne pourra plus l'accepter : un message dans votre conversation et un e-mail l'en informent."
      } Vous pourrez envoyer une nouvelle proposition tant que sa demande est ouverte.`}
      confirmLabel="Retirer la proposition"
      cancelLabel="Garder ma proposition"
      destructive
      loading={withdraw.isPending}
      onConfirm={onConfirm}
    />
  );
}
