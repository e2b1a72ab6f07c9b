import { Clock } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatDetailDate } from "../../../shared/format/dates";
import { useSession } from "../../lib/session";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";

/**
 * An unverified dentist sees no patient data (ADR 012, D6); this card says why, where his verification
 * stands (to ask for, asked on that day, refused with the team's reason, withdrawn) and leads to the
 * profile, where he asks for it. One whose verification the team withdrew is told that his requests,
 * conversations and reviews come back once verified again.
 */
/** « : « reason » » and the sentence's end: no full stop after a reason that ends with its own. */
function refusal(reason: string | null) {
  if (!reason) return ".";
  return ` : « ${reason} »${/[.!?…]$/.test(reason.trim()) ? "" : "."}`;
}

export function VerificationPending({ headingLevel = "h2" }: { headingLevel?: "h2" | "h3" }) {
  const { profile } = useSession();
  const state = profile?.verification_state;
  const refused = state === "refused";
  const title =
    state === "withdrawn"
      ? "Vérification retirée"
      : refused
        ? "Vérification refusée"
        : "En attente de vérification";
  const text =
    state === "withdrawn"
      ? "Notre équipe a retiré la vérification de votre compte. Les demandes des patients, vos conversations et vos rendez-vous avec eux et les avis à votre sujet vous seront de nouveau montrés une fois votre compte vérifié. Vérifiez votre profil, puis demandez une nouvelle vérification."
      : refused
        ? `Notre équipe n'a pas pu vérifier votre compte${refusal(profile?.verification_refusal_reason ?? null)} Corrigez votre profil si besoin, puis demandez une nouvelle vérification.`
        : state === "requested" && profile?.verification_requested_at
          ? `Votre demande de vérification a été envoyée le ${formatDetailDate(profile.verification_requested_at)} : notre équipe vérifie votre numéro RPPS et votre cabinet, et un e-mail vous dira sa décision. Les demandes des patients vous seront montrées une fois votre compte vérifié.`
          : "Les demandes des patients vous seront montrées une fois votre compte vérifié. Pour cela, renseignez votre numéro RPPS et l'adresse de votre cabinet dans votre profil, puis cliquez sur « Demander une vérification » : notre équipe les vérifie et vous dit sa décision par e-mail.";
  const complete = state !== "withdrawn" && !refused && state !== "requested";
  return (
    <Card className={refused ? "border-red-300 bg-red-50" : "border-yellow-300 bg-yellow-50"}>
      <CardHeader>
        <CardTitle as={headingLevel} className="flex items-center gap-2">
          <Clock className={refused ? "size-5 text-red-800" : "size-5 text-yellow-800"} aria-hidden="true" />
          {title}
        </CardTitle>
        <CardDescription className="whitespace-pre-line wrap-anywhere text-slate-700">{text}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link to="/dentist/profile">{complete ? "Compléter mon profil" : "Voir mon profil"}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** Its content for a verified dentist; for one not verified yet, the card above instead. */
export function VerifiedOnly({ children }: { children: ReactNode }) {
  const { profile } = useSession();
  return profile?.is_verified ? children : <VerificationPending />;
}
