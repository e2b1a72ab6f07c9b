import { FileSearch, FileUp, FolderOpen, MessagesSquare, Plus } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { ProfileSummary } from "../../components/ProfileSummary";
import { Button } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/EmptyState";
import { useSession } from "../../lib/session";

/** The patient chunk: every page of /patient/* (lazy-loaded by the router). */

export function PatientDashboardPage() {
  const { profile } = useSession();
  if (!profile) return null;
  return (
    <>
      <PageHeader
        title={`Bonjour ${profile.first_name}`}
        documentTitle="Tableau de bord"
        description="Déposez un devis ou des documents, puis suivez ici les réponses des dentistes."
        actions={
          <>
            <Button asChild>
              <Link to="/patient/upload">
                <Plus aria-hidden="true" />
                Nouvelle demande
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/patient/upload">
                <FileUp aria-hidden="true" />
                Téléverser un document
              </Link>
            </Button>
          </>
        }
      />
      <section aria-labelledby="recent-requests">
        <h2 id="recent-requests" className="mb-4 text-xl font-semibold text-slate-900">
          Mes demandes récentes
        </h2>
        <EmptyState
          as="h3"
          icon={FolderOpen}
          title="Aucune demande pour le moment"
          description="Déposez le devis de votre dentiste : des dentistes vérifiés vous répondront, en général sous 48 heures."
          action={
            <Button asChild>
              <Link to="/patient/upload">Créer ma première demande</Link>
            </Button>
          }
        />
      </section>
    </>
  );
}

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

export function PatientUploadPage() {
  return (
    <>
      <PageHeader
        title="Téléverser des documents"
        description="Votre devis, vos radiographies ou vos photos : PDF, JPG ou PNG, 10 Mo maximum par fichier."
      />
      <EmptyState
        icon={FileUp}
        title="Aucun document disponible"
        description="Vous n'avez encore déposé aucun devis ni document. Seuls les dentistes vérifiés que vous choisirez pourront les consulter."
        action={
          <Button asChild variant="outline">
            <Link to="/patient/dashboard">Retour au tableau de bord</Link>
          </Button>
        }
      />
    </>
  );
}

export function PatientRequestPage() {
  return (
    <>
      <PageHeader title="Demande non trouvée" />
      <EmptyState
        icon={FileSearch}
        title="Cette demande est introuvable"
        description="Cette demande n'existe pas ou a été supprimée."
        action={
          <Button asChild>
            <Link to="/patient/dashboard">Retour au tableau de bord</Link>
          </Button>
        }
      />
    </>
  );
}

export function PatientRequestsPage() {
  return (
    <>
      <PageHeader title="Toutes mes demandes" />
      <EmptyState
        icon={FolderOpen}
        title="Aucune demande trouvée"
        description="Vous n'avez pas encore fait de demande de devis."
        action={
          <Button asChild>
            <Link to="/patient/upload">
              <Plus aria-hidden="true" />
              Créer une demande
            </Link>
          </Button>
        }
      />
    </>
  );
}

export function PatientProfilePage() {
  const { profile } = useSession();
  if (!profile) return null;
  return (
    <>
      <PageHeader title="Mon profil" description="Les informations de votre compte." />
      <ProfileSummary profile={profile} />
    </>
  );
}
