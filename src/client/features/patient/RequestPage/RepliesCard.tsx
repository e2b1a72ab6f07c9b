import { MessageSquareText } from "lucide-react";
import { Link } from "react-router";
import { REPLIES_ANCHOR } from "../../../../shared/domain/journey";
import { formatDetailDateTime } from "../../../../shared/format/dates";
import { drName, theName } from "../../../../shared/format/names";
import type { RequestDetail } from "../../../../shared/schemas/requests";
import { Avatar } from "../../../components/ui/Avatar";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/Card";
import { useAnchorFocus } from "./useAnchorFocus";

/** 'Réponses des dentistes': each reply, with the way to its conversation. */
export function RepliesCard({ replies }: { replies: RequestDetail["replies"] }) {
  // '#reponses' (the reply e-mail's link, the journey's « Voir les réponses ») leads here.
  const title = useAnchorFocus(REPLIES_ANCHOR, replies.length);
  return (
    <Card className="lg:col-span-2" id={REPLIES_ANCHOR}>
      <CardHeader>
        <CardTitle ref={title} tabIndex={-1} className="outline-none">
          Réponses des dentistes
        </CardTitle>
      </CardHeader>
      <CardContent>
        {replies.length === 0 ? (
          <p className="flex items-center gap-3 text-slate-600">
            <MessageSquareText className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            Les réponses des dentistes apparaîtront ici. Un e-mail vous préviendra de chaque réponse.
          </p>
        ) : (
          <ul className="grid gap-4" aria-label="Réponses reçues">
            {replies.map((reply) => (
              <li key={reply.conversation_id} className="flex gap-3 rounded-ui border border-slate-200 p-4">
                <Avatar name={reply.dentist.full_name} src={reply.dentist.avatar_url} />
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-slate-900">
                    {drName(reply.dentist.full_name)}
                    {reply.dentist.city ? (
                      <span className="font-normal text-slate-600"> · {reply.dentist.city}</span>
                    ) : null}
                  </p>
                  <p className="text-sm text-slate-600">{formatDetailDateTime(reply.created_at)}</p>
                  <p className="mt-2 whitespace-pre-line wrap-anywhere text-slate-800">{reply.message}</p>
                  <Link
                    to={`/patient/messages?c=${encodeURIComponent(reply.conversation_id)}`}
                    aria-label={`Continuer la conversation avec ${theName(drName(reply.dentist.full_name))}`}
                    className="mt-2 inline-block text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                  >
                    Continuer la conversation
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
