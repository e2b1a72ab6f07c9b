import { z } from "zod";
import { SUPPORT_MESSAGES, type SupportRole, supportRequestIdSchema } from "../../../shared/schemas/support";
import type { Actor } from "../../access/actor";
import { recordSupportAccess, writeAudit } from "../../access/audit";
import { holdOwnAccount } from "../../access/own-account";
import { requestVisibleTo } from "../../access/requests";
import {
  type ChatDeps,
  mailClaim,
  publishQuietly,
  sendUnreadMail,
  type UnreadMailDeps,
  unreadMailWindow,
} from "../../chat/notify";
import type { Db } from "../../db/index";
import { AppError, forbidden, notFound } from "../../errors";
import type { FormRules } from "../../http/multipart";
import type { StoredFile } from "../../http/uploads";
import type { EventBus } from "../../realtime/bus";
import type { Storage } from "../../storage/storage";
import { loadSupportMessages, supportImageOf, supportPage, supportThreads } from "./support.repo";

const IMAGE_TYPES: ReadonlySet<string> = new Set(["jpg", "png"]);

function publish(bus: EventBus, patientId: string, messageId: string) {
  return publishQuietly(bus, { kind: "support", patientId, messageId, userIds: [patientId] });
}

/** The support thread's role for a person: patients and dentists have one, nobody else. */
export function supportRoleOf(actor: Actor): SupportRole | null {
  if (actor.profile.is_admin) return null;
  const role = actor.profile.role;
  return role === "patient" || role === "dentist" ? role : null;
}

const requestRefused = () =>
  new AppError(400, "VALIDATION_ERROR", SUPPORT_MESSAGES.requestUnknown, {
    request_id: SUPPORT_MESSAGES.requestUnknown,
  });

/**
 * The request a message names (`request_id`): one the writer may see (their own request for a
 * patient, a request open to them or chosen them for a verified dentist), else a 400 naming the field
 * (the same answer for a missing request and for another person's).
 */
async function checkedRequestId(db: Db, actor: Actor, value: string): Promise<string | null> {
  const text = value.trim();
  if (!text) return null;
  const parsed = supportRequestIdSchema.safeParse(text);
  if (!parsed.success) throw requestRefused();
  const row = await db
    .selectFrom("requests as r")
    .select("r.id")
    .where("r.id", "=", parsed.data)
    .where((eb) => requestVisibleTo(eb, actor))
    .executeTakeFirst();
  if (!row) throw requestRefused();
  return row.id;
}

/** The support form (read once at the route, http/multipart.ts): `body`, `request_id`, one `image`. */
export function supportForm(actor: Actor): FormRules {
  return {
    notMultipart: "Le message doit être envoyé en multipart/form-data.",
    fields: 5,
    files: {
      field: "image",
      max: 1,
      accepted: IMAGE_TYPES,
      keyPrefix: actor.userId,
      tooLarge: () => SUPPORT_MESSAGES.imageTooLarge,
      badContent: () => SUPPORT_MESSAGES.imageOnly,
      tooMany: SUPPORT_MESSAGES.oneImage,
    },
  };
}

/** The support form's text fields, as sent (their rules are checked by `postOwnMessage`). */
export const supportFields = z.object({ body: z.string().optional(), request_id: z.string().optional() });

/**
 * A patient or a dentist writes to the team ('Besoin d'aide ?'): text and/or one image (JPG or PNG,
 * 10 MB, typed by content, already stored by the route's form), optionally about one request they
 * may see (`request_id`). The thread and the message are one transaction; the route's form removes
 * the image when this fails. The admins see it live.
 */
export async function postOwnMessage(
  deps: ChatDeps,
  actor: Actor,
  fields: z.output<typeof supportFields>,
  image: StoredFile | undefined,
) {
  const role = supportRoleOf(actor);
  if (!role) throw forbidden();
  const body = (fields.body ?? "").trim();
  const requestField = fields.request_id ?? "";
  if (!body && !image)
    throw new AppError(400, "VALIDATION_ERROR", SUPPORT_MESSAGES.empty, { body: SUPPORT_MESSAGES.empty });
  if (body.length > 5000)
    throw new AppError(400, "VALIDATION_ERROR", SUPPORT_MESSAGES.tooLong, {
      body: SUPPORT_MESSAGES.tooLong,
    });
  const now = deps.clock();
  const id = await deps.db.transaction().execute(async (trx) => {
    // Erased while the image was streaming: signed out (before its requests are looked for), and
    // the form removes the image.
    await holdOwnAccount(trx, actor);
    const requestId = await checkedRequestId(trx, actor, requestField);
    await trx
      .insertInto("support_threads")
      .values({ patient_id: actor.userId, role, last_message_at: now })
      .onConflict((oc) => oc.column("patient_id").doUpdateSet({ last_message_at: now }))
      .execute();
    const row = await trx
      .insertInto("support_messages")
      .values({
        patient_id: actor.userId,
        sender_id: actor.userId,
        from_team: false,
        body,
        image_key: image?.key ?? null,
        image_name: image?.name ?? null,
        image_type: image?.mime ?? null,
        image_size: image?.size ?? null,
        request_id: requestId,
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
  await publish(deps.bus, actor.userId, id);
  return await loadOne(deps.db, id);
}

/** An admin answers a thread (text). Its owner sees it live, or by e-mail if unread. */
export async function postTeamReply(deps: ChatDeps, admin: Actor, patientId: string, body: string) {
  const now = deps.clock();
  const id = await deps.db.transaction().execute(async (trx) => {
    const thread = await trx
      .updateTable("support_threads")
      .set({ last_message_at: now })
      .where("patient_id", "=", patientId)
      .returning("patient_id")
      .executeTakeFirst();
    if (!thread) throw notFound("Conversation introuvable.");
    const row = await trx
      .insertInto("support_messages")
      .values({ patient_id: patientId, sender_id: admin.userId, from_team: true, body, created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
  await publish(deps.bus, patientId, id);
  return loadOne(deps.db, id);
}

async function loadOne(db: Db, id: string) {
  const [message] = await loadSupportMessages(db, [id]);
  if (!message) throw new Error("message enregistré introuvable");
  return message;
}

/** Marks the other side's messages of a thread read: the owner's for the team, or the team's. */
export async function markSupportRead(db: Db, patientId: string, by: "team" | "patient", now: Date) {
  const rows = await db
    .updateTable("support_messages")
    .set({ read_at: now })
    .where("patient_id", "=", patientId)
    .where("from_team", "=", by === "patient")
    .where("read_at", "is", null)
    .returning("id")
    .execute();
  return rows.length;
}

/**
 * A patient or a dentist read the team's answers (their help page): marked read, and their other
 * tabs told, so that the « Besoin d'aide ? » badge and the dashboard follow (ids only).
 */
export async function readTeamAnswers(deps: { db: Db; bus: EventBus; clock: () => Date }, actor: Actor) {
  const read = await markSupportRead(deps.db, actor.userId, "patient", deps.clock());
  if (read > 0) await publishQuietly(deps.bus, { kind: "support-read", userIds: [actor.userId] });
  return read;
}

/**
 * The team's replies a patient or a dentist left unread for 15 minutes: one e-mail, at most hourly, only for
 * replies newer than the last e-mail (claimed by a conditional update: one sender among instances).
 */
export async function sendSupportUnreadEmails(deps: UnreadMailDeps): Promise<number> {
  const { olderThan, lastMailBefore } = unreadMailWindow(deps.now);
  const claim = mailClaim("t.patient_notified_at", lastMailBefore);
  const claimed = await deps.db
    .updateTable("support_threads as t")
    .set({ patient_notified_at: deps.now })
    .where(claim.due)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("support_messages as m")
          .select("m.id")
          .whereRef("m.patient_id", "=", "t.patient_id")
          .where("m.from_team", "=", true)
          .where("m.read_at", "is", null)
          .where("m.created_at", "<=", olderThan)
          .where(claim.newerThanMail),
      ),
    )
    .returning(["t.patient_id", "t.role"])
    .execute();
  let sent = 0;
  for (const { patient_id, role } of claimed) {
    const patient = await deps.db
      .selectFrom("profiles")
      .select(["email", "first_name"])
      .where("id", "=", patient_id)
      .executeTakeFirst();
    if (!patient) continue;
    const path = `${role === "dentist" ? "dentist" : "patient"}/help`;
    // « L'équipe vous a écrit sur Sourio » (the brand once).
    const fromName = "L'équipe";
    if (await sendUnreadMail(deps, patient, { fromName, path }, "e-mail d'assistance non envoyé")) sent += 1;
  }
  return sent;
}

/** The team's list of support threads, searched and paged (the admin screen, ADR 029). */
export function teamSupportThreads(db: Db, options: Parameters<typeof supportThreads>[1]) {
  return supportThreads(db, options);
}

/** One patient's support messages for the team, a page before a message (the admin screen). */
export function teamSupportPage(db: Db, patientId: string, options: Parameters<typeof supportPage>[2]) {
  return supportPage(db, patientId, options);
}

/**
 * A support message's image the actor may open (its thread's person, or the team), with its size;
 * null when there is none for him (missing, another person's, its file gone). A read by the team is
 * recorded in the person's access history and the audit trail, together or not at all.
 */
export async function openSupportImage(deps: { db: Db; storage: Storage }, actor: Actor, id: string) {
  if (!z.uuid().safeParse(id).success) return null;
  const row = await supportImageOf(deps.db, actor, id);
  const size = row?.image_key ? await deps.storage.size(row.image_key) : null;
  if (!row?.image_key || size === null) return null;
  if (row.patient_id !== actor.userId)
    await deps.db.transaction().execute(async (trx) => {
      await recordSupportAccess(trx, actor, row.patient_id, {
        action: "support_image_view",
        objectName: row.image_name ?? "image",
      });
      await writeAudit(trx, {
        actorId: actor.userId,
        action: "support_image.view",
        subjectType: "support_message",
        subjectId: row.id,
        details: { patient_id: row.patient_id },
      });
    });
  return { row: { ...row, image_key: row.image_key }, size };
}
