import type { Actor } from "../access/actor";
import type { Db } from "../db/index";
import { conversationsRepo } from "../modules/conversations/conversations.repo";

/**
 * The patient read her conversation with the dentist when she accepted his offer: its messages are
 * read at that time (the conversation's counters follow, kept by the database), so a finished
 * treatment of weeks ago is not « non lu » in her messages nor e-mailed at the demo's first start.
 */
export async function readConversation(db: Db, patient: Actor, requestId: string, dentist: Actor, at: Date) {
  const conversation = await db
    .selectFrom("conversations")
    .select("id")
    .where("request_id", "=", requestId)
    .where("patient_id", "=", patient.userId)
    .where("dentist_id", "=", dentist.userId)
    .executeTakeFirst();
  if (conversation) await conversationsRepo(db, patient).markRead(conversation.id, at);
}
