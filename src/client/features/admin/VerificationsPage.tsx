import { BadgeCheck, ShieldCheck, XCircle } from "lucide-react";
import { useState } from "react";
import { formatDetailDate } from "../../../shared/format/dates";
import { ofName } from "../../../shared/format/names";
import type { VerificationRequest } from "../../../shared/schemas/admin";
import { PageHeader } from "../../components/PageHeader";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/Card";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { CardList, RefreshButton } from "./AdminParts";
import { useLiveTeamWork, useVerificationQueue } from "./api";
import { DentistReviewsSummary } from "./ReviewsPage";
import { useVerifyDentist } from "./useVerifyDentist";
import { VerificationReasonDialog } from "./VerificationReasonDialog";

const QUEUE_FAILED = "Impossible de charger les demandes de vérification";

function Detail({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="wrap-anywhere text-slate-900">{value?.trim() || "Non renseigné"}</dd>
    </div>
  );
}

/** /admin/verifications: the dentists who asked for verification (RPPS and practice address; the team verifies or refuses), oldest request first. */
export function AdminVerificationsPage() {
  const [page, setPage] = useState(1);
  const queue = useVerificationQueue(page);
  useLiveTeamWork();
  const [verifying, setVerifying] = useState<VerificationRequest | null>(null);
  const [refusing, setRefusing] = useState<VerificationRequest | null>(null);

  const { verify, verifying: verifyBusy } = useVerifyDentist(() => setVerifying(null));

  return (
    <>
      <PageHeader
        title="Demandes de vérification"
        description="Vérifiez le numéro RPPS (Répertoire partagé des professionnels de santé) et le cabinet de chaque dentiste avant de lui montrer les demandes des patients."
        actions={<RefreshButton query={queue} />}
      />
      <CardList
        query={queue}
        label="Demandes de vérification"
        failed={QUEUE_FAILED}
        skeleton={{ count: 2, className: "h-56 w-full rounded-ui" }}
        empty={{
          icon: ShieldCheck,
          title: "Aucune demande en attente",
          description: "Les dentistes qui demandent une vérification depuis leur profil apparaîtront ici.",
        }}
        page={page}
        onPageChange={setPage}
      >
        {(request) => (
          <Card>
            <CardHeader className="gap-1">
              <CardTitle>{request.full_name}</CardTitle>
              <p className="break-all text-sm text-slate-600">{request.email}</p>
            </CardHeader>
            <CardContent className="grid gap-4">
              <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                <Detail label="Numéro RPPS" value={request.rpps} />
                <Detail label="Adresse du cabinet" value={request.practice_address} />
                <Detail label="Code postal" value={request.practice_postcode} />
                <Detail label="Ville" value={request.city} />
                <Detail label="Date de la demande" value={formatDetailDate(request.requested_at)} />
              </dl>
              {request.same_rpps.length > 0 ? (
                <div
                  role="note"
                  aria-label="Même numéro RPPS"
                  className="rounded-ui border border-red-300 bg-red-50 p-4 text-sm text-red-950"
                >
                  <p className="font-semibold">Ce numéro RPPS est aussi donné par un autre compte</p>
                  <p>
                    Un numéro RPPS n'appartient qu'à une personne. Vérifiez lequel est le bon avant de
                    décider.
                  </p>
                  <ul className="mt-2 grid gap-1">
                    {request.same_rpps.map((other) => (
                      <li key={other.id} className="break-all">
                        {other.full_name} ({other.email}) — {other.is_verified ? "vérifié" : "non vérifié"}
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              {request.previous_refusal ? (
                <div className="rounded-ui border border-yellow-300 bg-yellow-50 p-4 text-sm text-yellow-950">
                  <p className="font-semibold">Refus précédent</p>
                  <p className="whitespace-pre-line wrap-anywhere">{request.previous_refusal}</p>
                </div>
              ) : null}
              <DentistReviewsSummary dentistId={request.id} />
              <div className="flex flex-col gap-2 sm:flex-row">
                <Button onClick={() => setVerifying(request)} aria-label={`Vérifier ${request.full_name}`}>
                  <BadgeCheck aria-hidden="true" />
                  Vérifier
                </Button>
                <Button
                  variant="outline"
                  onClick={() => setRefusing(request)}
                  aria-label={`Refuser la demande ${ofName(request.full_name)}`}
                >
                  <XCircle aria-hidden="true" />
                  Refuser
                </Button>
              </div>
            </CardContent>
          </Card>
        )}
      </CardList>
      <ConfirmDialog
        open={verifying !== null}
        onOpenChange={(open) => {
          if (!open) setVerifying(null);
        }}
        title="Vérifier ce dentiste ?"
        description={`${verifying?.full_name ?? ""} pourra voir les demandes des patients et leur répondre. Un e-mail lui sera envoyé.`}
        confirmLabel="Vérifier"
        loading={verifyBusy}
        onConfirm={() => verifying && verify(verifying)}
      />
      <VerificationReasonDialog
        dentistId={refusing?.id ?? null}
        decision="refuse"
        title="Refuser la demande de vérification"
        description={`${refusing?.full_name} recevra un e-mail avec la raison du refus et pourra demander une nouvelle vérification.`}
        label="Raison du refus"
        placeholder="Ex. : le numéro RPPS ne correspond pas au nom indiqué."
        submitLabel="Refuser la demande"
        onClose={() => setRefusing(null)}
      />
    </>
  );
}
