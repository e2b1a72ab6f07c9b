/** Sourio's invoices, the dentist's side (issue 35): usable alone, on the 'Abonnement' page or elsewhere. */
export { BillingProfileForm } from "./BillingProfileForm";
export { InvoiceList } from "./InvoiceList";
