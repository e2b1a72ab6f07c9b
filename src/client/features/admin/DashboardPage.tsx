import type { LucideIcon } from "lucide-react";
import { Inbox, MessagesSquare, ShieldCheck, Stethoscope, Users } from "lucide-react";
import type { ComponentProps } from "react";
import { Link } from "react-router";
import type { AdminStats } from "../../../shared/schemas/admin";
import { PageHeader } from "../../components/PageHeader";
import { LoadError } from "../../components/ui/LoadError";
import { StatCard } from "../../components/ui/StatCard";
import { useSession } from "../../lib/session";
import { useAdminStats, useLiveTeamWork } from "./api";
import { UsersSection } from "./UsersTable";

/** The key figures; those with a page where they are dealt with link to it. */
const COUNTERS: { key: keyof AdminStats; icon: LucideIcon; label: string; to?: string }[] = [
  { key: "patients", icon: Users, label: "Patients" },
  { key: "dentists", icon: Stethoscope, label: "Dentistes" },
  {
    key: "verification_requests",
    icon: ShieldCheck,
    label: "Demandes de vérification",
    to: "/admin/verifications",
  },
  { key: "unread_support", icon: MessagesSquare, label: "Messages non lus", to: "/admin/chat-messages" },
  { key: "unhandled_contact", icon: Inbox, label: "Contacts à traiter", to: "/admin/contact" },
];

/** A key figure's tile, a link to where it is dealt with when it has one. */
function Counter({ to, ...card }: ComponentProps<typeof StatCard> & { to?: string }) {
  return to ? (
    <Link
      to={to}
      className="block rounded-ui transition-shadow hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
    >
      <StatCard {...card} />
    </Link>
  ) : (
    <StatCard {...card} />
  );
}

/** /admin/dashboard 'Administration' (issue 7). */
export function AdminDashboardPage() {
  const { profile } = useSession();
  const stats = useAdminStats();
  useLiveTeamWork();
  return (
    <>
      <PageHeader
        title="Administration"
        description={profile ? `Bonjour ${profile.first_name}` : undefined}
      />
      {stats.isError ? (
        <LoadError
          title="Impossible de charger les chiffres clés"
          className="mb-4"
          onRetry={() => void stats.refetch()}
        />
      ) : null}
      <section aria-label="Chiffres clés" className="mb-8 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
        {COUNTERS.map(({ key, ...counter }) => (
          <Counter key={key} {...counter} value={stats.data?.[key] ?? "—"} loading={stats.isPending} />
        ))}
      </section>
      <div className="grid gap-10">
        <UsersSection kind="dentist" />
        <UsersSection kind="patient" />
      </div>
    </>
  );
}
