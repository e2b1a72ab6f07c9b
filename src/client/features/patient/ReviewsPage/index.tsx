import { MessageSquareText } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { REVIEW_STATUS_LABELS, type ReviewStatus } from "../../../../shared/domain/reviews";
import { drName } from "../../../../shared/format/names";
import type { OwnReview } from "../../../../shared/schemas/reviews";
import { PageHeader } from "../../../components/PageHeader";
import { ReviewsPolicyLink } from "../../../components/reviews/Rating";
import { ReviewItem } from "../../../components/reviews/ReviewItem";
import { Badge, type BadgeTone } from "../../../components/ui/Badge";
import { Button } from "../../../components/ui/Button";
import { ConfirmDialog } from "../../../components/ui/Dialog";
import { EmptyState } from "../../../components/ui/EmptyState";
import { LoadError } from "../../../components/ui/LoadError";
import { Skeleton } from "../../../components/ui/Skeleton";
import { useConfig } from "../../../lib/config";
import { useDeleteReview, useMyReviews } from "../api";
import { ReviewInvitations } from "../ReviewInvitations";

export { ReviewFormPage } from "./ReviewFormPage";

const TONES: Record<ReviewStatus, BadgeTone> = { pending: "yellow", published: "green", refused: "red" };

/** /patient/reviews: the appointments waiting for a review, then the patient's reviews. */
export function PatientReviewsPage() {
  const mine = useMyReviews();
  const [deleting, setDeleting] = useState<OwnReview | null>(null);
  const remove = useDeleteReview();
  const { brand_name: brand } = useConfig();

  return (
    <>
      <PageHeader
        title="Mes avis"
        description={
          <>
            Vos avis sur les dentistes que vous avez vus grâce à {brand}. Vous pouvez modifier un avis pendant
            30 jours et le supprimer à tout moment. <ReviewsPolicyLink />
          </>
        }
      />
      <ReviewInvitations />
      {mine.isPending ? (
        <Skeleton className="h-48 w-full rounded-ui" />
      ) : mine.isError ? (
        <LoadError title="Impossible de charger vos avis" onRetry={() => void mine.refetch()} />
      ) : mine.data.reviews.length === 0 ? (
        <EmptyState
          icon={MessageSquareText}
          title="Vous n'avez pas encore donné d'avis"
          description={`Après un rendez-vous pris sur ${brand}, nous vous inviterons à dire comment il s'est passé.`}
        />
      ) : (
        <ul className="grid gap-4" aria-label="Mes avis">
          {mine.data.reviews.map((review) => (
            <li key={review.id} className="grid gap-2">
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="font-semibold text-slate-900">{drName(review.dentist.full_name)}</h2>
                <Badge tone={TONES[review.status]}>{REVIEW_STATUS_LABELS[review.status]}</Badge>
              </div>
              {review.status === "refused" && review.refusal_reason ? (
                <p className="text-sm text-slate-700">
                  <span className="font-medium">Raison du refus :</span> {review.refusal_reason}
                </p>
              ) : null}
              <ReviewItem
                review={review}
                dentistName={review.dentist.full_name}
                footer={
                  <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-3">
                    {review.may_edit ? (
                      <Button asChild variant="outline" size="sm">
                        <Link to={`/patient/reviews/${encodeURIComponent(review.id)}/edit`}>Modifier</Link>
                      </Button>
                    ) : null}
                    <Button variant="ghost" size="sm" onClick={() => setDeleting(review)}>
                      Supprimer
                    </Button>
                  </div>
                }
              />
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title="Supprimer cet avis ?"
        description={
          deleting?.status === "published"
            ? "Il disparaîtra tout de suite du profil du dentiste. Vous pourrez en écrire un nouveau sur ce rendez-vous."
            : // Never shown on the dentist's profile (awaiting moderation, or refused): nothing disappears there.
              "Il n'est pas publié sur le profil du dentiste et ne le sera pas. Vous pourrez en écrire un nouveau sur ce rendez-vous."
        }
        confirmLabel="Supprimer l'avis"
        destructive
        loading={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: (result) => {
              toast.success(result.message);
              setDeleting(null);
            },
            onError: (failure) =>
              toast.error("Impossible de supprimer l'avis", { description: failure.message }),
          });
        }}
      />
    </>
  );
}
