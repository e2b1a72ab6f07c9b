import { MessagesSquare, Stethoscope, Users } from "lucide-react";
import { PageHeader } from "../../components/PageHeader";
import { Card, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { EmptyState } from "../../components/ui/EmptyState";
import { useSession } from "../../lib/session";

/** The admin chunk: every page of /admin/* (lazy-loaded by the router). */

export function AdminDashboardPage() {
  const { profile } = useSession();
  if (!profile) return null;
  return (
    <>
      <PageHeader title="Administration" description={`Bonjour ${profile.first_name}`} />
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Stethoscope className="size-5 text-brand-700" aria-hidden="true" />
              Dentistes
            </CardTitle>
            <CardDescription>
              Vérifiez les dentistes inscrits avant qu'ils accèdent aux demandes.
            </CardDescription>
          </CardHeader>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Users className="size-5 text-brand-700" aria-hidden="true" />
              Patients
            </CardTitle>
            <CardDescription>Les comptes patients inscrits sur la plateforme.</CardDescription>
          </CardHeader>
        </Card>
      </div>
    </>
  );
}

export function AdminChatMessagesPage() {
  return (
    <>
      <PageHeader title="Messages des patients" />
      <EmptyState
        icon={MessagesSquare}
        title="Aucun message pour le moment"
        description="Les messages envoyés par les patients à l'équipe apparaîtront ici."
      />
    </>
  );
}
