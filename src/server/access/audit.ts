import { sql } from "kysely";
import type { Db } from "../db/index";
import type { AccessAction } from "../db/types";
import type { Actor } from "./actor";

/**
 * What each audit action reads as in the admin's audit list (French). `writeAudit` takes only these
 * actions, so a new one cannot be written without its label (audit-labels.test.ts also checks the
 * code's action strings). `document.*` are the patients' documents opened, from document_access.
 */
export const AUDIT_LABELS = {
  "verification.requested": "Demande de vérification",
  "verification.granted": "Dentiste vérifié",
  "verification.revoked": "Vérification retirée",
  "verification.refused": "Vérification refusée",
  "admin.granted": "Droits d'administration accordés",
  "admin.ensured": "Compte administrateur créé ou confirmé",
  "retention.run": "Durées de conservation appliquées",
  "request.deleted": "Demande supprimée par le patient",
  "request.consent_withdrawn": "Consentement retiré par le patient, demande annulée",
  "request.opened_to_all":
    "Demande envoyée par le patient à tous les dentistes vérifiés, nouveau consentement",
  "request.document_type_changed": "Type d'un document corrigé par le patient",
  "account.password_changed": "Mot de passe modifié",
  "account.password_change_refused": "Changement de mot de passe refusé (mot de passe actuel incorrect)",
  "account.email_change_requested": "Changement d'adresse e-mail demandé (lien envoyé à la nouvelle adresse)",
  "account.email_change_refused": "Changement d'adresse e-mail refusé (mot de passe actuel incorrect)",
  "account.email_changed": "Adresse e-mail modifiée",
  "account.two_factor_enabled": "Double authentification activée",
  "account.two_factor_disabled": "Double authentification désactivée",
  "account.two_factor_codes_renewed": "Codes de secours de la double authentification renouvelés",
  "account.two_factor_refused": "Double authentification : mot de passe incorrect",
  "account.two_factor_devices_forgotten":
    "Double authentification : code de nouveau demandé sur les appareils mémorisés",
  "account.two_factor_removed": "Double authentification retirée par l'équipe, à la demande de la personne",
  "account.two_factor_removed_on_server":
    "Double authentification retirée depuis le serveur par l'exploitant (npm run create-admin)",
  "account.erased": "Compte supprimé",
  "account.suspended": "Compte suspendu par l'équipe",
  "account.reinstated": "Suspension du compte levée",
  "account.suspension_end_changed": "Date de fin de la suspension modifiée",
  "account.erasure_refused": "Suppression du compte refusée (mot de passe incorrect)",
  "account.data_exported": "Données personnelles exportées",
  "review.published": "Avis de patient publié",
  "review.refused": "Avis de patient refusé ou retiré",
  "review.kept": "Avis de patient signalé, gardé en ligne",
  "attachment.view": "Pièce jointe consultée",
  "attachment.download": "Pièce jointe téléchargée",
  "support_image.view": "Image d'assistance consultée",
  "document.view": "Document consulté",
  "document.download": "Document téléchargé",
} as const;

/** An action the audit trail records (its label above). */
export type AuditAction = Exclude<keyof typeof AUDIT_LABELS, `document.${string}`>;

/** One line of the audit trail (admins' decisions, account events, files opened by someone else). */
export interface AuditEntry {
  /** Null for the system (start-up, jobs). */
  actorId: string | null;
  action: AuditAction;
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

/** One read of a patient's health data by someone else, for the patient's access history. */
export interface AccessRead {
  requestId: string;
  action: AccessAction;
  /** The document read (document views and downloads only). */
  documentId?: string;
  /** The name of what was read when it is not a document (a chat attachment's file name). */
  objectName?: string;
  /** When it was read; now unless said. */
  at?: Date;
}

/** A dentist reopening the request page within this time is one visit, not a row each time. */
export const REQUEST_VIEW_DEDUP_MS = 10 * 60_000;

/**
 * Records a read of a patient's data by someone else (a dentist or the team): shown to the patient
 * on the request page (issue 14). Names are copied at the time of the read. A request-page view is
 * written once per reader and request every REQUEST_VIEW_DEDUP_MS (the page refetches itself).
 */
export async function recordAccess(db: Db, actor: Actor, read: AccessRead): Promise<void> {
  const row = {
    document_id: read.documentId ?? null,
    request_id: read.requestId,
    actor_id: actor.userId,
    actor_name: actor.profile.full_name || actor.profile.email,
    actor_kind: actor.profile.is_admin ? ("admin" as const) : ("dentist" as const),
    action: read.action,
    object_name: read.objectName ?? null,
    ...(read.at ? { created_at: read.at } : {}),
  };
  if (read.action !== "request_view") {
    await db.insertInto("document_access").values(row).execute();
    return;
  }
  const at = read.at ?? null;
  await sql`
    insert into document_access (request_id, actor_id, actor_name, actor_kind, action, created_at)
    select ${row.request_id}::uuid, ${row.actor_id}::uuid, ${row.actor_name}, ${row.actor_kind}, 'request_view',
      coalesce(${at}::timestamptz, now())
    where not exists (
      select 1 from document_access
      where request_id = ${row.request_id}::uuid and actor_id = ${row.actor_id}::uuid and action = 'request_view'
        and created_at > coalesce(${at}::timestamptz, now()) - make_interval(secs => ${REQUEST_VIEW_DEDUP_MS / 1000})
    )
  `.execute(db);
}

/** Records a view or download of a patient's document by someone else (shown to the patient). */
export function recordDocumentAccess(
  db: Db,
  actor: Actor,
  document: { id: string; request_id: string },
  action: "view" | "download",
  at?: Date,
): Promise<void> {
  return recordAccess(db, actor, { requestId: document.request_id, action, documentId: document.id, at });
}

/**
 * Records the team opening a patient's support thread or one of its images (issue 14): shown to the
 * patient on the help page. A thread view is written once per reader every REQUEST_VIEW_DEDUP_MS.
 */
export async function recordSupportAccess(
  db: Db,
  actor: Actor,
  patientId: string,
  read: { action: "support_thread_view" } | { action: "support_image_view"; objectName: string },
): Promise<void> {
  const actorName = actor.profile.full_name || actor.profile.email;
  const objectName = read.action === "support_image_view" ? read.objectName : null;
  await sql`
    insert into document_access (support_patient_id, actor_id, actor_name, actor_kind, action, object_name)
    select ${patientId}::uuid, ${actor.userId}::uuid, ${actorName}, 'admin', ${read.action}, ${objectName}
    where ${read.action} <> 'support_thread_view' or not exists (
      select 1 from document_access
      where support_patient_id = ${patientId}::uuid and actor_id = ${actor.userId}::uuid
        and action = 'support_thread_view' and created_at > now() - make_interval(secs => ${REQUEST_VIEW_DEDUP_MS / 1000})
    )
  `.execute(db);
}
