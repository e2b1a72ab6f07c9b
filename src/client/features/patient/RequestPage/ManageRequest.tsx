import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { mayCancelRequest, mayDeleteRequest } from "../../../../shared/policies/requests";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { Button } from "../../../components/ui/Button";
import { ConfirmDialog } from "../../../components/ui/Dialog";
import { isApiError } from "../../../lib/api";
import { useCancelRequest, useDeleteRequest } from "../api";

const RETRY_LATER = "Veuillez réessayer dans quelques instants.";

/**
 * 'Gérer cette demande': cancel it (dentists no longer see it) or delete it with its files, each
 * after a confirmation, when the request's status allows it (the shared request policies).
 */
export function ManageRequest({ request }: { request: Pick<RequestDetail, "id" | "status"> }) {
  const [confirming, setConfirming] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const cancel = useCancelRequest(request.id);
  const navigate = useNavigate();
  const remove = useDeleteRequest(request.id, (message) => {
    toast.success("Demande supprimée", { description: message });
    navigate("/patient/requests", { replace: true });
  });
  const mayCancel = mayCancelRequest(request.status);
  const mayDelete = mayDeleteRequest(request.status);

  const onCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success("Demande annulée", {
          description: "Les dentistes ne voient plus cette demande.",
        });
      },
      onError: (error) => {
        setConfirming(false);
        toast.error("Une erreur est survenue", {
          description: isApiError(error) ? error.message : RETRY_LATER,
        });
      },
    });

  const onDelete = () =>
    remove.mutate(undefined, {
      onSuccess: () => setConfirmingDelete(false),
      onError: (error) => {
        setConfirmingDelete(false);
        toast.error("La demande n'a pas été supprimée", {
          description: isApiError(error) ? error.message : RETRY_LATER,
        });
      },
    });

  return (
    <>
      {mayCancel || mayDelete ? (
        <section
          aria-labelledby="manage-request"
          className="grid gap-3 rounded-ui border border-slate-200 p-4 lg:col-span-2"
        >
          <h2 id="manage-request" className="font-semibold text-slate-900">
            Gérer cette demande
          </h2>
          <div className="flex flex-wrap gap-3">
            {mayCancel ? (
              <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
                Annuler la demande
              </Button>
            ) : null}
            {mayDelete ? (
              <Button variant="destructive-ghost" size="sm" onClick={() => setConfirmingDelete(true)}>
                Supprimer la demande
              </Button>
            ) : null}
          </div>
        </section>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Annuler cette demande ?"
        description="Les dentistes ne verront plus cette demande et ne pourront plus vous y répondre ; ceux qui vous ont fait une proposition en sont informés. Cette action est définitive."
        confirmLabel="Annuler la demande"
        cancelLabel="Garder ma demande"
        destructive
        loading={cancel.isPending}
        onConfirm={onCancel}
      />
      <ConfirmDialog
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
        title="Supprimer cette demande ?"
        description="La demande, ses documents, les propositions reçues et vos conversations avec les dentistes à son sujet seront effacés, fichiers compris. Les dentistes ne la verront plus ; ceux dont une proposition était en attente en sont informés. Cette action est définitive."
        confirmLabel="Supprimer la demande"
        cancelLabel="Garder ma demande"
        destructive
        loading={remove.isPending}
        onConfirm={onDelete}
      />
    </>
  );
}
