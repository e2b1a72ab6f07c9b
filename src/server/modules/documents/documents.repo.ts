import type { Db } from "../../db/index";
import type { Actor } from "../../session";
import { visibleToDentist } from "../requests/requests.repo";

/**
 * A document the actor may open (decision D10), or undefined (→ 404): its owner; an admin; a
 * verified dentist for a request visible to them (D6). Nobody else, whatever id they try.
 */
export async function findReadableDocument(db: Db, actor: Actor, documentId: string) {
  const { profile } = actor;
  let query = db
    .selectFrom("documents as d")
    .innerJoin("requests as r", "r.id", "d.request_id")
    .select(["d.id", "d.request_id", "d.owner_id", "d.storage_key", "d.file_name", "d.size", "d.mime_type"])
    .where("d.id", "=", documentId);
  if (profile.is_admin) {
    // Admins may open every document, for support; their access is recorded like a dentist's.
  } else if (profile.role === "dentist" && profile.is_verified) {
    query = query.where((eb) =>
      eb.or([eb("d.owner_id", "=", actor.userId), visibleToDentist(eb, actor.userId)]),
    );
  } else {
    query = query.where("d.owner_id", "=", actor.userId);
  }
  return query.executeTakeFirst();
}

/**
 * Every document of a request, if the actor may read that request's documents (same rule as
 * findReadableDocument: the owning patient, an admin, a verified dentist who sees the request);
 * undefined otherwise (→ 404).
 */
export async function findReadableRequestDocuments(db: Db, actor: Actor, requestId: string) {
  const { profile } = actor;
  let request = db.selectFrom("requests as r").select(["r.id", "r.patient_id"]).where("r.id", "=", requestId);
  if (profile.is_admin) {
    // Support: recorded like a dentist's access.
  } else if (profile.role === "dentist" && profile.is_verified) {
    request = request.where((eb) => visibleToDentist(eb, actor.userId));
  } else {
    request = request.where("r.patient_id", "=", actor.userId);
  }
  const found = await request.executeTakeFirst();
  if (!found) return undefined;
  const documents = await db
    .selectFrom("documents as d")
    .select(["d.id", "d.request_id", "d.owner_id", "d.storage_key", "d.file_name", "d.size", "d.created_at"])
    .where("d.request_id", "=", requestId)
    .orderBy("d.position")
    .execute();
  return { request: found, documents };
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
