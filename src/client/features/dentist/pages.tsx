import { FileSearch, MessagesSquare } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { Button } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/EmptyState";

/** The dentist chunk: every page of /dentist/* (lazy-loaded by the router). */
export { DentistDashboardPage } from "./DashboardPage";
export { DentistProfilePage } from "./ProfilePage";
export { DentistQuoteRequestsPage } from "./QuoteRequestsPage";
export { DentistPatientSubmissionPage } from "./SubmissionPage";

export function DentistMessagesPage() {
  return (
    <>
      <PageHeader title="Mes messages" />
      <EmptyState
        icon={MessagesSquare}
        title="Aucun message pour le moment"
        description="Vos échanges avec les patients apparaîtront ici dès que vous aurez répondu à une demande."
      />
    </>
  );
}

export function DentistConversationPage() {
  return (
    <>
      <PageHeader title="Conversation introuvable" />
      <EmptyState
        icon={MessagesSquare}
        title="Cette conversation est introuvable"
        description="Cette conversation n'existe pas ou vous n'y avez pas accès."
        action={
          <Button asChild>
            <Link to="/dentist/messages">Retour aux messages</Link>
          </Button>
        }
      />
    </>
  );
}

function RequestNotFound() {
  return (
    <>
      <PageHeader title="Demande non trouvée" />
      <EmptyState
        icon={FileSearch}
        title="Cette demande est introuvable"
        description="Impossible de trouver cette demande."
        action={
          <Button asChild>
            <Link to="/dentist/quote-requests">Retour aux demandes</Link>
          </Button>
        }
      />
    </>
  );
}

export function DentistQuoteRequestPage() {
  return <RequestNotFound />;
}
