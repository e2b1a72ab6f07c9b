/** The dentist chunk: every page of /dentist/* (lazy-loaded by the router). */
export { DentistDashboardPage } from "./DashboardPage";
export { DentistProfilePage } from "./ProfilePage";
export { DentistQuoteRequestPage } from "./ProposalPage";
export { DentistQuoteRequestsPage } from "./QuoteRequestsPage";
export { DentistPatientSubmissionPage } from "./SubmissionPage";
