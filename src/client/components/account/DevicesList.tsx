import { Monitor, Smartphone } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { formatDetailDateTime } from "../../../shared/format/dates";
import type { AccountSession } from "../../../shared/schemas/account";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { ConfirmDialog } from "../ui/Dialog";
import { LoadError } from "../ui/LoadError";
import { Skeleton } from "../ui/Skeleton";
import { useAccountSessions, useRevokeOtherSessions, useRevokeSession } from "./securityApi";

const MOBILE = /iPhone|iPad|Android/;

function DeviceRow({ session, onRevoke }: { session: AccountSession; onRevoke: () => void }) {
  const labelId = useId();
  const Icon = MOBILE.test(session.device) ? Smartphone : Monitor;
  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 gap-3">
        <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 text-slate-700">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 gap-0.5">
          <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
            <span id={labelId}>{session.device}</span>
            {session.current ? <Badge tone="brand">Cet appareil</Badge> : null}
          </p>
          <p className="text-sm text-slate-600">
            Connecté le {formatDetailDateTime(session.created_at)} · dernière activité le{" "}
            {formatDetailDateTime(session.last_active_at)}
          </p>
          {session.ip ? (
            <p className="text-sm text-slate-600">
              Adresse IP : <span className="tabular-nums">{session.ip}</span>
            </p>
          ) : null}
        </div>
      </div>
      {session.current ? null : (
        <Button
          variant="destructive-ghost"
          size="sm"
          className="self-start sm:self-center"
          aria-describedby={labelId}
          onClick={onRevoke}
        >
          Se déconnecter de cet appareil
        </Button>
      )}
    </li>
  );
}

/**
 * 'Appareils connectés': each signed-in device, 'Cet appareil' marked, the others can be signed out,
 * one by one or, from two of them, all at once.
 */
export function DevicesList() {
  const sessions = useAccountSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [pending, setPending] = useState<AccountSession | null>(null);
  const [pendingOthers, setPendingOthers] = useState(false);

  const confirm = () => {
    if (!pending) return;
    revoke.mutate(pending.id, {
      onSuccess: (result) => toast.success("Appareil déconnecté", { description: result.message }),
      onError: (error) =>
        toast.error("L'appareil n'a pas été déconnecté", {
          description: error instanceof Error ? error.message : undefined,
        }),
      onSettled: () => setPending(null),
    });
  };
  const confirmOthers = () => {
    revokeOthers.mutate(undefined, {
      onSuccess: (result) =>
        toast.success(result.revoked > 1 ? "Appareils déconnectés" : "Appareil déconnecté", {
          description: result.message,
        }),
      onError: (error) =>
        toast.error("Vos autres appareils n'ont pas été déconnectés", {
          description: error instanceof Error ? error.message : undefined,
        }),
      onSettled: () => setPendingOthers(false),
    });
  };

  if (sessions.isPending) {
    return (
      <div aria-busy="true">
        <span className="sr-only" role="status">
          Chargement des appareils...
        </span>
        {[0, 1].map((i) => (
          <div key={i} className="flex gap-3 py-4 first:pt-0">
            <Skeleton className="size-9 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-4 w-64 max-w-full" />
            </div>
          </div>
        ))}
      </div>
    );
  }
  if (sessions.isError) {
    return <LoadError title="Impossible d'afficher vos appareils." onRetry={() => void sessions.refetch()} />;
  }
  if (sessions.data.length === 0) {
    return <p className="text-slate-600">Aucun appareil n'est connecté à votre compte.</p>;
  }
  const others = sessions.data.filter((session) => !session.current).length;
  return (
    <>
      <ul aria-label="Appareils connectés" className="divide-y divide-slate-200">
        {sessions.data.map((session) => (
          <DeviceRow key={session.id} session={session} onRevoke={() => setPending(session)} />
        ))}
      </ul>
      {others >= 2 ? (
        <div className="mt-4 flex border-t border-slate-200 pt-4 sm:justify-end">
          <Button variant="outline" size="sm" onClick={() => setPendingOthers(true)}>
            Déconnecter les autres appareils
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={pendingOthers}
        onOpenChange={(open) => {
          if (!open && !revokeOthers.isPending) setPendingOthers(false);
        }}
        title="Déconnecter vos autres appareils ?"
        description={`Les ${others} autres appareils n'auront plus accès à votre compte : il faudra s'y reconnecter avec votre mot de passe. Cet appareil reste connecté.`}
        confirmLabel="Déconnecter les autres appareils"
        destructive
        loading={revokeOthers.isPending}
        onConfirm={confirmOthers}
      />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open && !revoke.isPending) setPending(null);
        }}
        title="Déconnecter cet appareil ?"
        description={`${pending?.device ?? "Cet appareil"} n'aura plus accès à votre compte : il faudra s'y reconnecter avec votre mot de passe.`}
        confirmLabel="Déconnecter l'appareil"
        destructive
        loading={revoke.isPending}
        onConfirm={confirm}
      />
    </>
  );
}
