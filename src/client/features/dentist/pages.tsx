/** The dentist chunk: every page of /dentist/* (lazy-loaded by the router). */
export { DentistAppointmentsPage } from "./AppointmentsPage";
export { DentistDashboardPage } from "./DashboardPage";
export { DentistOffersPage } from "./OffersPage";
export { DentistProfilePage } from "./ProfilePage";
export { DentistQuoteRequestPage } from "./ProposalPage";
export { DentistQuoteRequestsPage } from "./QuoteRequestsPage";
export { DentistReviewsPage } from "./ReviewsPage";
export { DentistPatientSubmissionPage } from "./SubmissionPage";
export { DentistSubscriptionPage } from "./SubscriptionPage";
