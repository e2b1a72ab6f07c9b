/** The patient chunk: every page of /patient/* (lazy-loaded by the router). */

export { PatientAppointmentsPage } from "./AppointmentsPage";
export { PatientComparePage } from "./ComparePage";
export { PatientDashboardPage } from "./DashboardPage";
export { PatientDentistReviewsPage } from "./DentistReviewsPage";
export { PatientProfilePage } from "./ProfilePage";
export { PatientRequestPage } from "./RequestPage";
export { PatientRequestsPage } from "./RequestsPage";
export { PatientReviewsPage, ReviewFormPage as PatientReviewFormPage } from "./ReviewsPage";
export { PatientUploadPage } from "./UploadPage";
