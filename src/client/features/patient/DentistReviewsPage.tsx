import { MessageSquareText, UserSearch } from "lucide-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { drName, theName } from "../../../shared/format/names";
import { PageHeader } from "../../components/PageHeader";
import { DentistRating } from "../../components/reviews/Rating";
import { ReviewItem } from "../../components/reviews/ReviewItem";
import { Button } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/EmptyState";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { useDocumentTitle } from "../../lib/title";
import { useDentistReviews } from "./api";

/**
 * The server's 404 (no such dentist, or one no longer verified or erased): said as such, as a
 * request page says « Demande non trouvée », with a way back instead of a 'Réessayer' that cannot help.
 */
function DentistNotFound() {
  useDocumentTitle("Dentiste introuvable");
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        Dentiste introuvable
      </h1>
      <EmptyState
        icon={UserSearch}
        title="Ce dentiste est introuvable"
        description="Ce dentiste n'existe pas ou ses avis ne sont plus consultables."
        action={
          <Button asChild>
            <Link to="/patient/dashboard">Retour au tableau de bord</Link>
          </Button>
        }
      />
    </>
  );
}

/** /patient/dentists/:id/reviews: a verified dentist as patients see them, reviews newest first. */
export function PatientDentistReviewsPage() {
  const { id = "" } = useParams();
  const [page, setPage] = useState(1);
  const reviews = useDentistReviews(id, page);
  const { brand_name: brand } = useConfig();
  if (reviews.isPending) return <Skeleton className="h-96 w-full rounded-ui" />;
  if (reviews.isError && isApiError(reviews.error) && reviews.error.status === 404)
    return <DentistNotFound />;
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
