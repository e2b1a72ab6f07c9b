import { MessagesSquare } from "lucide-react";
import { PageHeader } from "../../components/PageHeader";
import { EmptyState } from "../../components/ui/EmptyState";

/** The patient chunk: every page of /patient/* (lazy-loaded by the router). */
export { PatientDashboardPage } from "./DashboardPage";
export { PatientProfilePage } from "./ProfilePage";
export { PatientRequestPage } from "./RequestPage";
export { PatientRequestsPage } from "./RequestsPage";
export { PatientUploadPage } from "./UploadPage";

export function PatientMessagesPage() {
  return (
    <>
      <PageHeader title="Mes messages" />
      <EmptyState
        icon={MessagesSquare}
        title="Aucun message pour le moment"
        description="Lorsqu'un dentiste répondra à l'une de vos demandes, vous pourrez échanger avec lui ici."
      />
    </>
  );
}
