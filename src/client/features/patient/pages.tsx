/** The patient chunk: every page of /patient/* (lazy-loaded by the router). */

export { PatientComparePage } from "./ComparePage";
export { PatientDashboardPage } from "./DashboardPage";
export { PatientProfilePage } from "./ProfilePage";
export { PatientRequestPage } from "./RequestPage";
export { PatientRequestsPage } from "./RequestsPage";
export { PatientUploadPage } from "./UploadPage";
