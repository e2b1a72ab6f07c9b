import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { INVOICE_PAGE_SIZE, type InvoiceList } from "../../../../shared/schemas/invoices";
import { api } from "../../../lib/api";
import { downloadFile } from "../../../lib/download";
import { invoiceKeys } from "../../../lib/queryKeys";

/** GET /api/admin/dentists/:id/invoices: one page of a dentist's invoices and credit notes. */
export function useDentistInvoices(dentistId: string, page: number) {
  return useQuery({
    queryKey: invoiceKeys.ofDentist(dentistId, page),
    queryFn: ({ signal }) =>
      api<InvoiceList>(
        `/api/admin/dentists/${encodeURIComponent(dentistId)}/invoices?page=${page}&page_size=${INVOICE_PAGE_SIZE}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/invoices/:id/pdf. */
export function downloadInvoice(id: string): Promise<void> {
  return downloadFile(`/api/admin/invoices/${encodeURIComponent(id)}/pdf`, { fallback: "facture.pdf" });
}

/** GET /api/admin/invoices/register.csv between two Paris days (both optional, both included). */
export function downloadRegister(from: string, to: string): Promise<void> {
  const query = new URLSearchParams();
  if (from) query.set("from", from);
  if (to) query.set("to", to);
  const search = query.toString();
  return downloadFile(`/api/admin/invoices/register.csv${search ? `?${search}` : ""}`, {
    fallback: "registre-factures.csv",
  });
}
