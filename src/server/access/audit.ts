import type { Db } from "../db/index";
import type { Actor } from "./actor";

/** One line of the audit trail (admins' decisions, account events, files opened by someone else). */
export interface AuditEntry {
  /** Null for the system (start-up, jobs). */
  actorId: string | null;
  action: string;
  subjectType: string;
  /** The subject's id; null for the system's own runs. */
  subjectId: string | null;
  details?: Record<string, unknown>;
  at?: Date;
}

/** The audit writer: every audit_log row goes through here (a transaction may be passed as db). */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId,
      details: JSON.stringify(entry.details ?? {}),
      ...(entry.at ? { created_at: entry.at } : {}),
    })
    .execute();
}

/** Records a view or download of a patient's document by someone else (shown to the patient). */
export async function recordDocumentAccess(
  db: Db,
  actor: Actor,
  document: { id: string; request_id: string },
  action: "view" | "download",
): Promise<void> {
  await db
    .insertInto("document_access")
    .values({
      document_id: document.id,
      request_id: document.request_id,
      actor_id: actor.userId,
      actor_name: actor.profile.full_name || actor.profile.email,
      actor_kind: actor.profile.is_admin ? "admin" : "dentist",
      action,
    })
    .execute();
}
