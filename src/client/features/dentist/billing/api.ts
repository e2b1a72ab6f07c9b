import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type BillingProfileResponse,
  type BillingProfileValues,
  INVOICE_PAGE_SIZE,
  type InvoiceList,
} from "../../../../shared/schemas/invoices";
import { api } from "../../../lib/api";
import { downloadFile } from "../../../lib/download";
import { invoiceKeys } from "../../../lib/queryKeys";

/** GET /api/dentist/billing-profile: the practice, address and SIREN printed on invoices, or null. */
export function useBillingProfile() {
  return useQuery({
    queryKey: invoiceKeys.billingProfile(),
    queryFn: ({ signal }) => api<BillingProfileResponse>("/api/dentist/billing-profile", { signal }),
  });
}

/** PUT /api/dentist/billing-profile. */
export function useSaveBillingProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: BillingProfileValues) =>
      api<{ message: string }>("/api/dentist/billing-profile", { method: "PUT", body: values }),
    onSuccess: () => client.invalidateQueries({ queryKey: invoiceKeys.billingProfile() }),
  });
}

/** GET /api/dentist/invoices: one page of the dentist's invoices and credit notes, newest first. */
export function useOwnInvoices(page: number) {
  return useQuery({
    queryKey: invoiceKeys.own(page),
    queryFn: ({ signal }) =>
      api<InvoiceList>(`/api/dentist/invoices?page=${page}&page_size=${INVOICE_PAGE_SIZE}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/dentist/invoices/:id/pdf, saved under the server's name (facture-F-000012.pdf). */
export function downloadOwnInvoice(id: string): Promise<void> {
  return downloadFile(`/api/dentist/invoices/${encodeURIComponent(id)}/pdf`, { fallback: "facture.pdf" });
}
