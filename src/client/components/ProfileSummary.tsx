import { BadgeCheck, Clock } from "lucide-react";
import { ROLE_LABELS } from "../../shared/domain/roles";
import type { Profile } from "../../shared/schemas/profile";
import { Avatar } from "./ui/Avatar";
import { Badge } from "./ui/Badge";
import { Card, CardContent, CardHeader, CardTitle } from "./ui/Card";

/** Read-only account information known from the session (profile pages, before editing exists). */
export function ProfileSummary({ profile }: { profile: Profile }) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>Informations personnelles</CardTitle>
        </CardHeader>
        <CardContent>
          <div className="mb-6 flex items-center gap-4">
            <Avatar name={profile.full_name} src={profile.avatar_url} size="lg" />
            <p className="text-lg font-semibold text-slate-900">{profile.full_name}</p>
          </div>
          <dl className="grid gap-4 sm:grid-cols-2">
            <div>
              <dt className="text-sm font-medium text-slate-600">Nom complet</dt>
              <dd className="text-slate-900">{profile.full_name}</dd>
            </div>
            <div>
              <dt className="text-sm font-medium text-slate-600">Email</dt>
              <dd className="break-all text-slate-900">{profile.email}</dd>
              <dd className="text-sm text-slate-600">L'email ne peut pas être modifié</dd>
            </div>
            {profile.phone_number ? (
              <div>
                <dt className="text-sm font-medium text-slate-600">Téléphone</dt>
                <dd className="text-slate-900">{profile.phone_number}</dd>
              </div>
            ) : null}
            {profile.city ? (
              <div>
                <dt className="text-sm font-medium text-slate-600">Ville</dt>
                <dd className="text-slate-900">{profile.city}</dd>
              </div>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Informations du compte</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4">
            <div>
              <dt className="text-sm font-medium text-slate-600">Rôle</dt>
              <dd className="text-slate-900">{ROLE_LABELS[profile.role]}</dd>
            </div>
            {profile.role === "dentist" ? (
              <div>
                <dt className="text-sm font-medium text-slate-600">Statut</dt>
                <dd className="mt-1">
                  {profile.is_verified ? (
                    <Badge tone="green">
                      <BadgeCheck aria-hidden="true" />
                      Compte vérifié
                    </Badge>
                  ) : (
                    <Badge tone="yellow">
                      <Clock aria-hidden="true" />
                      En attente de vérification
                    </Badge>
                  )}
                </dd>
              </div>
            ) : null}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
