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
