import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ERASURE_MESSAGES } from "../../../shared/schemas/account";
import {
  ADMIN_MESSAGES,
  adminPageQuerySchema,
  adminStatsSchema,
  adminUserListSchema,
  adminUsersQuerySchema,
  auditListSchema,
  auditQuerySchema,
  contactListSchema,
  suspensionEndSchema,
  suspensionResultSchema,
  suspensionSchema,
  verificationDecisionSchema,
  verificationQueueSchema,
  verificationResultSchema,
} from "../../../shared/schemas/admin";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import {
  supportMessageSchema,
  supportPageQuerySchema,
  supportPageSchema,
  supportReplySchema,
  supportThreadListSchema,
  supportThreadsQuerySchema,
} from "../../../shared/schemas/support";
import { recordSupportAccess } from "../../access/audit";
import { guardedRoutes } from "../../access/route";
import { notFound } from "../../errors";
import { useCaseDeps } from "../../http/deps";
import { sendPrivateFile } from "../../http/files";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { announceTeamWork } from "../../realtime/team";
import { eraseAccount, erasureDeps } from "../security/erasure.service";
import {
  markSupportRead,
  postTeamReply,
  teamSupportPage,
  teamSupportThreads,
} from "../support/support.service";
import { type AdminRepo, adminRepo } from "./admin.repo";
import { decideVerification } from "./admin.service";
import { reinstateAccount, setSuspensionEnd, suspendAccount } from "./suspension.service";
import { removeTwoFactor } from "./two-factor-removal.service";

/** A suspended dentist's subscription (ADR 092): what the team is told. */
const RENEWAL_MESSAGES = {
  stopped: ADMIN_MESSAGES.suspendedRenewalStopped,
  failed: ADMIN_MESSAGES.suspendedRenewalFailed,
} as const;
/** The same when his verification is withdrawn (ADR 093). */
const WITHDRAWAL_RENEWAL_MESSAGES = {
  stopped: ADMIN_MESSAGES.unverifiedRenewalStopped,
  failed: ADMIN_MESSAGES.unverifiedRenewalFailed,
} as const;

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const idParams = z.object({ id: z.uuid({ error: "Identifiant invalide." }) });
const patientParams = z.object({ patientId: z.uuid({ error: "Identifiant invalide." }) });

/** The admin area (issue 7): every route requires is_admin (ADR 003), checked again in the repo. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  // Responses written by compiled serializers: only the schema's fields (plugins/fast-serializer.ts).
  app.setSerializerCompiler(fastSerializerCompiler);
  const admin = guardedRoutes(app, "admin", { tags: ["admin"], errors });
  /** An admin list: its query checked, one page of what `read` finds, with the page's numbers. */
  const listRoute = <Query extends z.ZodType<{ page: number; page_size: number }>>(
    path: string,
    summary: string,
    querystring: Query,
    list: z.ZodType,
    read: (q: z.output<Query>, repo: AdminRepo) => Promise<{ items: unknown[]; hasMore: boolean }>,
  ) =>
    admin.get(path, {
      summary,
      querystring,
      response: { 200: list },
      handler: async (request, _reply, actor) => {
        // the type provider cannot narrow a generic schema: the query was validated by it above
        const q = request.query as z.output<Query>;
        const { items, hasMore } = await read(q, adminRepo(app.db, actor));
        return { items, page: q.page, page_size: q.page_size, has_more: hasMore };
      },
    });

  admin.get("/api/admin/stats", {
    summary: "Compteurs du tableau de bord",
    response: { 200: adminStatsSchema },
    handler: async (_request, _reply, actor) => adminRepo(app.db, actor).stats(),
  });

  listRoute(
    "/api/admin/users",
    "Patients ou dentistes, recherche (nom, e-mail) et pages de 10 côté serveur",
    adminUsersQuerySchema,
    adminUserListSchema,
    (q, repo) =>
      repo.users({
        role: q.role,
        search: q.search,
        suspended: q.suspended === "1",
        page: q.page,
        pageSize: q.page_size,
      }),
  );

  listRoute(
    "/api/admin/verification-requests",
    "File des demandes de vérification (la plus ancienne d'abord)",
    adminPageQuerySchema,
    verificationQueueSchema,
    (q, repo) => repo.verificationQueue({ page: q.page, pageSize: q.page_size }),
  );

  admin.post("/api/admin/users/:id/erase", {
    summary:
      "Supprimer le compte d'un patient ou d'un dentiste à sa demande (RGPD art. 17), inscrit au journal d'audit",
    params: idParams,
    response: { 200: messageSchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { subscriptionCancelled } = await eraseAccount(erasureDeps(app, request.log), request.params.id, {
        adminId: actor.userId,
      });
      return {
        message: subscriptionCancelled
          ? ERASURE_MESSAGES.erasedByAdminWithSubscription
          : ERASURE_MESSAGES.erasedByAdmin,
      };
    },
  });

  admin.post("/api/admin/users/:id/suspension", {
    summary:
      "Suspendre le compte d'un patient ou d'un dentiste (raison envoyée à la personne ; levée d'elle-même au jour choisi, s'il y en a un), inscrit au journal d'audit",
    params: idParams,
    body: suspensionSchema,
    response: { 200: suspensionResultSchema, 400: errorBodySchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const result = await suspendAccount(
        {
          ...useCaseDeps(request),
          stopRenewal: (dentistId) => app.billing.stopRenewal(dentistId, "suspension", request.log),
        },
        actor,
        request.params.id,
        request.body,
      );
      const message = result.renewal ? RENEWAL_MESSAGES[result.renewal] : ADMIN_MESSAGES.suspended;
      return { ...result, message };
    },
  });

  admin.patch("/api/admin/users/:id/suspension", {
    summary:
      "Changer le jour où la suspension d'un compte est levée d'elle-même, ou le retirer (la personne est prévenue), inscrit au journal d'audit",
    params: idParams,
    body: suspensionEndSchema,
    response: { 200: suspensionResultSchema, 400: errorBodySchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => ({
      ...(await setSuspensionEnd(useCaseDeps(request), actor, request.params.id, request.body)),
      renewal: null,
    }),
  });

  admin.delete("/api/admin/users/:id/suspension", {
    summary: "Lever la suspension d'un compte, inscrit au journal d'audit",
    params: idParams,
    response: { 200: suspensionResultSchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const result = await reinstateAccount(useCaseDeps(request), actor, request.params.id);
      return { ...result, renewal: null, message: ADMIN_MESSAGES.reinstated };
    },
  });

  admin.delete("/api/admin/users/:id/two-factor", {
    summary:
      "Retirer la double authentification d'un patient ou d'un dentiste qui a perdu son téléphone et ses codes de secours, après avoir vérifié son identité (ses appareils sont déconnectés, il est prévenu), inscrit au journal d'audit",
    params: idParams,
    response: { 200: messageSchema, 404: errorBodySchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      await removeTwoFactor(useCaseDeps(request), actor, request.params.id);
      return { message: ADMIN_MESSAGES.twoFactorRemoved };
    },
  });

  admin.post("/api/admin/dentists/:id/verification", {
    summary: "Vérifier, retirer la vérification ou refuser (avec une raison) un dentiste",
    params: idParams,
    body: verificationDecisionSchema,
    response: {
      200: verificationResultSchema,
      400: errorBodySchema,
      409: errorBodySchema,
    },
    handler: async (request, _reply, actor) => {
      const { decision, reason, checked } = request.body;
      const result = await decideVerification(
        {
          ...useCaseDeps(request),
          stopRenewal: (dentistId) => app.billing.stopRenewal(dentistId, "withdrawal", request.log),
        },
        actor,
        request.params.id,
        decision,
        reason,
        checked,
      );
      announceTeamWork(useCaseDeps(request));
      const message =
        decision === "verify"
          ? ADMIN_MESSAGES.verified
          : decision === "unverify"
            ? result.renewal
              ? WITHDRAWAL_RENEWAL_MESSAGES[result.renewal]
              : ADMIN_MESSAGES.unverified
            : ADMIN_MESSAGES.refused;
      return { ...result, message };
    },
  });

  listRoute(
    "/api/admin/contact",
    "Messages du formulaire de contact, les plus récents d'abord",
    adminPageQuerySchema,
    contactListSchema,
    (q, repo) => repo.contact({ page: q.page, pageSize: q.page_size }),
  );

  admin.post("/api/admin/contact/:id/handled", {
    summary: "Marquer un message de contact comme traité",
    params: idParams,
    response: {
      200: z.object({ id: z.string(), handled_at: z.string(), message: z.string() }),
    },
    handler: async (request, _reply, actor) => {
      const row = await adminRepo(app.db, actor).markContactHandled(request.params.id, app.clock());
      if (!row?.handled_at) throw notFound("Message introuvable.");
      announceTeamWork(useCaseDeps(request));
      return {
        id: row.id,
        handled_at: new Date(row.handled_at).toISOString(),
        message: ADMIN_MESSAGES.contactHandled,
      };
    },
  });

  admin.delete("/api/admin/contact/:id/handled", {
    summary: "Remettre à traiter un message de contact marqué comme traité",
    params: idParams,
    response: { 200: z.object({ id: z.string(), message: z.string() }) },
    handler: async (request, _reply, actor) => {
      const row = await adminRepo(app.db, actor).markContactUnhandled(request.params.id);
      if (!row) throw notFound("Message introuvable.");
      announceTeamWork(useCaseDeps(request));
      return { id: row.id, message: ADMIN_MESSAGES.contactUnhandled };
    },
  });

  admin.get("/api/admin/contact/:id/file", {
    summary: "Télécharger la pièce jointe d'un message de contact",
    params: idParams,
    compress: false,
    handler: async (request, reply, actor) => {
      const row = await adminRepo(app.db, actor).contactFile(request.params.id);
      const size = row?.file_key ? await app.storage.size(row.file_key) : null;
      if (!row?.file_key || size === null) throw notFound("Fichier introuvable.");
      return sendPrivateFile(reply, app.storage.read(row.file_key), {
        type: row.file_type ?? "application/octet-stream",
        name: row.file_name ?? "fichier",
        disposition: "attachment",
        size,
      });
    },
  });

  listRoute(
    "/api/admin/audit",
    "Événements sensibles récents, filtrables par personne et par type",
    auditQuerySchema,
    auditListSchema,
    (q, repo) => repo.audit({ type: q.type, person: q.person, page: q.page, pageSize: q.page_size }),
  );

  // Support chat, the team's side.
  listRoute(
    "/api/admin/support/threads",
    "Conversations d'assistance (patients et dentistes), la plus récente d'abord ; filtre par rôle et non lus",
    supportThreadsQuerySchema,
    supportThreadListSchema,
    (q) =>
      teamSupportThreads(app.db, {
        search: q.search,
        page: q.page,
        pageSize: q.page_size,
        role: q.role,
        unreadOnly: q.unread === "1",
      }),
  );

  admin.get("/api/admin/support/threads/:patientId/messages", {
    summary: "Les messages d'un patient et les réponses de l'équipe",
    params: patientParams,
    querystring: supportPageQuerySchema,
    response: { 200: supportPageSchema },
    handler: async (request, _reply, actor) => {
      const result = await teamSupportPage(app.db, request.params.patientId, request.query);
      // The patient sees on the help page that the team opened the thread (only a real thread). An
      // older page read too: within one visit the record is made once (recordSupportAccess), and a
      // page asked for on its own is a read like the first.
      if (result.items.length > 0)
        await recordSupportAccess(app.db, actor, request.params.patientId, { action: "support_thread_view" });
      return { items: result.items, has_more: result.hasMore };
    },
  });

  admin.post("/api/admin/support/threads/:patientId/read", {
    summary: "Marquer comme lus les messages de ce patient",
    params: patientParams,
    response: { 200: z.object({ read: z.number() }) },
    handler: async (request) => ({
      read: await markSupportRead(app.db, request.params.patientId, "team", app.clock()),
    }),
  });

  admin.post("/api/admin/support/threads/:patientId/messages", {
    summary: "Répondre à un patient (il la voit en direct, ou par e-mail s'il ne l'a pas lue)",
    params: patientParams,
    body: supportReplySchema,
    response: { 201: supportMessageSchema, 400: errorBodySchema },
    handler: async (request, reply, actor) => {
      const message = await postTeamReply(
        { db: app.db, storage: app.storage, bus: app.bus, clock: app.clock },
        actor,
        request.params.patientId,
        request.body.body,
      );
      return reply.status(201).send(message);
    },
  });
}
