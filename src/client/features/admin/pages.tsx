/** The admin chunk: every page of /admin/* (lazy-loaded by the router). */

export { AdminAccountPage } from "./AccountPage";
export { AdminAuditPage } from "./AuditPage";
export { AdminChatMessagesPage } from "./ChatMessagesPage";
export { AdminContactPage } from "./ContactPage";
export { AdminDashboardPage } from "./DashboardPage";
export { AdminRetentionPage } from "./RetentionPage";
export { AdminReviewsPage } from "./ReviewsPage";
export { AdminSubscriptionsPage } from "./SubscriptionsPage";
export { AdminVerificationsPage } from "./VerificationsPage";
