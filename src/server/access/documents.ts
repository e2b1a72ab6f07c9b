import type { Db } from "../db/index";
import { storedFileColumns } from "../db/queries";
import type { Actor } from "./actor";
import { requestVisibleTo } from "./requests";

/**
 * A document the actor may open (ADR 005), or undefined (→ 404): its owner, or anyone who may
 * read its request (requestVisibleTo). Nobody else, whatever id they try.
 */
export async function findReadableDocument(db: Db, actor: Actor, documentId: string) {
  return db
    .selectFrom("documents as d")
    .innerJoin("requests as r", "r.id", "d.request_id")
    .select(["d.id", "d.request_id", "d.owner_id", ...storedFileColumns("d")])
    .where("d.id", "=", documentId)
    .where((eb) => eb.or([eb("d.owner_id", "=", actor.userId), requestVisibleTo(eb, actor)]))
    .executeTakeFirst();
}

/**
 * Every document of a request, if the actor may read that request (requestVisibleTo); undefined
 * otherwise (→ 404).
 */
export async function findReadableRequestDocuments(db: Db, actor: Actor, requestId: string) {
  const found = await db
    .selectFrom("requests as r")
    .select(["r.id", "r.patient_id"])
    .where("r.id", "=", requestId)
    .where((eb) => requestVisibleTo(eb, actor))
    .executeTakeFirst();
  if (!found) return undefined;
  const documents = await db
    .selectFrom("documents as d")
    .select(["d.id", "d.request_id", "d.owner_id", ...storedFileColumns("d"), "d.created_at"])
    .where("d.request_id", "=", requestId)
    .orderBy("d.position")
    .execute();
  return { request: found, documents };
}
