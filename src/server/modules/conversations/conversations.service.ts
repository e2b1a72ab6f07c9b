import { sql } from "kysely";
import { z } from "zod";
import { drName } from "../../../shared/format/names";
import { CHAT_MESSAGES, MESSAGE_MAX_FILES, MESSAGE_MAX_LENGTH } from "../../../shared/schemas/conversations";
import { emailPreferencesPath } from "../../../shared/schemas/profile";
import type { Actor } from "../../access/actor";
import { holdOwnAccount } from "../../access/own-account";
import {
  type ChatDeps,
  mailClaim,
  publishQuietly,
  sendUnreadMail,
  UNREAD_EMAIL_DELAY_MS,
  UNREAD_EMAIL_INTERVAL_MS,
  type UnreadMailDeps,
  unreadMailWindow,
} from "../../chat/notify";
import { AppError, notFound } from "../../errors";
import type { FormRules } from "../../http/multipart";
import type { StoredFile } from "../../http/uploads";
import { UPLOAD_CONTENT_TYPES } from "../../http/uploads";
import { conversationsRepo, loadMessages } from "./conversations.repo";

/** The message form (read once at the route, http/multipart.ts): `body`, and up to 5 `files`. */
export function messageForm(actor: Actor): FormRules {
  return {
    notMultipart: "Le message doit être envoyé en multipart/form-data.",
    fields: 5,
    files: {
      field: "files",
      max: MESSAGE_MAX_FILES,
      accepted: UPLOAD_CONTENT_TYPES,
      keyPrefix: actor.userId,
      tooLarge: CHAT_MESSAGES.fileTooLarge,
      badContent: CHAT_MESSAGES.fileContent,
      tooMany: CHAT_MESSAGES.tooManyFiles,
    },
  };
}

/** The message form's text field, as sent (its rules are checked by `sendMessage`). */
export const messageFields = z.object({ body: z.string().optional() });

/**
 * Sends a message (text and/or files already stored, typed by content like uploads) in a
 * conversation the actor is part of, refused (409) once the other party's account was erased or the
 * dentist written to is no longer verified. The
 * message and its attachments are one transaction; the route's form removes the files when this
 * fails. The other party is told live.
 */
export async function sendMessage(
  deps: ChatDeps,
  actor: Actor,
  conversation: { id: string; other: { id: string } },
  text: string | undefined,
  stored: readonly StoredFile[],
) {
  const conversationId = conversation.id;
  const body = (text ?? "").trim();
  if (!body && stored.length === 0)
    throw new AppError(400, "VALIDATION_ERROR", CHAT_MESSAGES.empty, { body: CHAT_MESSAGES.empty });
  if (body.length > MESSAGE_MAX_LENGTH)
    throw new AppError(400, "VALIDATION_ERROR", CHAT_MESSAGES.tooLong, { body: CHAT_MESSAGES.tooLong });

  const now = deps.clock();
  const messageId = await deps.db.transaction().execute(async (trx) => {
    // Erased while the files were streaming: signed out, and the form removes the files.
    await holdOwnAccount(trx, actor);
    // The other party's account erased: nobody would read it (409; the conversation stays readable).
    const locked = await conversationsRepo(trx, actor).lockToWrite(conversationId);
    if (!locked) throw notFound(CHAT_MESSAGES.notFound);
    if (locked.other === "erased") throw new AppError(409, "CONFLICT", CHAT_MESSAGES.otherErased);
    // Suspended by the team (ADR 092): she cannot sign in to read it, nor is she e-mailed of it.
    if (locked.other === "suspended") throw new AppError(409, "CONFLICT", CHAT_MESSAGES.otherSuspended);
    // A dentist whose verification was withdrawn reads nothing (D6): the patient is told, not ignored.
    if (locked.other === "unverified") throw new AppError(409, "CONFLICT", CHAT_MESSAGES.otherUnverified);
    const message = await trx
      .insertInto("messages")
      .values({ conversation_id: conversationId, sender_id: actor.userId, body, created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (stored.length > 0)
      await trx
        .insertInto("message_attachments")
        .values(
          stored.map((file, position) => ({
            message_id: message.id,
            storage_key: file.key,
            file_name: file.name,
            mime_type: file.mime,
            size: file.size,
            position,
          })),
        )
        .execute();
    await trx
      .updateTable("conversations")
      .set({ last_message_at: sql`greatest(last_message_at, ${now})` })
      .where("id", "=", conversationId)
      .execute();
    return message.id;
  });
  const [message] = await loadMessages(deps.db, [messageId]);
  if (!message) throw new Error("message enregistré introuvable");
  await publishQuietly(deps.bus, {
    kind: "message",
    conversationId,
    messageId,
    userIds: [actor.userId, conversation.other.id],
  });
  return message;
}

/** Marks a conversation read for the actor and tells both parties (read receipts, counts). */
export async function markConversationRead(deps: ChatDeps, actor: Actor, conversationId: string) {
  const repo = conversationsRepo(deps.db, actor);
  const conversation = await repo.find(conversationId);
  if (!conversation) throw notFound(CHAT_MESSAGES.notFound);
  const now = deps.clock();
  const read = await repo.markRead(conversationId, now);
  if (read > 0)
    await publishQuietly(deps.bus, {
      kind: "read",
      conversationId,
      readerId: actor.userId,
      readAt: now.toISOString(),
      userIds: [actor.userId, conversation.other.id],
    });
  return read;
}

export { UNREAD_EMAIL_DELAY_MS, UNREAD_EMAIL_INTERVAL_MS };

/**
 * E-mails whoever left a message unread for 15 minutes, at most once an hour per conversation and
 * recipient, and only for messages newer than the last e-mail. The claim is a conditional update,
 * so several instances never send the same e-mail twice; the state is in the database, so a
 * restart neither repeats nor forgets them. Returns how many e-mails went out.
 */
export async function sendUnreadEmails(deps: UnreadMailDeps): Promise<number> {
  const { olderThan, lastMailBefore } = unreadMailWindow(deps.now);
  let sent = 0;
  for (const side of ["patient", "dentist"] as const) {
    const recipient = side === "patient" ? "patient_id" : "dentist_id";
    const other = side === "patient" ? "dentist_id" : "patient_id";
    const notified = side === "patient" ? "patient_notified_at" : "dentist_notified_at";
    const claim = mailClaim(`c.${notified}`, lastMailBefore);
    const claimed = await deps.db
      .updateTable("conversations as c")
      .set({ [notified]: deps.now })
      .where(claim.due)
      // The recipient, in one look at his profile: unless he stopped these e-mails (ADR 081: nothing
      // is claimed, so turning them back on tells of the messages still unread then, once); and a
      // dentist once verified (D6: his conversations are closed to him until then; the messages he
      // left unread meanwhile are e-mailed about then); and never a suspended account (ADR 092: she
      // cannot sign in to read them; told once of those still unread when the suspension is lifted), nor
      // an erased one (« Nous ne vous écrirons plus »: her address is no one's).
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("profiles as r")
            .select("r.id")
            .where("r.id", "=", eb.ref(`c.${recipient}`))
            .where("r.email_messages", "=", true)
            .where("r.suspended_at", "is", null)
            .where("r.erased_at", "is", null)
            .$if(side === "dentist", (qb) => qb.where("r.is_verified", "=", true)),
        ),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("messages as m")
            .select("m.id")
            .whereRef("m.conversation_id", "=", "c.id")
            .where("m.read_at", "is", null)
            .where("m.created_at", "<=", olderThan)
            .where((inner) =>
              inner.or([
                inner("m.sender_id", "is", null),
                inner("m.sender_id", "!=", inner.ref(`c.${recipient}`)),
              ]),
            )
            .where(claim.newerThanMail),
        ),
      )
      .returning(["c.id", `c.${recipient} as recipient_id`, `c.${other} as other_id`, "c.request_id"])
      .execute();
    for (const row of claimed) {
      const people = await deps.db
        .selectFrom("profiles")
        .select(["id", "email", "first_name", "full_name"])
        .where("id", "in", [row.recipient_id, row.other_id])
        .execute();
      const to = people.find((p) => p.id === row.recipient_id);
      const from = people.find((p) => p.id === row.other_id);
      if (!to) continue;
      const area = side === "patient" ? "patient/messages" : `dentist/messages/${row.id}`;
      // To a patient, the dentist with his title (glossary).
      const fromName =
        side === "patient"
          ? from?.full_name
            ? drName(from.full_name)
            : "Votre dentiste"
          : from?.full_name || "Votre patient";
      const preferencesPath = emailPreferencesPath(side);
      if (
        await sendUnreadMail(
          deps,
          to,
          { fromName, path: area, preferencesPath },
          "e-mail de messages non lus non envoyé",
        )
      )
        sent += 1;
    }
  }
  return sent;
}
