import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { addDays, parisLocalToDate } from "../../../shared/format/paris";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import {
  billingProfileResponseSchema,
  billingProfileSchema,
  INVOICE_MESSAGES,
  invoiceListQuery,
  invoiceListSchema,
  registerQuery,
} from "../../../shared/schemas/invoices";
import { guardedRoutes } from "../../access/route";
import { notFound } from "../../errors";
import { sendPrivateFile } from "../../http/files";
import { invoiceFileName, registerCsv, storedInvoicePdf, toInvoiceDto } from "./invoices.files";
import { adminInvoicesRepo, type InvoiceRow, ownInvoicesRepo } from "./invoices.repo";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const invoiceParams = z.object({ id: z.uuid({ error: INVOICE_MESSAGES.invoiceNotFound }) });
const dentistParams = z.object({ id: z.uuid({ error: INVOICE_MESSAGES.dentistNotFound }) });

/**
 * Sourio's invoices (issue 35, ADR 045): the dentist's billing profile and own invoices; the team's
 * view of a dentist's invoices and the register for the accountant. Nothing here changes an invoice:
 * they are issued by the payment webhook (invoices.service.ts) and never updated.
 */
export async function invoiceRoutes(app: FastifyInstance): Promise<void> {
  const dentist = guardedRoutes(app, "dentist", { tags: ["factures"], errors });
  const admin = guardedRoutes(app, "admin", { tags: ["factures"], errors });

  const sendPdf = async (reply: Parameters<typeof sendPrivateFile>[0], row: InvoiceRow) => {
    const file = await storedInvoicePdf(app, row);
    return sendPrivateFile(reply, app.storage.read(file.key), {
      type: "application/pdf",
      name: invoiceFileName(row),
      disposition: "attachment",
      size: file.size,
    });
  };

  dentist.get("/api/dentist/billing-profile", {
    summary: "Mon profil de facturation (cabinet, adresse, SIREN), ou null",
    response: { 200: billingProfileResponseSchema },
    handler: async (_request, _reply, actor) => ({
      profile: (await ownInvoicesRepo(app.db, actor).billingProfile()) ?? null,
    }),
  });

  dentist.put("/api/dentist/billing-profile", {
    summary: "Enregistrer mon profil de facturation (repris sur les factures émises ensuite)",
    body: billingProfileSchema,
    response: { 200: messageSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      await ownInvoicesRepo(app.db, actor).saveBillingProfile(request.body, app.clock());
      return { message: INVOICE_MESSAGES.saved };
    },
  });

  dentist.get("/api/dentist/invoices", {
    summary: "Mes factures et avoirs, le plus récent d'abord",
    querystring: invoiceListQuery,
    response: { 200: invoiceListSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { page, page_size } = request.query;
      const { rows, hasMore } = await ownInvoicesRepo(app.db, actor).invoices({ page, pageSize: page_size });
      return { items: rows.map(toInvoiceDto), page, page_size, has_more: hasMore };
    },
  });

  dentist.get("/api/dentist/invoices/:id/pdf", {
    summary: "Télécharger une de mes factures (PDF Factur-X)",
    params: invoiceParams,
    compress: false,
    handler: async (request, reply, actor) => {
      const row = await ownInvoicesRepo(app.db, actor).invoice(request.params.id);
      if (!row) throw notFound(INVOICE_MESSAGES.invoiceNotFound);
      return sendPdf(reply, row);
    },
  });

  admin.get("/api/admin/dentists/:id/invoices", {
    summary: "Les factures et avoirs d'un dentiste",
    params: dentistParams,
    querystring: invoiceListQuery,
    response: { 200: invoiceListSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const repo = adminInvoicesRepo(app.db, actor);
      if (!(await repo.dentistExists(request.params.id))) throw notFound(INVOICE_MESSAGES.dentistNotFound);
      const { page, page_size } = request.query;
      const { rows, hasMore } = await repo.invoicesOf(request.params.id, { page, pageSize: page_size });
      return { items: rows.map(toInvoiceDto), page, page_size, has_more: hasMore };
    },
  });

  admin.get("/api/admin/invoices/:id/pdf", {
    summary: "Télécharger une facture ou un avoir (PDF Factur-X)",
    params: invoiceParams,
    compress: false,
    handler: async (request, reply, actor) => {
      const row = await adminInvoicesRepo(app.db, actor).invoice(request.params.id);
      if (!row) throw notFound(INVOICE_MESSAGES.invoiceNotFound);
      return sendPdf(reply, row);
    },
  });

  admin.get("/api/admin/invoices/register.csv", {
    summary: "Registre des factures et avoirs (CSV pour la comptabilité), entre deux dates incluses",
    querystring: registerQuery,
    response: { 400: errorBodySchema },
    handler: async (request, reply, actor) => {
      const { from, to } = request.query;
      const rows = await adminInvoicesRepo(app.db, actor).register(
        from ? parisLocalToDate(`${from}T00:00`) : null,
        // `to` is included: up to the start of the next Paris day.
        to ? parisLocalToDate(`${addDays(to, 1)}T00:00`) : null,
      );
      return sendPrivateFile(reply, registerCsv(rows), {
        type: "text/csv; charset=utf-8",
        name: `registre-factures${from ? `-du-${from}` : ""}${to ? `-au-${to}` : ""}.csv`,
        disposition: "attachment",
      });
    },
  });
}
