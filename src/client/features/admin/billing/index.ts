/** Sourio's invoices, the team's side (issue 35): for the admin 'Abonnements' page. */
export { DentistInvoices } from "./DentistInvoices";
export { RegisterExportButton } from "./RegisterExportButton";
