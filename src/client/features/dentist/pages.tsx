import { BadgeCheck, Clock, FileSearch, Inbox, MessagesSquare } from "lucide-react";
import { Link } from "react-router";
import type { Profile } from "../../../shared/schemas/profile";
import { PageHeader } from "../../components/PageHeader";
import { ProfileSummary } from "../../components/ProfileSummary";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { EmptyState } from "../../components/ui/EmptyState";
import { useSession } from "../../lib/session";

/** The dentist chunk: every page of /dentist/* (lazy-loaded by the router). */

function VerificationPending({ headingLevel = "h2" }: { headingLevel?: "h2" | "h3" }) {
  return (
    <Card className="border-yellow-300 bg-yellow-50">
      <CardHeader>
        <CardTitle as={headingLevel} className="flex items-center gap-2">
          <Clock className="size-5 text-yellow-800" aria-hidden="true" />
          En attente de vérification
        </CardTitle>
        <CardDescription className="text-slate-700">
          Votre compte sera vérifié par notre équipe (numéro RPPS, inscription à l'Ordre, diplômes). Tant
          qu'il n'est pas vérifié, les demandes des patients ne vous sont pas montrées. Complétez votre profil
          pour que nous puissions vous vérifier.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link to="/dentist/profile">Compléter mon profil</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function PracticeStatus({ profile }: { profile: Profile }) {
  if (!profile.is_verified) return <VerificationPending />;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Statut du cabinet</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        <Badge tone="green">
          <BadgeCheck aria-hidden="true" />
          Cabinet vérifié
        </Badge>
        <Link to="/dentist/profile" className="font-medium text-brand-800 underline underline-offset-2">
          Voir mon profil
        </Link>
      </CardContent>
    </Card>
  );
}

export function DentistDashboardPage() {
  const { profile } = useSession();
  if (!profile) return null;
  return (
    <>
      <PageHeader
        title={`Bonjour ${profile.first_name}`}
        documentTitle="Tableau de bord"
        description="Les demandes des patients et vos messages."
      />
      <div className="grid gap-6">
        <PracticeStatus profile={profile} />
        <section aria-labelledby="recent-requests">
          <h2 id="recent-requests" className="mb-4 text-xl font-semibold text-slate-900">
            Demandes récentes
          </h2>
          <EmptyState
            as="h3"
            icon={Inbox}
            title="Aucune demande pour le moment"
            description={
              profile.is_verified
                ? "Les nouvelles demandes des patients apparaîtront ici."
                : "Les demandes des patients vous seront montrées une fois votre compte vérifié."
            }
            action={
              profile.is_verified ? (
                <Button asChild variant="outline">
                  <Link to="/dentist/quote-requests">Voir les demandes de devis</Link>
                </Button>
              ) : undefined
            }
          />
        </section>
      </div>
    </>
  );
}

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

export function DentistQuoteRequestsPage() {
  const { profile } = useSession();
  if (!profile) return null;
  return (
    <>
      <PageHeader
        title="Demandes de devis"
        description="Les demandes des patients auxquelles vous pouvez répondre."
      />
      {profile.is_verified ? (
        <EmptyState
          icon={Inbox}
          title="Aucune demande pour le moment"
          description="Aucune demande de devis ne correspond à vos critères."
        />
      ) : (
        <VerificationPending />
      )}
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

export function DentistPatientSubmissionPage() {
  return <RequestNotFound />;
}

export function DentistProfilePage() {
  const { profile } = useSession();
  if (!profile) return null;
  return (
    <>
      <PageHeader title="Mon profil" description="Les informations de votre compte dentiste." />
      <ProfileSummary profile={profile} />
    </>
  );
}
