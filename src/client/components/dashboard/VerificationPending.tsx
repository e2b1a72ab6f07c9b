import { Clock } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useSession } from "../../lib/session";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";

/**
 * An unverified dentist sees no patient data (ADR 012, D6); this card says why and leads to the
 * profile. One whose verification the team withdrew is told so, and that his requests,
 * conversations and reviews come back once verified again.
 */
export function VerificationPending({ headingLevel = "h2" }: { headingLevel?: "h2" | "h3" }) {
  const { profile } = useSession();
  const withdrawn = profile?.verification_state === "withdrawn";
  return (
    <Card className="border-yellow-300 bg-yellow-50">
      <CardHeader>
        <CardTitle as={headingLevel} className="flex items-center gap-2">
          <Clock className="size-5 text-yellow-800" aria-hidden="true" />
          {withdrawn ? "Vérification retirée" : "En attente de vérification"}
        </CardTitle>
        <CardDescription className="text-slate-700">
          {withdrawn
            ? "Notre équipe a retiré la vérification de votre compte. Les demandes des patients, vos conversations et vos rendez-vous avec eux et les avis à votre sujet vous seront de nouveau montrés une fois votre compte vérifié. Vérifiez votre profil, puis demandez une nouvelle vérification."
            : "Votre compte sera vérifié par notre équipe (numéro RPPS, inscription à l'Ordre, diplômes). Les demandes des patients vous seront montrées une fois votre compte vérifié. Complétez votre profil pour que nous puissions vous vérifier."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link to="/dentist/profile">{withdrawn ? "Voir mon profil" : "Compléter mon profil"}</Link>
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
