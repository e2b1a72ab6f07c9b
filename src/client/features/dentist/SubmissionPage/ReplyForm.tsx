import { CheckCircle2, Send } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { mayReply, REPLY_REFUSED } from "../../../../shared/policies/replies";
import { DENTIST_MESSAGES, type DentistRequestDetail } from "../../../../shared/schemas/dentist";
import {
  SubscriptionLimitNotice,
  useLimitExplainer,
  useSubscriptionLimited,
} from "../../../components/subscription/SubscriptionLimit";
import { Button } from "../../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { Label } from "../../../components/ui/Label";
import { Textarea } from "../../../components/ui/Textarea";
import { useReplyToRequest } from "../api";
import { sendFailure } from "../requestStatus";

/** After a successful reply the dentist goes back to the dashboard after this long. */
export const REPLY_REDIRECT_MS = 2000;

/**
 * 'Répondre au patient': the reply opens the conversation; refused once this dentist has replied
 * (the shared reply rule); after sending, back to the dashboard after REPLY_REDIRECT_MS.
 */
export function ReplyForm({ request }: { request: DentistRequestDetail }) {
  const navigate = useNavigate();
  const reply = useReplyToRequest(request.id);
  // A lapsed subscription (issue 35): the server refuses the reply; the form says why and the way back.
  const limitedNow = useSubscriptionLimited();
  const refusal = useLimitExplainer();
  const limited = limitedNow || refusal.limited;
  const [text, setText] = useState("");
  const [redirecting, setRedirecting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fieldId = useId();
  const noteId = `${fieldId}-note`;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const allowed = mayReply(request.my_status) && !redirecting;
  const blocked = !mayReply(request.my_status) && !redirecting;
  const canSend = allowed && text.trim().length > 0 && !reply.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSend) return;
    reply.mutate(text.trim(), {
      onSuccess: () => {
        toast.success(DENTIST_MESSAGES.replySent);
        setText("");
        setRedirecting(true);
        timer.current = setTimeout(() => navigate("/dentist/dashboard"), REPLY_REDIRECT_MS);
      },
      onError: async (error) => {
        if (await refusal.explain(error)) return;
        toast.error(DENTIST_MESSAGES.replyFailed, { description: sendFailure(error) });
      },
    });
  };

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Répondre au patient</CardTitle>
        <CardDescription>
          Votre réponse ouvre une conversation avec le patient ; vous pourrez ensuite échanger dans vos
          messages.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {limited ? (
          <SubscriptionLimitNotice />
        ) : (
          <form className="grid gap-3" onSubmit={onSubmit} aria-label="Réponse au patient">
            <Label htmlFor={fieldId}>Votre réponse au patient</Label>
            <Textarea
              id={fieldId}
              rows={6}
              maxLength={5000}
              value={text}
              onChange={(event) => setText(event.target.value)}
              disabled={!allowed || reply.isPending}
              aria-describedby={blocked ? noteId : undefined}
              placeholder="Bonjour, j'ai étudié votre devis et vos radiographies…"
            />
            {blocked ? (
              <p id={noteId} className="text-sm font-medium text-slate-700">
                {REPLY_REFUSED}
              </p>
            ) : null}
            {redirecting ? (
              <p className="flex items-center gap-2 text-sm text-green-800" role="status">
                <CheckCircle2 className="size-4" aria-hidden="true" />
                Réponse envoyée. Vous allez être redirigé vers votre tableau de bord…
              </p>
            ) : null}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={!canSend} loading={reply.isPending}>
                <Send aria-hidden="true" />
                Envoyer la réponse
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
