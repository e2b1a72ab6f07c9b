import { MessagesSquare } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/Button";

/** 'Voir la conversation' with the patient, in the dentist's messages. */
export function ConversationButton({ conversationId }: { conversationId: string }) {
  return (
    <Button asChild variant="outline">
      <Link to={`/dentist/messages/${conversationId}`}>
        <MessagesSquare aria-hidden="true" />
        Voir la conversation
      </Link>
    </Button>
  );
}
