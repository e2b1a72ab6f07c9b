import { zodResolver } from "@hookform/resolvers/zod";
import { Copy, Download } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { formatDetailDate } from "../../../shared/format/dates";
import { MESSAGES } from "../../../shared/schemas/common";
import {
  TWO_FACTOR_MESSAGES,
  type TwoFactorConfirmInput,
  type TwoFactorPasswordInput,
  type TwoFactorSetup,
  twoFactorConfirmSchema,
  twoFactorPasswordSchema,
} from "../../../shared/schemas/twoFactor";
import { useConfig } from "../../lib/config";
import { saveBlob } from "../../lib/download";
import { fieldProps, showFieldErrors } from "../../lib/form";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Checkbox } from "../ui/Checkbox";
import { ActionDialog, ConfirmDialog, DialogActions, DialogTrigger } from "../ui/Dialog";
import { InputField, PasswordField } from "../ui/FormField";
import { Label } from "../ui/Label";
import { LoadError } from "../ui/LoadError";
import { Loading } from "../ui/Loading";
import { Skeleton } from "../ui/Skeleton";
import { AccountCard } from "./AccountSection";
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useForgetRememberedDevices,
  useRenewBackupCodes,
  useTwoFactorSetup,
  useTwoFactorStatus,
} from "./securityApi";

/* 'Double authentification' of 'Sécurité' (ADR 098): a code of an authenticator app after the password. */

const QR_ALT = "QR code à scanner avec votre application d'authentification";
/** The dialogs with a QR code or ten codes may be taller than a phone's screen: they scroll. */
const TALL = "max-h-[calc(100dvh-2rem)] overflow-y-auto";

const failureOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : MESSAGES.internal;

/** A step of a dialog: its heading, then what it asks. */
function Step({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <h3 id={id} className="font-semibold text-slate-900">
        {title}
      </h3>
      {children}
    </section>
  );
}

/**
 * The password, which setting up, turning off and new recovery codes all ask: a wrong one under the
 * field, another refusal (too many tries, state changed meanwhile) above the buttons.
 */
function PasswordForm({
  email,
  name,
  submitLabel,
  destructive = false,
  onSubmit,
}: {
  email: string;
  /** The form's accessible name. */
  name: string;
  submitLabel: string;
  destructive?: boolean;
  onSubmit: (values: TwoFactorPasswordInput) => Promise<unknown>;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TwoFactorPasswordInput>({
    resolver: zodResolver(twoFactorPasswordSchema),
    defaultValues: { password: "" },
  });
  const field = fieldProps(form);
  const pending = form.formState.isSubmitting;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      if (!showFieldErrors(form, error, ["password"])) setFailure(failureOf(error));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={name} className="grid gap-4">
      {/* For password managers: which account this password belongs to (not shown, not focusable). */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordField label="Mot de passe" {...field("password")} />
      {failure ? <Alert variant="destructive">{failure}</Alert> : null}
      <DialogActions cancelDisabled={pending}>
        <Button type="submit" variant={destructive ? "destructive" : "primary"} loading={pending}>
          {submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}

/** The QR code of `uri`, drawn by uqr, loaded only when a dialog shows it (not in any page's bundle). */
function QrCode({ uri }: { uri: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    import("uqr").then(
      ({ renderSVG }) => current && setSvg(renderSVG(uri, { border: 4 })),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [uri]);
  if (failed) return <Alert>Le QR code n'a pas pu être affiché : saisissez la clé ci-dessous.</Alert>;
  if (!svg) return <Skeleton className="aspect-square w-full max-w-[200px]" />;
  return (
    <img
      src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
      alt={QR_ALT}
      className="aspect-square w-full max-w-[200px] rounded-ui bg-white p-2 ring-1 ring-slate-200"
    />
  );
}

/** Step 2 of turning it on: add the account to the app (QR code, key or link), then its first code. */
function ScanStep({
  setup,
  confirm,
  onConfirmed,
}: {
  setup: TwoFactorSetup;
  confirm: ReturnType<typeof useConfirmTwoFactor>;
  onConfirmed: () => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TwoFactorConfirmInput>({
    resolver: zodResolver(twoFactorConfirmSchema),
    defaultValues: { code: "" },
  });
  const field = fieldProps(form);
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await confirm.mutateAsync(values);
      toast.success(TWO_FACTOR_MESSAGES.enabled);
      onConfirmed();
    } catch (error) {
      if (!showFieldErrors(form, error, ["code"])) setFailure(failureOf(error));
    }
  });
  return (
    <>
      <p className="text-slate-700">
        Scannez ce QR code avec votre application d'authentification (Google Authenticator, Microsoft
        Authenticator, FreeOTP…).
      </p>
      <QrCode uri={setup.totp_uri} />
      <div className="grid gap-2 text-slate-700">
        <p>Vous ne pouvez pas scanner ? Saisissez cette clé dans l'application :</p>
        <p className="rounded-ui bg-slate-100 px-3 py-2 font-mono text-base tracking-wider text-slate-900 select-all">
          {setup.secret}
        </p>
        <a
          href={setup.totp_uri}
          className="justify-self-start font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900"
        >
          Ouvrir dans mon application
        </a>
      </div>
      <form
        onSubmit={submit}
        noValidate
        aria-label="Confirmer avec le code de l'application"
        className="grid gap-4"
      >
        <InputField
          label="Code affiché par l'application"
          required
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          {...field("code")}
        />
        {failure ? <Alert variant="destructive">{failure}</Alert> : null}
        <DialogActions cancelDisabled={confirm.isPending}>
          <Button type="submit" loading={confirm.isPending}>
            Activer
          </Button>
        </DialogActions>
      </form>
    </>
  );
}

/** The recovery codes, shown once: copy, download, and a box to tick before « Terminer ». */
function BackupCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  const [kept, setKept] = useState(false);
  const { brand_name: brand } = useConfig();
  const explanationId = useId();
  const boxId = useId();
  const list = codes.join("\n");

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(list);
      toast.success("Codes de secours copiés");
    } catch {
      toast.error("Les codes n'ont pas été copiés", {
        description: "Sélectionnez-les pour les copier, ou téléchargez-les.",
      });
    }
  };
  const download = () => {
    const header = `Codes de secours de votre compte ${brand} (${email}), créés le ${formatDetailDate(new Date())}.`;
    const text = `${header}\nChaque code permet une seule connexion.\n\n${list}\n`;
    saveBlob(new Blob([text], { type: "text/plain;charset=utf-8" }), "sourio-codes-de-secours.txt");
  };

  return (
    <>
      <p id={explanationId} className="text-slate-700">
        Chaque code permet une seule connexion si vous n'avez plus votre téléphone. Gardez-les en lieu sûr :
        ils ne seront plus affichés.
      </p>
      <ul
        aria-label="Codes de secours"
        className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-ui border border-slate-200 bg-slate-50 p-4 font-mono text-base text-slate-900 tabular-nums"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" autoFocus aria-describedby={explanationId} onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copier les codes
        </Button>
        <Button variant="outline" onClick={download}>
          <Download aria-hidden="true" />
          Télécharger (.txt)
        </Button>
      </div>
      <div className="flex items-center gap-2">
        <Checkbox id={boxId} checked={kept} onCheckedChange={(checked) => setKept(checked === true)} />
        <Label htmlFor={boxId} className="font-normal text-slate-700">
          J'ai mis ces codes en lieu sûr
        </Label>
      </div>
      <div className="flex justify-end">
        <Button disabled={!kept} onClick={onDone} className="w-full sm:w-auto">
          Terminer
        </Button>
      </div>
    </>
  );
}

interface DialogProps {
  email: string;
  /** The dialog stays mounted when its button goes (turned on or off while it is open). */
  showTrigger: boolean;
  /** On close, when its button has gone: gives the focus to the first button shown now. */
  refocus: (event: Event) => void;
}

/** « Activer la double authentification »: password, then the app, then the recovery codes. */
function EnableDialog({ email, showTrigger, refocus }: DialogProps) {
  const [open, setOpen] = useState(false);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const start = useTwoFactorSetup();
  const confirm = useConfirmTwoFactor();
  const onOpenChange = (next: boolean) => {
    // Not while a step is on its way: its answer decides what comes next.
    if (start.isPending || confirm.isPending) return;
    setOpen(next);
    // Closed before the code: nothing is on, the next try starts again (a new secret).
    if (!next) {
      setSetup(null);
      setConfirmed(false);
    }
  };
  const step = !setup ? (
    <Step title="Étape 1 sur 3 : votre mot de passe">
      <PasswordForm
        email={email}
        name="Confirmer votre mot de passe"
        submitLabel="Continuer"
        onSubmit={async (values) => setSetup(await start.mutateAsync(values))}
      />
    </Step>
  ) : !confirmed ? (
    <Step title="Étape 2 sur 3 : votre application">
      <ScanStep setup={setup} confirm={confirm} onConfirmed={() => setConfirmed(true)} />
    </Step>
  ) : (
    <Step title="Étape 3 sur 3 : vos codes de secours">
      <BackupCodes codes={setup.backup_codes} email={email} onDone={() => onOpenChange(false)} />
    </Step>
  );
  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        showTrigger ? (
          <DialogTrigger asChild>
            <Button className="w-full sm:w-auto">Activer la double authentification</Button>
          </DialogTrigger>
        ) : null
      }
      title="Activer la double authentification"
      description="Il vous faut votre téléphone, avec une application d'authentification installée."
      className={TALL}
      onCloseAutoFocus={showTrigger ? undefined : refocus}
    >
      {step}
    </ActionDialog>
  );
}

/** « Nouveaux codes de secours »: password, then the ten new codes (the old ones stop working). */
function RenewCodesDialog({ email, showTrigger, refocus }: DialogProps) {
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const renew = useRenewBackupCodes();
  const onOpenChange = (next: boolean) => {
    if (renew.isPending) return;
    setOpen(next);
    if (!next) setCodes(null);
  };
  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        showTrigger ? (
          <DialogTrigger asChild>
            <Button variant="outline" className="w-full sm:w-auto">
              Nouveaux codes de secours
            </Button>
          </DialogTrigger>
        ) : null
      }
      title="Nouveaux codes de secours"
      description="Dix nouveaux codes remplacent les anciens, qui ne fonctionneront plus."
      className={TALL}
      onCloseAutoFocus={showTrigger ? undefined : refocus}
    >
      {codes ? (
        <Step title="Étape 2 sur 2 : vos nouveaux codes">
          <BackupCodes codes={codes} email={email} onDone={() => onOpenChange(false)} />
        </Step>
      ) : (
        <Step title="Étape 1 sur 2 : votre mot de passe">
          <PasswordForm
            email={email}
            name="Confirmer votre mot de passe"
            submitLabel="Créer de nouveaux codes"
            onSubmit={async (values) => {
              const result = await renew.mutateAsync(values);
              toast.success(result.message);
              setCodes(result.backup_codes);
            }}
          />
        </Step>
      )}
    </ActionDialog>
  );
}

/** « Désactiver »: the password, after the warning. */
function DisableDialog({ email, showTrigger, refocus }: DialogProps) {
  const [open, setOpen] = useState(false);
  const disable = useDisableTwoFactor();
  // Turned off: the dialog closes with the render that takes its button away.
  if (open && !showTrigger) setOpen(false);
  return (
    <ActionDialog
      open={open}
      onOpenChange={(next) => {
        if (!disable.isPending) setOpen(next);
      }}
      trigger={
        showTrigger ? (
          <DialogTrigger asChild>
            <Button variant="destructive" className="w-full sm:w-auto">
              Désactiver
            </Button>
          </DialogTrigger>
        ) : null
      }
      title="Désactiver la double authentification ?"
      description="Votre compte ne sera plus protégé que par votre mot de passe."
      onCloseAutoFocus={showTrigger ? undefined : refocus}
    >
      <PasswordForm
        email={email}
        name="Désactiver la double authentification"
        submitLabel="Désactiver"
        destructive
        onSubmit={async (values) => toast.success((await disable.mutateAsync(values)).message)}
      />
    </ActionDialog>
  );
}

/**
 * The devices where « Ne plus demander de code sur cet appareil » was ticked, and the way to have the
 * code asked again on all of them (a laptop lost or left behind), after a confirmation.
 */
function RememberedDevices({ count }: { count: number }) {
  const [open, setOpen] = useState(false);
  const forget = useForgetRememberedDevices();
  if (count === 0) return null;
  return (
    <div className="grid gap-2 rounded-ui border border-slate-200 p-4 text-slate-700">
      <p>
        {count > 1
          ? `${count} appareils ne vous demandent plus de code`
          : "1 appareil ne vous demande plus de code"}{" "}
        pendant 30 jours (« Ne plus demander de code sur cet appareil »). Votre mot de passe y reste demandé.
      </p>
      <Button variant="outline" className="justify-self-start" onClick={() => setOpen(true)}>
        Redemander le code sur ces appareils
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!forget.isPending) setOpen(next);
        }}
        title="Redemander le code sur ces appareils ?"
        description="À leur prochaine connexion, ces appareils (celui-ci compris s'il en fait partie) demanderont de nouveau un code de votre application après le mot de passe."
        confirmLabel="Redemander le code"
        loading={forget.isPending}
        onConfirm={() =>
          forget.mutate(undefined, {
            onSuccess: (result) => {
              toast.success(result.message);
              setOpen(false);
            },
            onError: (error) => toast.error(failureOf(error)),
          })
        }
      />
    </div>
  );
}

/** The state, and the buttons that change it; the dialogs stay mounted while the state changes. */
function TwoFactorState({ email }: { email: string }) {
  const status = useTwoFactorStatus();
  const actions = useRef<HTMLDivElement>(null);
  if (!status.data) {
    return status.isError ? (
      <LoadError
        title="Impossible d'afficher l'état de la double authentification."
        onRetry={() => void status.refetch()}
      />
    ) : (
      <Loading className="grid gap-4">
        <Skeleton className="h-6 w-40" />
        <Skeleton className="h-10 w-72 max-w-full" />
      </Loading>
    );
  }
  const enabled = status.data.enabled;
  const refocus = (event: Event) => {
    event.preventDefault();
    actions.current?.querySelector("button")?.focus();
  };
  return (
    <>
      <p className="flex items-center gap-2 text-slate-700">
        État :
        {enabled ? <Badge tone="green">Activée</Badge> : <Badge tone="gray">Désactivée</Badge>}
      </p>
      <div ref={actions} className="flex flex-wrap gap-3">
        <EnableDialog email={email} showTrigger={!enabled} refocus={refocus} />
        <RenewCodesDialog email={email} showTrigger={enabled} refocus={refocus} />
        <DisableDialog email={email} showTrigger={enabled} refocus={refocus} />
      </div>
      {enabled ? <RememberedDevices count={status.data.remembered_devices} /> : null}
    </>
  );
}

/** 'Double authentification': whether it is on, and the dialogs to turn it on or off, or renew the codes. */
export function TwoFactorCard({ email }: { email: string }) {
  return (
    <AccountCard
      title="Double authentification"
      description="Un code de votre téléphone, en plus du mot de passe, à chaque connexion : même avec votre mot de passe, personne ne peut ouvrir votre compte sans votre téléphone."
      contentClassName="grid gap-4"
    >
      <TwoFactorState email={email} />
    </AccountCard>
  );
}
