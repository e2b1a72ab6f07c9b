import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { flushSync } from "react-dom";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import {
  type AccountErasureInput,
  accountErasureSchema,
  ERASED_MESSAGE_BODY,
  ERASED_NAME,
  ERASURE_MESSAGES,
} from "../../../shared/schemas/account";
import { isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { fieldProps } from "../../lib/form";
import { clearSessionCache, refreshSession, useSession } from "../../lib/session";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { ActionDialog, DialogActions, DialogTrigger } from "../ui/Dialog";
import { PasswordField } from "../ui/FormField";
import { AccountCard } from "./AccountSection";
import { useEraseAccount } from "./erasureApi";

const EMPTY: AccountErasureInput = { password: "" };
/** Shown when the erasure fails without a message of the server (should not happen). */
const ERASURE_FAILED = "Votre compte n'a pas été supprimé. Veuillez réessayer dans quelques instants.";

/** What the erasure deletes and keeps (RGPD art. 17), in the words of the person it concerns. */
function ErasureExplanation({ dentist }: { dentist: boolean }) {
  const { brand_name: brand } = useConfig();
  return (
    <div className="grid gap-4 text-sm text-slate-700">
      <div className="grid gap-1.5">
        <h4 className="font-semibold text-slate-900">Ce qui est effacé</h4>
        <ul className="grid list-disc gap-1 pl-5">
          <li>votre profil, votre photo, votre mot de passe et vos connexions sur tous vos appareils ;</li>
          <li>
            {dentist
              ? "vos propositions non acceptées, vos documents et les fichiers que vous avez envoyés ;"
              : "vos demandes de devis, vos documents et les fichiers que vous avez envoyés ;"}
          </li>
          <li>
            le texte et les pièces jointes de vos messages : vos interlocuteurs verront «&nbsp;
            {ERASED_MESSAGE_BODY}&nbsp;» à leur place ;
          </li>
          <li>
            {dentist
              ? "les avis de patients publiés sur vous, vos réponses et vos signalements ;"
              : "les avis que vous avez donnés sur des dentistes, publiés ou non ;"}
          </li>
          <li>
            {dentist
              ? "les messages envoyés avec votre adresse e-mail depuis le formulaire de contact."
              : "votre conversation avec notre équipe d'assistance et les messages envoyés avec votre adresse e-mail depuis le formulaire de contact."}
          </li>
        </ul>
      </div>
      <div className="grid gap-1.5">
        <h4 className="font-semibold text-slate-900">Ce qui est conservé, sans votre nom</h4>
        <p>
          Ces éléments concernent aussi d'autres personnes ; votre nom y est remplacé par «&nbsp;{ERASED_NAME}
          &nbsp;» :
        </p>
        <ul className="grid list-disc gap-1 pl-5">
          {dentist ? (
            <li>
              les propositions que des patients ont acceptées : elles font partie de leur dossier de soins ;
            </li>
          ) : (
            <li>
              une demande dont vous avez accepté une proposition, sans sa description, son devis ni ses
              documents : le montant accepté reste dans la comptabilité du dentiste ;
            </li>
          )}
          <li>les messages de vos interlocuteurs et les rendez-vous passés ;</li>
          <li>le journal des accès et des actions, gardé pour la sécurité du service.</li>
        </ul>
        {dentist && (
          <p>
            Votre abonnement {brand}, s'il est en cours, est résilié immédiatement auprès de notre prestataire
            de paiement, avant la suppression : plus aucun paiement ne sera prélevé.
          </p>
        )}
        {dentist && (
          <p>
            Vos factures et avoirs {brand} sont conservés 10 ans tels qu'ils ont été émis, avec le nom,
            l'adresse et le SIREN de votre cabinet : la loi l'impose (article L123-22 du Code de commerce).
          </p>
        )}
      </div>
      <p>
        Les rendez-vous pas encore confirmés sont annulés. Si vous avez un rendez-vous confirmé à venir,
        annulez-le d'abord (page Rendez-vous). Un e-mail vous confirmera la suppression.
      </p>
      <p className="font-medium text-slate-900">
        La suppression est définitive : votre compte ne pourra pas être récupéré. Pensez à télécharger vos
        données avant.
      </p>
    </div>
  );
}

/**
 * 'Supprimer mon compte' of 'Mes données' (patients, dentists): what is erased and kept, then a
 * confirmation with the password. On success the person is signed out and taken to the home page.
 */
export function ErasureCard() {
  const { profile } = useSession();
  const descriptionId = useId();
  const dentist = profile?.role === "dentist";
  return (
    <AccountCard
      title="Supprimer mon compte"
      descriptionId={descriptionId}
      description="Votre compte et vos données personnelles sont effacés. Cette action est définitive."
      contentClassName="grid gap-5"
    >
      <ErasureExplanation dentist={dentist} />
      {profile?.is_admin ? (
        <Alert>{ERASURE_MESSAGES.adminAccount}</Alert>
      ) : (
        <ErasureDialog email={profile?.email ?? ""} describedBy={descriptionId} />
      )}
    </AccountCard>
  );
}

function ErasureDialog({ email, describedBy }: { email: string; describedBy: string }) {
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const erase = useEraseAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<AccountErasureInput>({
    resolver: zodResolver(accountErasureSchema),
    defaultValues: EMPTY,
  });
  const field = fieldProps(form);

  const onOpenChange = (next: boolean) => {
    // Not while the erasure is on its way: its answer decides what comes next.
    if (erase.isPending) return;
    setOpen(next);
    if (!next) {
      form.reset(EMPTY);
      setFailure(null);
      erase.reset();
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    erase.mutate(values, {
      onSuccess: (result) => {
        // As for 'Se déconnecter': leave the protected page first (flushSync commits "/"), then
        // forget the session and every cached answer, so the profile page never renders signed out.
        flushSync(() => navigate("/", { replace: true }));
        clearSessionCache(queryClient);
        toast.success(result?.message || ERASURE_MESSAGES.erased);
      },
      onError: (error) => {
        const field = isApiError(error) ? error.fields.password : undefined;
        if (field) {
          form.setError("password", { message: field }, { shouldFocus: true });
          return;
        }
        setFailure(error instanceof Error && error.message ? error.message : ERASURE_FAILED);
        // Signed out elsewhere meanwhile: the session store learns it (→ login).
        if (isApiError(error) && error.status === 401) void refreshSession();
      },
    });
  });

  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <div>
          <DialogTrigger asChild>
            <Button variant="destructive" aria-describedby={describedBy} className="w-full sm:w-auto">
              <Trash2 aria-hidden="true" />
              Supprimer mon compte
            </Button>
          </DialogTrigger>
        </div>
      }
      title="Supprimer définitivement votre compte ?"
      description="Votre profil, vos demandes, vos documents et le texte de vos messages seront effacés. Cette action est définitive. Saisissez votre mot de passe pour confirmer."
    >
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Confirmer la suppression du compte"
        className="grid gap-4"
      >
        {/* For password managers: which account this password belongs to (not shown, not focusable). */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField label="Mot de passe" disabled={erase.isPending} {...field("password")} />
        {failure ? <Alert variant="destructive">{failure}</Alert> : null}
        <DialogActions cancelLabel="Garder mon compte" cancelDisabled={erase.isPending}>
          <Button type="submit" variant="destructive" loading={erase.isPending}>
            Supprimer mon compte
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}
