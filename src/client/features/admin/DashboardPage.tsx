import type { LucideIcon } from "lucide-react";
import { Inbox, MessagesSquare, ShieldCheck, Stethoscope, Users } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../components/PageHeader";
import { StatCard } from "../../components/ui/StatCard";
import { useSession } from "../../lib/session";
import { useAdminStats } from "./api";
import { UsersSection } from "./UsersTable";

function LinkedStat({
  to,
  icon,
  label,
  value,
  loading,
}: {
  to: string;
  icon: LucideIcon;
  label: string;
  value: number | undefined;
  loading: boolean;
}) {
  return (
    <Link
      to={to}
      className="block rounded-ui transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
    >
      <StatCard icon={icon} label={label} value={value ?? "—"} loading={loading} />
    </Link>
  );
}

/** /admin/dashboard 'Administration' (issue 7). */
export function AdminDashboardPage() {
  const { profile } = useSession();
  const stats = useAdminStats();
  const data = stats.data;
  const loading = stats.isPending;
  return (
    <>
      <PageHeader
        title="Administration"
        description={profile ? `Bonjour ${profile.first_name}` : undefined}
      />
      <section aria-label="Chiffres clés" className="mb-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <StatCard icon={Users} label="Patients" value={data?.patients ?? "—"} loading={loading} />
        <StatCard icon={Stethoscope} label="Dentistes" value={data?.dentists ?? "—"} loading={loading} />
        <LinkedStat
          to="/admin/verifications"
          icon={ShieldCheck}
          label="Demandes de vérification"
          value={data?.verification_requests}
          loading={loading}
        />
        <LinkedStat
          to="/admin/chat-messages"
          icon={MessagesSquare}
          label="Messages non lus"
          value={data?.unread_support}
          loading={loading}
        />
        <LinkedStat
          to="/admin/contact"
          icon={Inbox}
          label="Contacts à traiter"
          value={data?.unhandled_contact}
          loading={loading}
        />
      </section>
      <div className="grid gap-10">
        <UsersSection kind="dentist" />
        <UsersSection kind="patient" />
      </div>
    </>
  );
}
