import type { DocumentAccessDto } from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";
import { patientRequestsRepo } from "./requests.repo";

/**
 * One of the patient's own requests with its documents, who opened them and the dentists' replies;
 * undefined for anyone else's. The request detail (offers module) adds the offers to it (ADR 029).
 */
export async function patientRequestDetail(db: Db, actor: Actor, id: string, now: Date) {
  const requests = patientRequestsRepo(db, actor, now);
  const row = await requests.find(id);
  if (!row) return undefined;
  const [documents, accessLog, replies] = await Promise.all([
    requests.documents(id),
    requests.accessLog(id),
    requests.replies(id),
  ]);
  return { row, documents, accessLog, replies };
}

/** A row of the access log as the patient's routes answer it. */
export function accessLogItem(a: {
  id: string;
  document_id: string | null;
  document_name: string | null;
  actor_name: string;
  actor_kind: string;
  action: string;
  created_at: Date | string;
}): DocumentAccessDto {
  return {
    id: a.id,
    document_id: a.document_id,
    document_name: a.document_name,
    actor_name: a.actor_name,
    actor_kind: a.actor_kind as DocumentAccessDto["actor_kind"],
    action: a.action as DocumentAccessDto["action"],
    created_at: new Date(a.created_at).toISOString(),
  };
}
