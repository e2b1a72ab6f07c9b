import { treatmentLabel } from "../../../shared/domain/treatments";
import type { DocumentAccessDto } from "../../../shared/schemas/requests";
import type { Actor } from "../../access/actor";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { type MailAfterCommit, mailAfterCommit } from "../../mail/mailer";
import { offerClosedMail } from "../../mail/templates";
import type { AnnounceDeps } from "../../realtime/bus";
import { announceOpenRequests, announceRequestChange } from "./request.events";
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

/** A request just cancelled (or deleted), and the dentists whose waiting offer on it was closed. */
export interface CancelledRequest {
  id: string;
  treatment_type: string;
  closedOffersOf: { id: string; email: string; first_name: string }[];
  /** The patient who did it: her other tabs (lists, dashboard, that request's page) reload too. */
  patientId?: string;
}

/**
 * After cancellations' commit, never failing it: each dentist whose offer one closed is told, kindly,
 * as when the patient chooses another offer: the treatment, never the patient (ADR 088); their open
 * offers pages reload, and every dentist's lists once for them all (ADR 089); the patient's other
 * tabs reload hers.
 */
export function tellDentistsOfCancellation(
  deps: MailAfterCommit & AnnounceDeps & { config: AppConfig },
  cancelled: CancelledRequest[],
) {
  if (cancelled.length === 0) return;
  // Closed to every dentist: their lists and counters lose them.
  announceOpenRequests(deps);
  for (const request of cancelled) {
    const dentists = request.closedOffersOf;
    const told = [...dentists.map((d) => d.id), ...(request.patientId ? [request.patientId] : [])];
    if (told.length > 0) announceRequestChange(deps, request.id, told);
    for (const dentist of dentists)
      mailAfterCommit(
        deps,
        {
          to: dentist.email,
          ...offerClosedMail({
            brandName: deps.config.brandName,
            firstName: dentist.first_name,
            treatment: treatmentLabel(request.treatment_type).toLowerCase(),
            link: `${deps.config.publicUrl}/dentist/offers`,
            cancelled: true,
          }),
        },
        "e-mail d'annulation de demande non envoyé",
      );
  }
}
