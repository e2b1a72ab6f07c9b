import {
  BadgeCheck,
  Ban,
  CalendarClock,
  KeyRound,
  RotateCcw,
  SearchX,
  ShieldOff,
  Trash2,
} from "lucide-react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { formatDetailDate, formatListDate } from "../../../shared/format/dates";
import { ofName } from "../../../shared/format/names";
import { addDays, parisToday } from "../../../shared/format/paris";
import { listFr } from "../../../shared/forms/profileForm";
import { missingVerifiedFields, type VerificationField } from "../../../shared/policies/verification";
import { ERASED_NAME } from "../../../shared/schemas/account";
import {
  ADMIN_MESSAGES,
  type AdminUser,
  SUSPENSION_MAX_DAYS,
  suspensionEndIssues,
  suspensionEndSchema,
  suspensionSchema,
} from "../../../shared/schemas/admin";
import { Alert } from "../../components/ui/Alert";
import { Badge, type BadgeTone } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Checkbox } from "../../components/ui/Checkbox";
import { type Column, ListPagination, QueryTable } from "../../components/ui/DataTable";
import { ActionDialog, ConfirmDialog, DialogActions } from "../../components/ui/Dialog";
import { EmptyState } from "../../components/ui/EmptyState";
import { FormField } from "../../components/ui/FormField";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { SearchField } from "../../components/ui/SearchInput";
import { Textarea } from "../../components/ui/Textarea";
import { isApiError } from "../../lib/api";
import { loadFailure, RefreshButton, toastDecision, usePagedList } from "./AdminParts";
import {
  type UserRole,
  useAdminUsers,
  useEraseUser,
  useRemoveTwoFactor,
  useSuspension,
  useSuspensionEnd,
} from "./api";
import { useVerifyDentist } from "./useVerifyDentist";
import { VerificationReasonDialog } from "./VerificationReasonDialog";

const STATE_BADGES: Record<AdminUser["verification_state"], { tone: BadgeTone; label: string }> = {
  verified: { tone: "green", label: "Vérifié" },
  requested: { tone: "yellow", label: "Demande en attente" },
  refused: { tone: "red", label: "Refusé" },
  withdrawn: { tone: "red", label: "Vérification retirée" },
  none: { tone: "gray", label: "Non vérifié" },
};

export function VerificationBadge({ state }: { state: AdminUser["verification_state"] }) {
  const badge = STATE_BADGES[state];
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}

const TEXTS: Record<UserRole, { title: string; caption: string; search: string }> = {
  dentist: { title: "Dentistes", caption: "Dentistes inscrits", search: "Rechercher un dentiste" },
  patient: { title: "Patients", caption: "Patients inscrits", search: "Rechercher un patient" },
};

/**
 * The dentists or patients table of /admin/dashboard: a global search (server-side, after a pause
 * in typing), a refresh button, pages of 10 and 'Aucun résultat'; dentists have 'Vérifier' behind
 * a confirmation and 'Retirer la vérification' with the reason he reads (VerificationReasonDialog,
 * ADR 093's addendum); every row has 'Suspendre' (with a reason the person
 * reads) or, once suspended, 'Rétablir' (ADR 092) — a suspended person's name carries the
 * « Suspendu » badge, the date and the reason — and 'Supprimer le compte' (at the person's
 * request, RGPD art. 17), each behind its own confirmation.
 */
export function UsersSection({ kind: role }: { kind: UserRole }) {
  const texts = TEXTS[role];
  const headingId = useId();
  const list = usePagedList({ suspended: false });
  const suspendedId = useId();
  const [pending, setPending] = useState<AdminUser | null>(null);
  const [withdrawing, setWithdrawing] = useState<AdminUser | null>(null);
  const [erasing, setErasing] = useState<AdminUser | null>(null);
  const [suspending, setSuspending] = useState<AdminUser | null>(null);
  const [reinstating, setReinstating] = useState<AdminUser | null>(null);
  const [dating, setDating] = useState<AdminUser | null>(null);
  const [unlocking, setUnlocking] = useState<AdminUser | null>(null);
  const users = useAdminUsers(role, list.search, list.page, list.filters.suspended);
  const { verify, verifying } = useVerifyDentist(() => setPending(null));
  const reinstate = useSuspension();
  const removeTwoFactor = useRemoveTwoFactor();

  useEffect(() => {
    if (users.isError) toast.error(ADMIN_MESSAGES.usersFailed, { id: "admin-users" });
  }, [users.isError]);

  const confirmReinstate = () => {
    if (!reinstating) return;
    reinstate.mutate(
      { id: reinstating.id, suspend: false },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          setReinstating(null);
        },
        onError: (error) => {
          toast.error(ADMIN_MESSAGES.suspensionFailed, { description: error.message });
          // An account gone since: nothing to try again. A failure of the network keeps it open.
          if (isApiError(error) && error.status === 404) setReinstating(null);
        },
      },
    );
  };

  const confirmRemoveTwoFactor = () => {
    if (!unlocking) return;
    removeTwoFactor.mutate(unlocking.id, {
      onSuccess: (result) => {
        toast.success(result.message);
        setUnlocking(null);
      },
      onError: (error) => {
        toast.error(ADMIN_MESSAGES.twoFactorFailed, { description: error.message });
        // Removed meanwhile, or the account gone: nothing to try again. The network: it stays open.
        if (isApiError(error) && (error.status === 404 || error.status === 409)) setUnlocking(null);
      },
    });
  };

  const columns: Column<AdminUser>[] = [
    { header: "Nom", cell: (u) => <NameCell user={u} /> },
    // A narrow column breaks an address after its « @ » (the domain on the next line), never mid-word.
    {
      header: "E-mail",
      cell: (u) => {
        const at = u.email.lastIndexOf("@");
        return at < 0 ? (
          <span className="break-all">{u.email}</span>
        ) : (
          <span className="break-words">
            {u.email.slice(0, at + 1)}
            <wbr />
            {u.email.slice(at + 1)}
          </span>
        );
      },
    },
    ...(role === "dentist"
      ? [
          {
            header: "Vérification",
            cell: (u: AdminUser) => <VerificationBadge state={u.verification_state} />,
            className: "whitespace-nowrap",
          },
        ]
      : []),
    {
      header: "Inscription",
      cell: (u) => formatListDate(u.created_at),
      className: "whitespace-nowrap",
    },
    {
      header: "Actions",
      hideLabelInCard: true,
      cell: (u: AdminUser) => {
        // Nothing to check yet: the server would refuse « Vérifier » (ADR 075).
        const missing = role === "dentist" && !u.is_verified ? missingVerifiedFields(u) : [];
        return (
          <div className="flex flex-wrap gap-2">
            {missing.length > 0 ? (
              <span className="self-center text-sm text-slate-600">
                Dossier incomplet : {listFr(missing.map((f) => MISSING_FOR_ADMIN[f]))} à renseigner par le
                dentiste
              </span>
            ) : role === "dentist" && !u.suspended_at ? (
              // Suspended: « Rétablir » first; the server refuses to verify him meanwhile (ADR 092).
              <Button
                variant={u.is_verified ? "outline" : "primary"}
                size="sm"
                aria-label={
                  u.is_verified
                    ? `Retirer la vérification ${ofName(u.full_name || u.email)}`
                    : `Vérifier ${u.full_name || u.email}`
                }
                onClick={() => (u.is_verified ? setWithdrawing(u) : setPending(u))}
              >
                {u.is_verified ? <ShieldOff aria-hidden="true" /> : <BadgeCheck aria-hidden="true" />}
                {u.is_verified ? "Retirer la vérification" : "Vérifier"}
              </Button>
            ) : null}
            <Button
              variant={u.suspended_at ? "outline" : "destructive-ghost"}
              size="sm"
              aria-label={`${u.suspended_at ? "Rétablir" : "Suspendre"} le compte ${ofName(u.full_name || u.email)}`}
              onClick={() => (u.suspended_at ? setReinstating(u) : setSuspending(u))}
            >
              {u.suspended_at ? <RotateCcw aria-hidden="true" /> : <Ban aria-hidden="true" />}
              {u.suspended_at ? "Rétablir" : "Suspendre"}
            </Button>
            {u.suspended_at ? (
              <Button
                variant="outline"
                size="sm"
                aria-label={`Changer la date de fin de la suspension ${ofName(u.full_name || u.email)}`}
                onClick={() => setDating(u)}
              >
                <CalendarClock aria-hidden="true" />
                Date de fin
              </Button>
            ) : null}
            {u.two_factor_enabled ? (
              <Button
                variant="outline"
                size="sm"
                aria-label={`Retirer la double authentification ${ofName(u.full_name || u.email)}`}
                onClick={() => setUnlocking(u)}
              >
                <KeyRound aria-hidden="true" />
                Retirer la double authentification
              </Button>
            ) : null}
            <Button
              variant="destructive-ghost"
              size="sm"
              aria-label={`Supprimer le compte ${ofName(u.full_name || u.email)}`}
              onClick={() => setErasing(u)}
            >
              <Trash2 aria-hidden="true" />
              Supprimer le compte
            </Button>
          </div>
        );
      },
    },
  ];

  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          {texts.title}
        </h2>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <SearchField
          className="flex-1"
          label={texts.search}
          placeholder="Nom ou e-mail"
          value={list.typed}
          onValueChange={list.setTyped}
        />
        <RefreshButton query={users} label={`Actualiser la liste des ${texts.title.toLowerCase()}`} />
      </div>
      <div className="flex items-center gap-2">
        <Checkbox
          id={suspendedId}
          checked={list.filters.suspended}
          onCheckedChange={(value) => list.setFilter("suspended", value === true)}
        />
        <Label htmlFor={suspendedId} className="text-sm font-normal">
          Comptes suspendus seulement
        </Label>
      </div>
      <QueryTable
        caption={texts.caption}
        columns={columns}
        query={users}
        loadingRows={10}
        error={loadFailure(users, ADMIN_MESSAGES.usersFailed)}
        empty={
          <EmptyState
            as="h3"
            icon={SearchX}
            title={
              list.filters.suspended && !list.search ? ADMIN_MESSAGES.noSuspended : ADMIN_MESSAGES.noResult
            }
          />
        }
      />
      <ListPagination page={list.page} hasMore={users.data?.has_more} onPageChange={list.setPage} />
      {role === "dentist" ? (
        <ConfirmDialog
          open={pending !== null}
          onOpenChange={(open) => {
            if (!open) setPending(null);
          }}
          title="Vérifier ce dentiste ?"
          description={pending && <VerifyDescription dentist={pending} />}
          confirmLabel="Vérifier"
          loading={verifying}
          onConfirm={() => pending && verify(pending)}
        />
      ) : null}
      {role === "dentist" ? (
        <VerificationReasonDialog
          dentistId={withdrawing?.id ?? null}
          decision="unverify"
          title="Retirer la vérification ?"
          description={
            withdrawing
              ? `${withdrawing.full_name} ne verra plus les demandes des patients, ses conversations ni ses rendez-vous, dès maintenant\u202f; les patients ne pourront plus accepter ses propositions ni prendre rendez-vous dans son cabinet. Son abonnement, s'il en a un, n'est plus renouvelé\u202f: il prend fin avec la période payée. Un e-mail lui dira la raison.`
              : undefined
          }
          label="Raison du retrait (le dentiste la lira)"
          submitLabel="Retirer la vérification"
          onClose={() => setWithdrawing(null)}
        />
      ) : null}
      <SuspendDialog user={suspending} onClose={() => setSuspending(null)} />
      <SuspensionEndDialog user={dating} onClose={() => setDating(null)} />
      <ConfirmDialog
        open={reinstating !== null}
        onOpenChange={(open) => {
          if (!open && !reinstate.isPending) {
            reinstate.reset();
            setReinstating(null);
          }
        }}
        title={`Rétablir le compte ${ofName(reinstating ? reinstating.full_name || reinstating.email : "")} ?`}
        description={reinstating && <ReinstateDescription user={reinstating} />}
        confirmLabel="Rétablir le compte"
        loading={reinstate.isPending}
        onConfirm={confirmReinstate}
      />
      <ConfirmDialog
        open={unlocking !== null}
        onOpenChange={(open) => {
          if (!open && !removeTwoFactor.isPending) setUnlocking(null);
        }}
        title={`Retirer la double authentification ${ofName(unlocking ? unlocking.full_name || unlocking.email : "")} ?`}
        description={`Seulement à la demande de la personne qui a perdu son téléphone et ses codes de secours, après avoir vérifié que c'est bien elle (par exemple en la rappelant au numéro de son compte ou de son cabinet). Ses appareils seront déconnectés ; elle se connectera avec son mot de passe seul et en sera prévenue par e-mail.`}
        confirmLabel="Retirer la double authentification"
        destructive
        loading={removeTwoFactor.isPending}
        onConfirm={confirmRemoveTwoFactor}
      />
      <EraseUserDialog user={erasing} onClose={() => setErasing(null)} />
    </section>
  );
}

/**
 * The « Nom » cell: the name and, for a suspended account (ADR 092), the « Suspendu » badge, the
 * date, the day it ends if the team chose one, and the reason the person was given (two lines here,
 * in full in « Rétablir »'s dialog).
 */
function NameCell({ user }: { user: AdminUser }) {
  return (
    <div className="grid gap-1">
      <span className="inline-flex flex-wrap items-center gap-2">
        <span className="font-medium">{user.full_name || "—"}</span>
        {user.suspended_at ? <Badge tone="red">Suspendu</Badge> : null}
        {user.two_factor_enabled ? <Badge tone="green">Double authentification</Badge> : null}
      </span>
      {user.suspended_at ? (
        <p className="text-sm text-slate-600">Suspendu le {formatDetailDate(user.suspended_at)}</p>
      ) : null}
      {user.suspended_at && user.suspension_ends_at ? (
        <p className="text-sm text-slate-600">
          Rétabli automatiquement le {formatDetailDate(user.suspension_ends_at)}
        </p>
      ) : null}
      {user.suspended_at && user.suspension_reason ? (
        <p
          className="line-clamp-2 max-w-prose break-words text-sm text-slate-600"
          title={user.suspension_reason}
        >
          Raison : {user.suspension_reason}
        </p>
      ) : null}
    </div>
  );
}

/** What an unverified dentist has not given yet, as the dentists' table says it. */
const MISSING_FOR_ADMIN: Record<VerificationField, string> = {
  rpps: "numéro RPPS",
  practice_address: "adresse du cabinet",
  practice_postcode: "code postal",
};

/** « Vérifier ce dentiste ? »: the RPPS number and practice the badge will stand for (ADR 076). */
function VerifyDescription({ dentist }: { dentist: AdminUser }) {
  const given = (value: string | null) => value?.trim() || "non renseigné";
  return (
    <>
      Numéro RPPS : <strong>{given(dentist.rpps)}</strong>. Cabinet :{" "}
      <strong>
        {given(dentist.practice_address)}, {given(dentist.practice_postcode)}
      </strong>
      . Vérifiez-les avant de confirmer. {dentist.full_name} pourra voir les demandes des patients et leur
      répondre. Un e-mail lui sera envoyé.
    </>
  );
}

/** A dialog one row's button opens for its person (one dialog for the table). */
interface RowDialogProps {
  user: AdminUser | null;
  onClose: () => void;
}

/**
 * 'Supprimer le compte' of a patient or a dentist, on the person's request (RGPD art. 17): names
 * the person, says what goes and that the erasure is recorded in the audit log; a refusal of the
 * server (an appointment to come, an account already gone) stays in the dialog.
 */
function EraseUserDialog({ user, onClose }: RowDialogProps) {
  const erase = useEraseUser();
  const person = user ? user.full_name || user.email : "";

  const onOpenChange = (open: boolean) => {
    if (open || erase.isPending) return;
    erase.reset();
    onClose();
  };

  const confirm = () => {
    if (!user) return;
    erase.mutate(user.id, {
      onSuccess: (result) => {
        toast.success(result.message);
        erase.reset();
        onClose();
      },
    });
  };

  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={onOpenChange}
      title={`Supprimer le compte ${ofName(person)} ?`}
      description={
        <>
          À faire seulement à la demande de la personne ({user?.email}). Son profil,{" "}
          {user?.role === "dentist" ? "ses propositions non acceptées" : "ses demandes"}, ses documents et le
          texte de ses messages seront effacés ; ce qui concerne aussi d'autres personnes reste, sous le nom
          «&nbsp;{ERASED_NAME}&nbsp;». Elle recevra un e-mail de confirmation. La suppression est inscrite au
          journal d'audit à votre nom. Cette action est définitive.
        </>
      }
    >
      {erase.isError ? <Alert variant="destructive">{erase.error.message}</Alert> : null}
      <DialogActions cancelDisabled={erase.isPending}>
        <Button variant="destructive" loading={erase.isPending} onClick={confirm}>
          Supprimer le compte
        </Button>
      </DialogActions>
    </ActionDialog>
  );
}

/** « Rétablir le compte de … ? »: what lifting the suspension gives back, and what it does not. */
function ReinstateDescription({ user }: { user: AdminUser }) {
  const person = user.full_name || user.email;
  return (
    <>
      {person} pourra de nouveau se connecter ; un e-mail le lui dira.{" "}
      {user.role === "dentist"
        ? "Une vérification retirée par la suspension n'est pas rendue : les demandes des patients ne lui seront montrées qu'après un nouveau « Vérifier » de l'équipe."
        : "Ses demandes annulées par la suspension restent annulées."}
      {user.suspension_reason ? (
        <span className="mt-2 block whitespace-pre-line wrap-anywhere">
          Raison de la suspension : {user.suspension_reason}
        </span>
      ) : null}
    </>
  );
}

/** « Suspendre le compte de … ? »: what a suspension does to this person, by role (ADR 092). */
function SuspendDescription({ user }: { user: AdminUser }) {
  const person = user.full_name || user.email;
  return (
    <>
      {person} ne pourra plus se connecter, et ses sessions sont fermées sur tous ses appareils dès
      maintenant.{" "}
      {user.role === "patient"
        ? "Ses demandes nouvelles ou en cours sont annulées, et les dentistes dont la proposition attendait sa réponse reçoivent un message."
        : user.is_verified
          ? "Sa vérification lui est retirée : les demandes des patients ne lui sont plus montrées, son profil n'est plus montré aux patients, et rétablir le compte ne la rend pas."
          : null}{" "}
      {user.role === "dentist"
        ? "Son abonnement, s'il en a un, n'est plus renouvelé : il prend fin avec la période payée."
        : null}{" "}
      Un e-mail lui donne la raison ci-dessous. La suspension est inscrite au journal d'audit à votre nom ;
      «&nbsp;Rétablir&nbsp;» la lève, ou, si vous choisissez un jour de fin, elle est levée ce jour-là.
    </>
  );
}

/** The suspension form's refusals, under their field. */
type SuspensionErrors = { reason?: string | undefined; ends_on?: string | undefined };

/** The first refusal of each field (the reason and the end day), as the server names them. */
function fieldErrors(issues: readonly { path: readonly string[]; message: string }[]): SuspensionErrors {
  const errors: SuspensionErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if ((field === "reason" || field === "ends_on") && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * « Suspendre » a patient or a dentist (ADR 092): says what happens, asks the reason the person
 * will read and, if the team wants one, the day it ends (ADR 092's addendum) — checked as the
 * server checks them (suspensionSchema, suspensionEndIssues): its own refusal of a field goes
 * under it, any other one stays in the dialog.
 */
function SuspendDialog({ user, onClose }: RowDialogProps) {
  const suspend = useSuspension();
  const [reason, setReason] = useState("");
  const [endsOn, setEndsOn] = useState("");
  const [errors, setErrors] = useState<SuspensionErrors>({});
  const person = user ? user.full_name || user.email : "";
  const failure = suspend.error;
  const serverError =
    failure && !(isApiError(failure) && (failure.fields.reason || failure.fields.ends_on))
      ? failure.message
      : null;

  const close = () => {
    setReason("");
    setEndsOn("");
    setErrors({});
    suspend.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!user || suspend.isPending) return;
    const parsed = suspensionSchema.safeParse({ reason, ends_on: endsOn || null });
    const issues = parsed.success
      ? suspensionEndIssues(parsed.data.ends_on, new Date())
      : parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
    if (!parsed.success || issues.length > 0) {
      setErrors(fieldErrors(issues));
      return;
    }
    suspend.mutate(
      { id: user.id, suspend: true, reason: parsed.data.reason, endsOn: parsed.data.ends_on },
      {
        onSuccess: (result) => {
          toastDecision(result);
          close();
        },
        onError: (refusal) => {
          if (isApiError(refusal))
            setErrors({ reason: refusal.fields.reason, ends_on: refusal.fields.ends_on });
        },
      },
    );
  };

  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open && !suspend.isPending) close();
      }}
      title={`Suspendre le compte ${ofName(person)} ?`}
      description={user && <SuspendDescription user={user} />}
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label="Raison de la suspension (la personne la lira)" required error={errors.reason}>
          {(control) => (
            <Textarea
              {...control}
              value={reason}
              maxLength={1000}
              onChange={(event) => {
                setReason(event.target.value);
                setErrors((current) => ({ ...current, reason: undefined }));
              }}
            />
          )}
        </FormField>
        <SuspensionEndField
          value={endsOn}
          error={errors.ends_on}
          onChange={(value) => {
            setEndsOn(value);
            setErrors((current) => ({ ...current, ends_on: undefined }));
          }}
        />
        {serverError ? <Alert variant="destructive">{serverError}</Alert> : null}
        <DialogActions cancelDisabled={suspend.isPending}>
          <Button type="submit" variant="destructive" loading={suspend.isPending}>
            Suspendre le compte
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}

/**
 * The day a suspension is lifted by itself (ADR 092's addendum): from tomorrow in Paris to a year
 * away, empty for none; at suspension and when the team changes it.
 */
function SuspensionEndField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const today = parisToday(new Date());
  return (
    <FormField
      label="Rétablir automatiquement le (facultatif)"
      description="Le compte est rétabli ce jour-là à 0 h, heure de Paris, et la personne reçoit un e-mail. Sans date, il reste suspendu jusqu'à ce que l'équipe le rétablisse."
      error={error}
    >
      {(control) => (
        <Input
          {...control}
          type="date"
          className="sm:max-w-56"
          min={addDays(today, 1)}
          max={addDays(today, SUSPENSION_MAX_DAYS)}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/**
 * « Date de fin » of a suspended account (ADR 092's addendum of 06/12): the day it is lifted by
 * itself, moved or emptied (none: the team lifts it), checked as the server checks it; the person is
 * e-mailed the change. Its own refusal of the day goes under the field, any other one (lifted
 * meanwhile) stays in the dialog.
 */
function SuspensionEndDialog({ user, onClose }: RowDialogProps) {
  const change = useSuspensionEnd();
  const [endsOn, setEndsOn] = useState("");
  const [error, setError] = useState<string | undefined>();
  const person = user ? user.full_name || user.email : "";
  const current = user?.suspension_ends_at ? parisToday(new Date(user.suspension_ends_at)) : "";
  const failure = change.error;
  const serverError = failure && !(isApiError(failure) && failure.fields.ends_on) ? failure.message : null;

  // Opened on a row: the field starts from its day.
  useEffect(() => {
    setEndsOn(current);
  }, [current]);

  const close = () => {
    setError(undefined);
    change.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!user || change.isPending) return;
    const parsed = suspensionEndSchema.safeParse({ ends_on: endsOn || null });
    const issues = parsed.success
      ? suspensionEndIssues(parsed.data.ends_on, new Date())
      : parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
    if (!parsed.success || issues.length > 0) {
      setError(issues[0]?.message);
      return;
    }
    change.mutate(
      { id: user.id, endsOn: parsed.data.ends_on },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          close();
        },
        onError: (refusal) => {
          if (isApiError(refusal)) setError(refusal.fields.ends_on);
        },
      },
    );
  };

  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open && !change.isPending) close();
      }}
      title={`Fin de la suspension du compte ${ofName(person)}`}
      description={
        current
          ? `Le compte ${ofName(person)} sera rétabli le ${formatDetailDate(user?.suspension_ends_at ?? "")}. Choisissez un autre jour, ou videz le champ pour qu'il reste suspendu jusqu'à ce que l'équipe le rétablisse ; un e-mail le dira à la personne.`
          : `Le compte ${ofName(person)} reste suspendu jusqu'à ce que l'équipe le rétablisse. Choisissez le jour où il le sera de lui-même ; un e-mail le dira à la personne.`
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <SuspensionEndField
          value={endsOn}
          error={error}
          onChange={(value) => {
            setEndsOn(value);
            setError(undefined);
          }}
        />
        {serverError ? <Alert variant="destructive">{serverError}</Alert> : null}
        <DialogActions cancelDisabled={change.isPending}>
          <Button type="submit" loading={change.isPending}>
            Enregistrer
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}
