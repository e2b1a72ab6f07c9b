import { type FormEvent, useId, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import {
  REVIEW_ASPECT_LABELS,
  REVIEW_ASPECTS,
  REVIEW_AUTHOR_TITLE_LABELS,
  REVIEW_AUTHOR_TITLES,
  REVIEW_LIMITS,
  type ReviewAspect,
  type ReviewAuthorTitle,
} from "../../../../shared/domain/reviews";
import { formatDetailDate } from "../../../../shared/format/dates";
import { drName, theName } from "../../../../shared/format/names";
import { upperFirst } from "../../../../shared/format/text";
import { REVIEW_MESSAGES, reviewInputSchema } from "../../../../shared/schemas/reviews";
import { PageHeader } from "../../../components/PageHeader";
import { ReviewsPolicyLink } from "../../../components/reviews/Rating";
import { Button } from "../../../components/ui/Button";
import { Card, CardContent } from "../../../components/ui/Card";
import { FormField } from "../../../components/ui/FormField";
import { LoadError } from "../../../components/ui/LoadError";
import { RadioCard } from "../../../components/ui/RadioCard";
import { Skeleton } from "../../../components/ui/Skeleton";
import { Textarea } from "../../../components/ui/Textarea";
import { isApiError } from "../../../lib/api";
import { useMyReviews, useSaveReview } from "../api";
import { MarkField } from "./MarkField";

type Marks = Record<ReviewAspect, number | null>;

/**
 * /patient/reviews/new/:appointmentId (from the invitation: the e-mail, the dashboard's card, the
 * finished request) and /patient/reviews/:id/edit: the patient's review of a past appointment.
 */
export function ReviewFormPage() {
  const { appointmentId, id } = useParams();
  const mine = useMyReviews();
  if (mine.isPending) return <Skeleton className="h-96 w-full rounded-ui" />;
  if (mine.isError)
    return <LoadError title="Impossible de charger vos avis" onRetry={() => void mine.refetch()} />;
  const invitation = mine.data.invitations.find((i) => i.appointment_id === appointmentId);
  const review = mine.data.reviews.find((r) => r.id === id);
  if (appointmentId && invitation)
    return (
      <ReviewForm
        key={appointmentId}
        target={{ appointmentId }}
        dentistName={invitation.dentist.full_name}
        when={`Rendez-vous du ${formatDetailDate(invitation.starts_at)}`}
      />
    );
  if (id && review?.may_edit)
    return (
      <ReviewForm
        key={id}
        target={{ reviewId: id }}
        dentistName={review.dentist.full_name}
        // « rendez-vous en novembre 2026 », as the review shows it: its month only.
        when={upperFirst(review.appointment_month)}
        initial={review}
      />
    );
  return (
    <>
      <PageHeader title="Donner mon avis" />
      <Card>
        <CardContent className="grid gap-3 pt-5 sm:pt-6">
          <p className="text-slate-700">
            {id
              ? REVIEW_MESSAGES.editClosed
              : "Ce rendez-vous n'attend pas d'avis : il n'a pas encore eu lieu, ou vous avez déjà donné le vôtre."}
          </p>
          <Button asChild variant="outline" className="justify-self-start">
            <Link to="/patient/reviews">Mes avis</Link>
          </Button>
        </CardContent>
      </Card>
    </>
  );
}

function ReviewForm({
  target,
  dentistName,
  when,
  initial,
}: {
  target: { appointmentId: string } | { reviewId: string };
  dentistName: string;
  /** « Rendez-vous du 12 novembre 2026 », « Rendez-vous en novembre 2026 ». */
  when: string;
  initial?: {
    rating: number;
    explanations: number | null;
    listening: number | null;
    punctuality: number | null;
    text: string;
    author_title: ReviewAuthorTitle;
  };
}) {
  const navigate = useNavigate();
  const save = useSaveReview(target);
  const [rating, setRating] = useState<number | null>(initial?.rating ?? null);
  const [marks, setMarks] = useState<Marks>({
    explanations: initial?.explanations ?? null,
    listening: initial?.listening ?? null,
    punctuality: initial?.punctuality ?? null,
  });
  const [text, setText] = useState(initial?.text ?? "");
  const [title, setTitle] = useState<ReviewAuthorTitle | null>(initial?.author_title ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const titleErrorId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The keyboard (and the screen reader, which reads the error tied to it) goes to the first
    // field to correct, once the errors are rendered.
    const form = event.currentTarget;
    const focusFirstError = () =>
      setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
    const parsed = reviewInputSchema.safeParse({ rating, ...marks, text, author_title: title ?? undefined });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      focusFirstError();
      return;
    }
    save.mutate(parsed.data, {
      onSuccess: (result) => {
        toast.success(result.message);
        navigate("/patient/reviews");
      },
      onError: (failure) => {
        if (isApiError(failure) && Object.keys(failure.fields).length > 0) {
          setErrors(failure.fields);
          focusFirstError();
        } else toast.error("Impossible d'enregistrer votre avis", { description: failure.message });
      },
    });
  };

  const editing = "reviewId" in target;
  return (
    <>
      <PageHeader
        title={`Comment s'est passé votre rendez-vous avec ${theName(drName(dentistName))} ?`}
        documentTitle={editing ? "Modifier mon avis" : "Donner mon avis"}
        description={
          <>
            {when}. Votre avis sera relu par l'équipe avant d'être publié. <ReviewsPolicyLink />
          </>
        }
      />
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <form onSubmit={onSubmit} className="grid gap-6" noValidate>
            <MarkField
              legend="Note globale"
              required
              value={rating}
              error={errors.rating}
              onChange={(value) => {
                setRating(value);
                setErrors(({ rating: _gone, ...rest }) => rest);
              }}
            />
            {REVIEW_ASPECTS.map((aspect) => (
              <MarkField
                key={aspect}
                legend={REVIEW_ASPECT_LABELS[aspect]}
                value={marks[aspect]}
                error={errors[aspect]}
                onChange={(value) => setMarks((current) => ({ ...current, [aspect]: value }))}
              />
            ))}
            <FormField
              label="Votre avis"
              required
              error={errors.text}
              description={`${REVIEW_MESSAGES.textHint} (${REVIEW_LIMITS.textMin} caractères au moins)`}
              counter={{ value: text, max: REVIEW_LIMITS.textMax, always: true }}
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={6}
                  value={text}
                  onChange={(event) => {
                    setText(event.target.value);
                    setErrors(({ text: _gone, ...rest }) => rest);
                  }}
                />
              )}
            </FormField>
            <fieldset
              className="grid gap-2"
              aria-describedby={errors.author_title ? titleErrorId : undefined}
            >
              <legend className="mb-1 text-sm font-medium text-slate-900">
                Comment vous présenter ? <span className="text-red-700">*</span>
              </legend>
              <p className="text-sm text-slate-600">
                Votre prénom et l'initiale de votre nom seront affichés, par exemple « Marie D., patiente
                vérifiée ».
              </p>
              <div className="grid gap-2 sm:grid-cols-2">
                {REVIEW_AUTHOR_TITLES.map((value) => (
                  <RadioCard
                    key={value}
                    name="author_title"
                    value={value}
                    checked={title === value}
                    invalid={Boolean(errors.author_title)}
                    describedBy={errors.author_title ? titleErrorId : undefined}
                    onChange={() => {
                      setTitle(value);
                      setErrors(({ author_title: _gone, ...rest }) => rest);
                    }}
                  >
                    {REVIEW_AUTHOR_TITLE_LABELS[value]}
                  </RadioCard>
                ))}
              </div>
              {errors.author_title ? (
                <p id={titleErrorId} className="text-sm font-medium text-red-700">
                  {errors.author_title}
                </p>
              ) : null}
            </fieldset>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" loading={save.isPending}>
                {editing ? "Enregistrer mon avis" : "Envoyer mon avis"}
              </Button>
              <Button asChild variant="outline">
                <Link to="/patient/reviews">Annuler</Link>
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </>
  );
}
