import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { ArchiveX, RotateCcw } from "lucide-react";
import { toast } from "sonner";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { ofName } from "../../../shared/format/names";
import { DENTIST_MESSAGES, type DentistRequestSummary } from "../../../shared/schemas/dentist";
import { Button, type ButtonSize } from "../../components/ui/Button";
import { isApiError } from "../../lib/api";
import { setAsideRequest } from "./api";

type Request = Pick<
  DentistRequestSummary,
  "id" | "patient_name" | "treatment_type" | "my_status" | "set_aside" | "addressed_to_me"
>;

/** Sets the request aside or puts it back, then says so in a toast that offers to undo it. */
async function change(queryClient: QueryClient, id: string, aside: boolean): Promise<void> {
  try {
    const message = await setAsideRequest(queryClient, id, aside);
    toast.success(message, {
      id: `set-aside-${id}`,
      action: { label: "Annuler", onClick: () => void change(queryClient, id, !aside) },
    });
  } catch (error) {
    toast.error(aside ? DENTIST_MESSAGES.setAsideFailed : DENTIST_MESSAGES.putBackFailed, {
      id: `set-aside-${id}`,
      description: isApiError(error) ? error.message : undefined,
    });
  }
}

/**
 * « Écarter » a request he will not follow up (ADR 091), or « Remettre » it among his requests to
 * answer. Only on a request he has not answered, and not sent to him by name (the patient waits for
 * his answer alone).
 */
export function SetAsideButton({ request, size = "md" }: { request: Request; size?: ButtonSize }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: (aside: boolean) => change(queryClient, request.id, aside) });
  if (request.my_status !== "pending" || (request.addressed_to_me && !request.set_aside)) return null;

  const of = `${ofName(request.patient_name)} (${treatmentLabel(request.treatment_type)})`;
  return request.set_aside ? (
    <Button
      variant="outline"
      size={size}
      onClick={() => mutation.mutate(false)}
      loading={mutation.isPending}
      aria-label={`Remettre la demande ${of} dans mes demandes à traiter`}
    >
      <RotateCcw aria-hidden="true" />
      Remettre
    </Button>
  ) : (
    <Button
      variant="ghost"
      size={size}
      onClick={() => mutation.mutate(true)}
      loading={mutation.isPending}
      aria-label={`Écarter la demande ${of} : ne pas donner suite`}
    >
      <ArchiveX aria-hidden="true" />
      Écarter
    </Button>
  );
}
