import { FileSignature } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { LEGACY_CONSENT_VERSION } from "../../../shared/domain/consent";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { mayCancelRequest } from "../../../shared/policies/requests";
import type { RequestDetail } from "../../../shared/schemas/requests";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { isApiError } from "../../lib/api";
import { useWithdrawConsent } from "./api";

/**
 * 'Mon consentement' of the request page (issue 14): the consent given when sending, as worded
 * then, with its date and version; withdrawing it closes the request to dentists.
 */
export function ConsentCard({ request }: { request: RequestDetail }) {
  const { consent } = request;
  const withdraw = useWithdrawConsent(request.id);
  const [confirming, setConfirming] = useState(false);
  const open = mayCancelRequest(request.status) && !consent.withdrawn_at;

  const onWithdraw = () =>
    withdraw.mutate(undefined, {
      onSuccess: ({ message }) => {
        setConfirming(false);
        toast.success(message);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(isApiError(error) ? error.message : "Le consentement n'a pas pu être retiré. Réessayez.");
      },
    });

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle icon={FileSignature}>Mon consentement</CardTitle>
        <CardDescription>
          Donné le {formatDetailDateTime(consent.given_at)}
          {consent.version === LEGACY_CONSENT_VERSION
            ? ""
            : ` (version du ${consent.version.split("-").reverse().join("/")})`}
          {consent.withdrawn_at ? ` ; retiré le ${formatDetailDateTime(consent.withdrawn_at)}.` : "."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <blockquote className="border-l-4 border-slate-200 pl-4 text-slate-700">
          {consent.text ||
            "Cette demande a été envoyée avant que le texte du consentement soit enregistré : vous aviez accepté le partage de vos documents avec le ou les dentistes choisis et l'équipe pour l'assistance."}
        </blockquote>
        {consent.withdrawn_at ? (
          <p className="text-slate-700">
            Vous avez retiré votre consentement : les dentistes ne voient plus cette demande.
          </p>
        ) : open ? (
          <div>
            <Button variant="outline" onClick={() => setConfirming(true)}>
              Retirer mon consentement
            </Button>
          </div>
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Retirer votre consentement ?"
        description="Les dentistes ne verront plus cette demande ni ses documents, et ne pourront plus vous répondre : la demande sera fermée. Ses documents seront effacés dans 30 jours."
        confirmLabel="Retirer mon consentement"
        cancelLabel="Garder le partage"
        destructive
        loading={withdraw.isPending}
        onConfirm={onWithdraw}
      />
    </Card>
  );
}
