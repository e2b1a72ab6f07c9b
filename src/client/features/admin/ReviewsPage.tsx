import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MessageSquareText } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import {
  REVIEW_FLAG_LABELS,
  REVIEW_LIMITS,
  REVIEW_REPORT_DECISION_LABELS,
  REVIEW_STATUS_LABELS,
} from "../../../shared/domain/reviews";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { drName, theName } from "../../../shared/format/names";
import { type ModerationReview, REVIEW_MESSAGES } from "../../../shared/schemas/reviews";
import { PageHeader } from "../../components/PageHeader";
import { ReviewItem } from "../../components/reviews/ReviewItem";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { ListPagination } from "../../components/ui/DataTable";
import { ActionDialog, DialogActions } from "../../components/ui/Dialog";
import { EmptyState } from "../../components/ui/EmptyState";
import { FormField } from "../../components/ui/FormField";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/Tabs";
import { Textarea } from "../../components/ui/Textarea";
import { api, isApiError } from "../../lib/api";
import { useFocusOnError } from "../../lib/form";
import { useOneAtATime } from "../../lib/onePress";
import { reviewKeys } from "../../lib/queryKeys";

type Status = "pending" | "reported" | "published" | "refused";
type ModerationList = { items: ModerationReview[]; page: number; page_size: number; has_more: boolean };

const TABS: Record<Status, string> = {
  pending: "À modérer",
  reported: "Signalés",
  published: "Publiés",
  refused: "Refusés",
};

/** GET /api/admin/reviews */
export function useModerationList(status: Status, dentist: string | null, page: number) {
  return useQuery({
    queryKey: reviewKeys.moderation(status, dentist, page),
    queryFn: ({ signal }) =>
      api<ModerationList>(
        `/api/admin/reviews?status=${status}&page=${page}${dentist ? `&dentist=${encodeURIComponent(dentist)}` : ""}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

type Decision = { review: ModerationReview; decision: "publish" | "refuse" | "keep"; reason?: string };

/**
 * POST /api/admin/reviews/:id/decision, with the version read (the review's updated_at): a review
 * its author rewrote since is refused (409) and the list, refreshed on settling, shows the new text.
 */
function useDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ review, decision, reason }: Decision) =>
      api<{ message: string }>(`/api/admin/reviews/${encodeURIComponent(review.id)}/decision`, {
        method: "POST",
        body: { decision, version: review.updated_at, ...(reason === undefined ? {} : { reason }) },
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}

/** Whether a review has a report the team has not decided on yet (« Garder en ligne » closes them). */
const hasOpenReport = (review: ModerationReview) =>
  review.reports.some((report) => report.closed_at === null);

/**
 * A review as the team reads it: its flags, its state, its reports — those still open, and those the
 * team closed (kept online or withdrawn), with their reasons: the review's history.
 */
export function ModerationCard({ review, actions }: { review: ModerationReview; actions?: ReactNode }) {
  return (
    <ReviewItem
      review={review}
      dentistName={review.dentist.full_name}
      footer={
        <div className="grid gap-3 border-t border-slate-200 pt-3">
          <p className="text-sm text-slate-700">
            Sur {theName(drName(review.dentist.full_name))} · écrit le{" "}
            {formatDetailDateTime(review.created_at)} · {REVIEW_STATUS_LABELS[review.status]}
          </p>
          {review.flags.length > 0 ? (
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-sm font-medium text-slate-900">Repéré automatiquement :</span>
              {review.flags.map((flag) => (
                <Badge key={flag} tone="red">
                  {REVIEW_FLAG_LABELS[flag]}
                </Badge>
              ))}
            </div>
          ) : null}
          {review.refusal_reason ? (
            <p className="text-sm text-slate-700">Raison du refus : {review.refusal_reason}</p>
          ) : null}
          {review.reports.length > 0 ? (
            <ul className="grid gap-1 text-sm text-slate-700" aria-label="Signalements">
              {review.reports.map((report) => (
                <li key={report.id}>
                  <span className="font-medium">Signalé par {theName(drName(report.dentist_name))}</span> le{" "}
                  {formatDetailDateTime(report.created_at)} : {report.reason}
                  {report.earlier_text ? (
                    <span className="text-slate-600"> (sur une version antérieure du texte)</span>
                  ) : null}
                  {report.closed_at && report.decision ? (
                    <span className="text-slate-600">
                      {" "}
                      — examiné le {formatDetailDateTime(report.closed_at)} :{" "}
                      {REVIEW_REPORT_DECISION_LABELS[report.decision]}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          {actions}
        </div>
      }
    />
  );
}

function RefuseDialog({
  review,
  onRefused,
  onClose,
}: {
  review: ModerationReview | null;
  /** Refused (or withdrawn): the review leaves the list. */
  onRefused: (review: ModerationReview) => void;
  onClose: () => void;
}) {
  const decide = useDecision();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const reasonField = useFocusOnError<HTMLTextAreaElement>(error);
  const close = () => {
    setReason("");
    setError(undefined);
    onClose();
  };
  // A double click sends once (isPending disables the button a moment after the first).
  const once = useOneAtATime();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!review || decide.isPending) return;
    // A refusal without its reason is refused as the server refuses it, before sending.
    if (!reason.trim()) return setError(REVIEW_MESSAGES.refuseReasonRequired);
    once((done) =>
      decide.mutate(
        { review, decision: "refuse", reason },
        {
          onSettled: done,
          onSuccess: (result) => {
            toast.success(result.message);
            onRefused(review);
            close();
          },
          onError: (failure) => {
            const field = isApiError(failure) ? failure.fields.reason : undefined;
            if (field) return setError(field);
            toast.error(failure.message);
            // Rewritten (or decided) since it was read: back to the refreshed list, to read it again.
            if (isApiError(failure) && failure.status === 409) close();
          },
        },
      ),
    );
  };
  return (
    <ActionDialog
      open={review !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title={review?.status === "published" ? "Retirer cet avis" : "Refuser cet avis"}
      description="L'auteur recevra un e-mail avec cette raison ; il pourra modifier son avis ou contester la décision."
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <FormField label="Raison, envoyée à l'auteur" required error={error}>
          {(control) => (
            <Textarea
              ref={reasonField}
              {...control}
              value={reason}
              maxLength={REVIEW_LIMITS.reasonMax}
              onChange={(event) => {
                setReason(event.target.value);
                setError(undefined);
              }}
            />
          )}
        </FormField>
        <DialogActions>
          <Button type="submit" variant="destructive" loading={decide.isPending}>
            {review?.status === "published" ? "Retirer l'avis" : "Refuser l'avis"}
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}

/**
 * /admin/reviews: the queue 'Avis': publish or refuse (with a reason to the author); a reported
 * review is withdrawn (« Retirer ») or kept online (« Garder en ligne »: its open reports are closed,
 * and stay on its card with the decision).
 */
export function AdminReviewsPage() {
  const [status, setStatus] = useState<Status>("pending");
  const [page, setPage] = useState(1);
  const list = useModerationList(status, null, page);
  const decide = useDecision();
  const [refusing, setRefusing] = useState<ModerationReview | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const leaving = useRef<{ id: string; index: number } | null>(null);

  /** The review decided on leaves the list read again: the focus goes to the one after it. */
  const willLeave = (review: ModerationReview) => {
    const index = list.data?.items.findIndex((item) => item.id === review.id) ?? -1;
    leaving.current = { id: review.id, index: Math.max(index, 0) };
  };

  // Its buttons gone with it, the focus would fall to the page's body: it goes to the first button
  // of the review now in its place (or of the last one), or to the tab's panel when none is left.
  useEffect(() => {
    const left = leaving.current;
    const items = list.data?.items;
    if (!left || !items || items.some((review) => review.id === left.id)) return;
    leaving.current = null;
    const cards = panel.current?.querySelectorAll("article") ?? [];
    const next = cards[Math.min(left.index, cards.length - 1)];
    (next?.querySelector("button") ?? panel.current)?.focus();
  }, [list.data]);

  /** Publish a pending review, or keep a reported one online (its reports closed, its dentist told). */
  const decideNow = (review: ModerationReview, decision: "publish" | "keep") => {
    willLeave(review);
    decide.mutate(
      { review, decision },
      {
        onSuccess: (result) => toast.success(result.message),
        onError: (failure) => {
          leaving.current = null;
          toast.error(failure.message);
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title="Avis"
        description="Chaque avis est relu avant publication : pas de données de santé, de coordonnées, d'injures ni de propos hors sujet. Un avis négatif conforme est publié comme un autre."
      />
      <Tabs
        value={status}
        onValueChange={(value) => {
          leaving.current = null;
          setStatus(value as Status);
          setPage(1);
        }}
      >
        <TabsList aria-label="Avis par état">
          {(Object.keys(TABS) as Status[]).map((tab) => (
            <TabsTrigger key={tab} value={tab}>
              {TABS[tab]}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent ref={panel} value={status} className="mt-6 grid gap-4">
          {list.isPending ? (
            <Skeleton className="h-64 w-full rounded-ui" />
          ) : list.isError ? (
            <LoadError title="Impossible de charger les avis" onRetry={() => void list.refetch()} />
          ) : list.data.items.length === 0 ? (
            <EmptyState icon={MessageSquareText} title="Aucun avis ici" />
          ) : (
            list.data.items.map((review) => (
              <ModerationCard
                key={review.id}
                review={review}
                actions={
                  review.status === "refused" ? null : (
                    <div className="flex flex-wrap gap-3">
                      {review.status === "pending" ? (
                        <Button
                          size="sm"
                          loading={decide.isPending}
                          onClick={() => decideNow(review, "publish")}
                        >
                          Publier
                        </Button>
                      ) : null}
                      {review.status === "published" && hasOpenReport(review) ? (
                        <Button
                          size="sm"
                          loading={decide.isPending}
                          onClick={() => decideNow(review, "keep")}
                        >
                          Garder en ligne
                        </Button>
                      ) : null}
                      <Button size="sm" variant="outline" onClick={() => setRefusing(review)}>
                        {review.status === "published" ? "Retirer" : "Refuser"}
                      </Button>
                    </div>
                  )
                }
              />
            ))
          )}
          <ListPagination
            page={page}
            hasMore={list.data?.has_more}
            onPageChange={(next) => {
              setPage(next);
              // The next page from its first review, not from the bottom of tall cards.
              panel.current?.scrollIntoView?.({ block: "start" });
            }}
          />
        </TabsContent>
      </Tabs>
      <RefuseDialog review={refusing} onRefused={willLeave} onClose={() => setRefusing(null)} />
    </>
  );
}

/** On a dentist's verification card: that dentist's published reviews and the reports on them. */
export function DentistReviewsSummary({ dentistId }: { dentistId: string }) {
  const list = useModerationList("published", dentistId, 1);
  if (list.isPending || list.isError) return null;
  const items = list.data.items;
  // Reports the team has not decided on yet; closed ones stay readable on each card.
  const reports = items.reduce(
    (n, review) => n + review.reports.filter((r) => r.closed_at === null).length,
    0,
  );
  return (
    <details className="rounded-ui border border-slate-200 p-3">
      <summary className="cursor-pointer text-sm font-medium text-slate-900">
        Avis publiés : {items.length}
        {list.data.has_more ? "+" : ""} · signalements à examiner : {reports}
      </summary>
      <div className="mt-3 grid gap-3">
        {items.map((review) => (
          <ModerationCard key={review.id} review={review} />
        ))}
      </div>
    </details>
  );
}
