import { ROLE_LABELS } from "../../shared/domain/roles";
import { formatDetailDate } from "../../shared/format/dates";
import type { Profile } from "../../shared/schemas/profile";
import { Card, CardContent, CardHeader, CardTitle } from "./ui/Card";

/** The profile pages' 'Informations du compte' card: role and membership date. */
export function AccountInfoCard({ profile, className }: { profile: Profile; className?: string }) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Informations du compte</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4">
          <div>
            <dt className="text-sm font-medium text-slate-600">Rôle</dt>
            <dd className="text-slate-900">{profile.role ? ROLE_LABELS[profile.role] : "Administrateur"}</dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-600">Membre depuis</dt>
            <dd className="text-slate-900">{formatDetailDate(profile.created_at)}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
