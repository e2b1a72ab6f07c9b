import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { ArchiveX, RotateCcw } from "lucide-react";
import { useLayoutEffect, useRef } from "react";
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
      action: {
        label: "Annuler",
        onClick: (event) => {
          // The toast stays, to be replaced by the answer (same id): dismissed, sonner would remove
          // that answer with it 200 ms later.
          event.preventDefault();
          void change(queryClient, id, !aside);
        },
      },
    });
  } catch (error) {
    toast.error(aside ? DENTIST_MESSAGES.setAsideFailed : DENTIST_MESSAGES.putBackFailed, {
      id: `set-aside-${id}`,
      description: isApiError(error) ? error.message : undefined,
    });
  }
}

/**
 * Where the focus goes when the row of a button that had it leaves its list (« En attente » after
 * « Écarter », « Écartées » after « Remettre », « À faire »): the next row's first control, else the
 * previous row's, else the page's title — not back to the top of the page.
 */
function focusNeighbour(button: HTMLElement): void {
  const row = button.closest("tr, li");
  const neighbour = row?.nextElementSibling ?? row?.previousElementSibling;
  // Its first link or button, past the row's selection box (ADR 091's addendum).
  const target = neighbour?.querySelector<HTMLElement>(
    'a[href], button:not([disabled]):not([role="checkbox"])',
  );
  if (target) {
    target.focus();
    return;
  }
  const title = document.querySelector<HTMLElement>("main h1");
  if (title) {
    title.tabIndex = -1;
    title.focus();
  }
}

/**
 * Whether « Écarter » or « Remettre » applies to the request: one he has not answered, and not sent to
 * him by name (the patient waits for his answer alone) unless he set it aside before.
 */
export const maySetAside = (request: Pick<Request, "my_status" | "set_aside" | "addressed_to_me">) =>
  request.my_status === "pending" && (!request.addressed_to_me || request.set_aside);

/**
 * « Écarter » a request he will not follow up (ADR 091), or « Remettre » it among his requests to
 * answer. Only on a request he has not answered, and not sent to him by name (the patient waits for
 * his answer alone). The focus stays on it while the change runs, and moves to the next row when its
 * row leaves the list.
 */
export function SetAsideButton({ request, size = "md" }: { request: Request; size?: ButtonSize }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: (aside: boolean) => change(queryClient, request.id, aside) });
  const ref = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const button = ref.current;
    // Run as the row is removed, while the button is still in the page.
    return () => {
      if (button && document.activeElement === button) focusNeighbour(button);
    };
  }, []);
  if (!maySetAside(request)) return null;

  const of = `${ofName(request.patient_name)} (${treatmentLabel(request.treatment_type)})`;
  const aside = request.set_aside;
  return (
    <Button
      ref={ref}
      variant={aside ? "outline" : "ghost"}
      size={size}
      onClick={() => mutation.mutate(!aside)}
      loading={mutation.isPending}
      aria-label={
        aside
          ? `Remettre la demande ${of} dans mes demandes à traiter`
          : `Écarter la demande ${of} : ne pas donner suite`
      }
    >
      {aside ? <RotateCcw aria-hidden="true" /> : <ArchiveX aria-hidden="true" />}
      {aside ? "Remettre" : "Écarter"}
    </Button>
  );
}
