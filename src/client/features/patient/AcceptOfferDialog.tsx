import { CheckCircle2, Undo2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { formatEuros } from "../../../shared/format/money";
import { drName } from "../../../shared/format/names";
import type { offerAcceptBlocker } from "../../../shared/policies/appointments";
import { OFFER_MESSAGES, type PatientOffer } from "../../../shared/schemas/offers";
import { Button, type ButtonSize } from "../../components/ui/Button";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { isApiError } from "../../lib/api";
import { useAcceptOffer, useUnacceptOffer } from "./api";

/*
 * 'Accepter cette proposition', the same on the request page and the comparison: a
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
    case "dentist_unverified":
      return "Dentiste plus vérifié pour le moment";
    default:
      return null;
  }
}

/**
 * The sentence on what accepting does: the others closed, the dentist told, then the appointment;
 * and that it can be undone until the appointment is confirmed (issue 16, ADR 016).
 */
export function acceptConsequences(offer: PatientOffer, othersToClose: number): string {
  const name = drName(offer.dentist.full_name);
  const others =
    othersToClose === 0
      ? ""
      : othersToClose === 1
        ? "L'autre proposition reçue pour cette demande sera clôturée. "
        : `Les ${othersToClose} autres propositions reçues pour cette demande seront clôturées. `;
  // Who is told: the chosen dentist, and each dentist whose offer closes (never « lui », which read
  // as the closed offer).
  const told =
    othersToClose === 0
      ? `Un e-mail en informera le ${name}`
      : othersToClose === 1
        ? `Un e-mail en informera le ${name} et l'autre dentiste`
        : `Un e-mail en informera le ${name} et les autres dentistes`;
  return (
    `Vous choisissez le ${name} pour ${formatEuros(offer.amount_cents)}. ${others}` +
    `${told}, puis vous choisirez votre rendez-vous. ` +
    "Vous pourrez changer d'avis tant que le rendez-vous n'est pas confirmé."
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
  const name = drName(offer.dentist.full_name);

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

/**
 * 'Changer d'avis' (issue 16 item 8, ADR 016): until the appointment is confirmed, the patient may
 * withdraw the acceptance; the other offers still valid reopen and the dentists are told.
 */
export function UnacceptButton({
  requestId,
  offer,
  appointmentPending,
}: {
  requestId: string;
  offer: PatientOffer;
  /** An appointment asked for and not yet confirmed: withdrawing cancels it. */
  appointmentPending: boolean;
}) {
  const [open, setOpen] = useState(false);
  const unaccept = useUnacceptOffer(requestId);
  const name = drName(offer.dentist.full_name);
  const onConfirm = () =>
    unaccept.mutate(offer.id, {
      onSuccess: ({ message }) => {
        setOpen(false);
        toast.success(message);
      },
      onError: (error) => {
        setOpen(false);
        toast.error(OFFER_MESSAGES.unacceptFailed, {
          description: isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.",
        });
      },
    });
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Undo2 aria-hidden="true" />
        Changer d'avis
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!unaccept.isPending) setOpen(next);
        }}
        title={`Retirer votre acceptation de la proposition du ${name}\u202f?`}
        description={
          `${appointmentPending ? "Le rendez-vous en attente sera annulé. " : ""}` +
          "Les autres propositions encore valables seront de nouveau ouvertes " +
          "et vous pourrez en choisir une autre. Les dentistes concernés recevront un e-mail."
        }
        confirmLabel="Retirer mon acceptation"
        cancelLabel="Garder cette proposition"
        loading={unaccept.isPending}
        onConfirm={onConfirm}
      />
    </>
  );
}
