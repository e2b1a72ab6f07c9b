import { MessageSquareText, UserSearch } from "lucide-react";
import { useState } from "react";
import { useParams } from "react-router";
import { drName, theName } from "../../../shared/format/names";
import { PageHeader } from "../../components/PageHeader";
import { NotFoundState } from "../../components/request/RequestParts";
import { DentistRating } from "../../components/reviews/Rating";
import { ReviewItem } from "../../components/reviews/ReviewItem";
import { Button } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { useDentistReviews } from "./api";

/** /patient/dentists/:id/reviews: a verified dentist as patients see them, reviews newest first. */
export function PatientDentistReviewsPage() {
  const { id = "" } = useParams();
  const [page, setPage] = useState(1);
  const reviews = useDentistReviews(id, page);
  const { brand_name: brand } = useConfig();
  if (reviews.isPending) return <Skeleton className="h-96 w-full rounded-ui" />;
  if (reviews.isError && isApiError(reviews.error) && reviews.error.status === 404)
    return (
      // No such dentist, or one no longer verified or erased.
      <NotFoundState
        heading="Dentiste introuvable"
        title="Ce dentiste est introuvable"
        icon={UserSearch}
        description="Ce dentiste n'existe pas ou ses avis ne sont plus consultables."
        backTo="/patient/dashboard"
        backLabel="Retour au tableau de bord"
      />
    );
  if (reviews.isError)
    return (
      <LoadError
        title="Impossible de charger les avis de ce dentiste"
        onRetry={() => void reviews.refetch()}
      />
    );
  const { dentist, summary, items, has_more } = reviews.data;
  return (
    <>
      <PageHeader
        title={`Avis sur ${theName(drName(dentist.full_name))}`}
        description={
          <>
            Des avis de patients dont le rendez-vous a été pris sur {brand} et a eu lieu, relus par notre
            équipe, du plus récent au plus ancien.
          </>
        }
      />
      <DentistRating rating={summary} className="mb-6" />
      {items.length === 0 ? (
        <EmptyState icon={MessageSquareText} title="Pas encore d'avis publié sur ce dentiste" />
      ) : (
        <div className="grid gap-4">
          {items.map((review) => (
            <ReviewItem key={review.id} review={review} dentistName={dentist.full_name} />
          ))}
        </div>
      )}
      <div className="mt-6 flex flex-wrap gap-3">
        {page > 1 ? (
          <Button variant="outline" onClick={() => setPage(page - 1)}>
            Avis plus récents
          </Button>
        ) : null}
        {has_more ? (
          <Button variant="outline" onClick={() => setPage(page + 1)}>
            Avis plus anciens
          </Button>
        ) : null}
      </div>
    </>
  );
}
