import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MessageSquareText } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { toast } from "sonner";
import { REVIEW_LIMITS } from "../../../shared/domain/reviews";
import { formatDetailDate } from "../../../shared/format/dates";
import { ofName } from "../../../shared/format/names";
import type { DentistOwnReviews } from "../../../shared/schemas/reviews";
import { useListParams } from "../../components/dashboard/useListParams";
import { VerificationPending } from "../../components/dashboard/VerificationPending";
import { PageHeader } from "../../components/PageHeader";
import { DentistRating } from "../../components/reviews/Rating";
import { ReviewItem } from "../../components/reviews/ReviewItem";
import { Button } from "../../components/ui/Button";
import { ActionDialog, DialogActions } from "../../components/ui/Dialog";
import { EmptyState } from "../../components/ui/EmptyState";
import { FormField } from "../../components/ui/FormField";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { Textarea } from "../../components/ui/Textarea";
import { api, isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { reviewKeys } from "../../lib/queryKeys";
import { useSession } from "../../lib/session";

type Review = DentistOwnReviews["items"][number];

/** GET /api/dentist/reviews */
function useReceivedReviews(page: number) {
  return useQuery({
    queryKey: reviewKeys.received(page),
    queryFn: ({ signal }) => api<DentistOwnReviews>(`/api/dentist/reviews?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/dentist/reviews/:id/answer or /report, with its one text field. */
function useReviewAction(action: "answer" | "report") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) =>
      api<{ message: string }>(`/api/dentist/reviews/${encodeURIComponent(id)}/${action}`, {
        method: "POST",
        body: action === "answer" ? { text } : { reason: text },
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}

const ACTIONS = {
  answer: {
    title: "Répondre à cet avis",
    description:
      "Votre réponse sera publiée sous l'avis, avec votre nom. Une seule réponse est possible : elle ne pourra pas être modifiée. Ne donnez aucune information sur la santé du patient.",
    label: "Votre réponse",
    field: "text",
    submit: "Publier ma réponse",
    max: REVIEW_LIMITS.answerMax,
  },
  report: {
    title: "Signaler cet avis à l'équipe",
    description:
      "Dites-nous ce qui ne va pas (propos injurieux, faits inexacts, personne qui n'est pas votre patient…). L'équipe examine chaque signalement ; l'avis reste en ligne tant qu'elle n'a pas décidé de le retirer.",
    label: "Raison du signalement",
    field: "reason",
    submit: "Envoyer le signalement",
    max: REVIEW_LIMITS.reasonMax,
  },
} as const;

function ReviewActionDialog({
  action,
  review,
  onClose,
}: {
  action: "answer" | "report";
  review: Review | null;
  onClose: () => void;
}) {
  const mutation = useReviewAction(action);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>();
  const spec = ACTIONS[action];
  const close = () => {
    setText("");
    setError(undefined);
    mutation.reset();
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!review) return;
    mutation.mutate(
      { id: review.id, text },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          close();
        },
        onError: (failure) => {
          const field = isApiError(failure) ? failure.fields[spec.field] : undefined;
          if (field) setError(field);
          else toast.error(failure.message);
        },
      },
    );
  };
  return (
    <ActionDialog
      open={review !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title={spec.title}
      description={spec.description}
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label={spec.label} required error={error}>
          {(control) => (
            <Textarea
              {...control}
              rows={5}
              value={text}
              maxLength={spec.max}
              onChange={(event) => {
                setText(event.target.value);
                setError(undefined);
              }}
            />
          )}
        </FormField>
        <DialogActions>
          <Button type="submit" loading={mutation.isPending}>
            {spec.submit}
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}

/**
 * /dentist/reviews: the reviews published about the dentist, newest first (the team publishes them;
 * the dentist neither hides nor orders them). He may answer each once, publicly, and report one.
 * A dentist not verified (pending, or withdrawn) reads none (D6): the server answers no review and no
 * count; this says why, rather than a rating over an empty list.
 */
export function DentistReviewsPage() {
  const { profile } = useSession();
  const brand = useConfig().brand_name;
  if (profile && !profile.is_verified)
    return (
      <>
        <PageHeader title="Avis des patients" description={description(brand)} />
        <VerificationPending />
      </>
    );
  return <ReceivedReviews name={profile?.full_name ?? ""} />;
}

/**
 * The review a button acts on, in its name (« Répondre à l'avis de Marie D., patiente vérifiée,
 * publié le 5 décembre 2026 »): every review has its own « Répondre » and « Signaler ».
 */
const whichReview = (review: Review) =>
  `l'avis ${ofName(review.author)}, publié le ${formatDetailDate(review.published_at)}`;

const description = (brand: string) =>
  `Les avis de vos patients reçus sur rendez-vous pris sur ${brand}, publiés après relecture par l'équipe, du plus récent au plus ancien. Vous pouvez répondre une fois à chacun, ou le signaler.`;

function ReceivedReviews({ name }: { name: string }) {
  // The page in the URL (a reload or Back keeps it); turning it shows the new page from its top.
  const { page, goToPage } = useListParams();
  const listTop = useRef<HTMLDivElement>(null);
  const turnTo = (next: number) => {
    goToPage(next);
    listTop.current?.scrollIntoView?.({ block: "start" });
  };
  const reviews = useReceivedReviews(page);
  const [answering, setAnswering] = useState<Review | null>(null);
  const [reporting, setReporting] = useState<Review | null>(null);
  const brand = useConfig().brand_name;
  return (
    <>
      <PageHeader title="Avis des patients" description={description(brand)} />
      {reviews.isPending ? (
        <Skeleton className="h-64 w-full rounded-ui" />
      ) : reviews.isError ? (
        <LoadError title="Impossible de charger vos avis" onRetry={() => void reviews.refetch()} />
      ) : (
        <>
          <div ref={listTop} className="scroll-mt-24">
            <DentistRating rating={reviews.data.summary} className="mb-6" />
          </div>
          {reviews.data.items.length === 0 ? (
            <EmptyState
              icon={MessageSquareText}
              title="Aucun avis publié pour le moment"
              description={`Le lendemain d'un rendez-vous pris sur ${brand}, votre patient est invité à donner son avis. Vous recevez un e-mail à chaque avis publié.`}
            />
          ) : (
            <div className="grid gap-4">
              {reviews.data.items.map((review) => (
                <ReviewItem
                  key={review.id}
                  review={review}
                  dentistName={name}
                  footer={
                    <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-3">
                      {review.answer === null ? (
                        <Button
                          size="sm"
                          aria-label={`Répondre à ${whichReview(review)}`}
                          onClick={() => setAnswering(review)}
                        >
                          Répondre
                        </Button>
                      ) : null}
                      {review.report_kept ? (
                        <p className="text-sm text-slate-600">
                          Signalement examiné par l'équipe : avis gardé en ligne
                        </p>
                      ) : review.reported ? (
                        <p className="text-sm text-slate-600">Signalé à l'équipe</p>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Signaler ${whichReview(review)}`}
                          onClick={() => setReporting(review)}
                        >
                          Signaler
                        </Button>
                      )}
                    </div>
                  }
                />
              ))}
            </div>
          )}
          <div className="mt-6 flex flex-wrap gap-3">
            {page > 1 ? (
              <Button variant="outline" onClick={() => turnTo(page - 1)}>
                Avis plus récents
              </Button>
            ) : null}
            {reviews.data.has_more ? (
              <Button variant="outline" onClick={() => turnTo(page + 1)}>
                Avis plus anciens
              </Button>
            ) : null}
          </div>
        </>
      )}
      <ReviewActionDialog action="answer" review={answering} onClose={() => setAnswering(null)} />
      <ReviewActionDialog action="report" review={reporting} onClose={() => setReporting(null)} />
    </>
  );
}
