import type { ReactNode } from "react";
import { DENTIST_MESSAGES, type DentistRequestDetail } from "../../../shared/schemas/dentist";
import { RequestLoader } from "../../components/request/RequestLoader";
import { BackButton, RequestNotFound } from "../../components/request/RequestParts";
import {
  SubscriptionLimitedRequest,
  useSubscriptionLimited,
} from "../../components/subscription/SubscriptionLimit";
import { useDentistRequest } from "./api";

/** Where the dentist's request pages lead back to. */
export const DENTIST_REQUESTS_PATH = "/dentist/quote-requests";

/**
 * The dentist's request pages (patient submission, proposal): request `id` loaded, its loading,
 * 404 and errors handled alike. A dentist whose subscription lapsed is told why a request he may
 * have seen before is not shown (issue 35), with the way back.
 */
export function DentistRequestLoader({
  id,
  title,
  skeleton,
  children,
}: {
  id: string;
  title: string;
  skeleton: readonly string[];
  children: (request: DentistRequestDetail) => ReactNode;
}) {
  const query = useDentistRequest(id);
  const limited = useSubscriptionLimited();
  return (
    <RequestLoader
      query={query}
      title={title}
      loadError="Impossible de charger la demande"
      toastId="dentist-request-error"
      backTo={DENTIST_REQUESTS_PATH}
      skeleton={skeleton}
      notFound={
        limited ? <SubscriptionLimitedRequest backTo={DENTIST_REQUESTS_PATH} /> : <DentistRequestNotFound />
      }
    >
      {children}
    </RequestLoader>
  );
}

/** 'Retour', back to the requests when there is no history. */
export function DentistBackButton() {
  return <BackButton fallback={DENTIST_REQUESTS_PATH} />;
}

/** 'Impossible de trouver cette demande.' with a way back to the requests. */
export function DentistRequestNotFound() {
  return (
    <RequestNotFound
      description={DENTIST_MESSAGES.notFound}
      backTo={DENTIST_REQUESTS_PATH}
      backLabel="Retour aux demandes"
    />
  );
}
