import { BadgeCheck, Clock, Send, XCircle } from "lucide-react";
import { useId } from "react";
import { toast } from "sonner";
import { formatDetailDate } from "../../../../shared/format/dates";
import { verificationHelp } from "../../../../shared/forms/profileForm";
import { verificationRequestProblem } from "../../../../shared/policies/verification";
import { PROFILE_MESSAGES, type Profile } from "../../../../shared/schemas/profile";
import { failureDescription } from "../../../components/AvatarUpload";
import { Button } from "../../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { useRequestVerification } from "../profileApi";

/**
 * The account's verification: a dentist sees patients' requests only once the team has checked
 * their RPPS number and practice. Verified, requested, refused with the reason, or what is still
 * missing before 'Demander une vérification'.
 */
export function VerificationCard({ profile }: { profile: Profile }) {
  const request = useRequestVerification();
  const helpId = useId();

  if (profile.verification_state === "verified") {
    return (
      <Card className="border-green-300 bg-green-50">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-green-900">
            <BadgeCheck className="size-5" aria-hidden="true" />
            Compte vérifié
          </CardTitle>
          <CardDescription className="text-green-900">
            Votre inscription a été vérifiée : les demandes des patients vous sont montrées.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }

  const problem = verificationRequestProblem(profile);
  const missing = problem?.kind === "missing" ? problem.fields : [];
  const onRequest = () =>
    request.mutate(undefined, {
      onSuccess: () =>
        toast.success(PROFILE_MESSAGES.verificationRequested, {
          description: "Notre équipe vérifie votre numéro RPPS et votre cabinet.",
        }),
      onError: (error) =>
        toast.error(PROFILE_MESSAGES.verificationFailed, { description: failureDescription(error) }),
    });

  const refused = profile.verification_state === "refused";
  const withdrawn = profile.verification_state === "withdrawn";
  return (
    <Card className={refused ? "border-red-300 bg-red-50" : "border-yellow-300 bg-yellow-50"}>
      <CardHeader>
        <CardTitle className={`flex items-center gap-2 ${refused ? "text-red-950" : "text-yellow-950"}`}>
          {refused ? (
            <XCircle className="size-5" aria-hidden="true" />
          ) : (
            <Clock className="size-5" aria-hidden="true" />
          )}
          {refused
            ? "Vérification refusée"
            : withdrawn
              ? "Vérification retirée"
              : "En attente de vérification"}
        </CardTitle>
        <CardDescription className="text-slate-800">
          {withdrawn
            ? "Notre équipe a retiré la vérification de votre compte. Les demandes des patients, vos conversations et vos rendez-vous avec eux et les avis à votre sujet vous seront de nouveau montrés une fois votre compte vérifié."
            : "Tant que votre compte n'est pas vérifié, les demandes des patients ne vous sont pas montrées."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {refused && profile.verification_refusal_reason ? (
          <div className="grid gap-0.5 text-sm text-slate-900">
            <p className="font-semibold">Raison indiquée par notre équipe :</p>
            <p className="whitespace-pre-line wrap-anywhere">{profile.verification_refusal_reason}</p>
            <p className="mt-1 text-slate-800">
              Corrigez votre profil si besoin, puis demandez une nouvelle vérification.
            </p>
          </div>
        ) : null}
        {profile.verification_state === "requested" && profile.verification_requested_at ? (
          <p role="status" className="text-sm text-slate-800">
            Votre demande de vérification a été envoyée le{" "}
            {formatDetailDate(profile.verification_requested_at)}. Notre équipe vérifie votre numéro RPPS et
            votre cabinet ; vous recevrez un e-mail.
          </p>
        ) : (
          <>
            <p id={helpId} className="text-sm text-slate-800">
              {verificationHelp(missing)}
            </p>
            <Button
              type="button"
              className="w-full sm:w-fit lg:w-full"
              disabled={problem !== null}
              loading={request.isPending}
              aria-describedby={helpId}
              onClick={onRequest}
            >
              <Send aria-hidden="true" />
              Demander une vérification
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
