import { TriangleAlert } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { consentText } from "../../../../shared/domain/consent";
import { mayCancelRequest } from "../../../../shared/policies/requests";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { Button } from "../../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { ConfirmDialog } from "../../../components/ui/Dialog";
import { isApiError } from "../../../lib/api";
import { useConfig } from "../../../lib/config";
import { useOpenToAll } from "../api";

/*
 * A request addressed to one dentist, still open, sent to every verified dentist (ADR 073): offered
 * beside its recipient, and urged when he no longer receives requests (verification withdrawn,
 * subscription lapsed), since then nobody sees it. The patient gives the new consent in the dialog.
 */

/** Whether the request may be sent to all: open, and addressed to one dentist. */
export function mayOpenToAll(request: RequestDetail): boolean {
  return request.recipient !== null && mayCancelRequest(request.status) && !request.consent.withdrawn_at;
}

/** The button and its consent dialog. */
export function OpenToAllButton({
  request,
  label,
  variant = "outline",
}: {
  request: RequestDetail;
  label: string;
  variant?: "outline" | "primary";
}) {
  const { brand_name: brand } = useConfig();
  const open = useOpenToAll(request.id, (message) => toast.success(message));
  const [confirming, setConfirming] = useState(false);

  const onConfirm = () =>
    open.mutate(undefined, {
      onSuccess: () => setConfirming(false),
      onError: (error) => {
        setConfirming(false);
        toast.error(isApiError(error) ? error.message : "La demande n'a pas pu être envoyée. Réessayez.");
      },
    });

  return (
    <>
      <Button variant={variant} onClick={() => setConfirming(true)}>
        {label}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Envoyer votre demande à tous les dentistes vérifiés ?"
        description={
          <>
            Ils verront votre demande et ses documents, et pourront vous faire une proposition. En confirmant,
            vous donnez ce consentement{"\u202f"}: «{"\u00a0"}
            {consentText({ brand, dentistName: null })}
            {"\u00a0"}»
          </>
        }
        confirmLabel="J'accepte et j'envoie"
        cancelLabel="Annuler"
        loading={open.isPending}
        onConfirm={onConfirm}
      />
    </>
  );
}

/** Above the offers when the dentist chosen no longer receives requests: nobody sees this one. */
export function RecipientUnavailable({ request }: { request: RequestDetail }) {
  const recipient = request.recipient;
  if (!recipient || recipient.taking_requests || !mayOpenToAll(request)) return null;
  return (
    <Card className="border-yellow-300 bg-yellow-50 lg:col-span-3">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <TriangleAlert className="size-5 text-yellow-800" aria-hidden="true" />
          Le Dr {recipient.full_name} ne reçoit plus de nouvelles demandes
        </CardTitle>
        <CardDescription className="text-slate-700">
          Aucun dentiste ne voit votre demande pour le moment. Envoyez-la à tous les dentistes vérifiés pour
          recevoir des propositions.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <OpenToAllButton request={request} label="Envoyer à tous les dentistes vérifiés" variant="primary" />
      </CardContent>
    </Card>
  );
}
