import { type Attributes, type ComponentType, lazy } from "react";
import { Navigate, Route, Routes } from "react-router";
import { LandingPage } from "../features/public/LandingPage";
import { NotFoundPage } from "../features/public/NotFoundPage";
import { PublicLayout } from "./PublicLayout";
import { RootLayout } from "./RootLayout";

/*
 * The complete route table, in react-router's declarative mode (<Routes>): the data
 * router (createBrowserRouter) would add ~15 KB gzip to the landing page, over its 100 KB budget.
 * Only the landing page, the 404 page and the public layout are in the initial bundle; every other
 * page group is its own chunk (React.lazy), loaded when a route needs it: public content pages,
 * auth pages, the signed-in shell, and the patient, dentist and admin areas. react-query is
 * loaded with the chunks that use it (auth pages, areas), see lib/QueryProvider.tsx.
 */
const publicPages = () => import("../features/public/pages");
const authPages = () => import("../features/auth/pages");
const areaLayouts = () => import("./AreaLayouts");
const patientPages = () => import("../features/patient/pages");
const dentistPages = () => import("../features/dentist/pages");
const adminPages = () => import("../features/admin/pages");
const messagesPages = () => import("../features/messages/pages");
const supportPages = () => import("../features/support/pages");
const queryProvider = () => import("../lib/QueryProvider");

/** Loads every page group now (component tests: a page then renders without waiting on an import). */
export function preloadPageGroups(): Promise<unknown[]> {
  const groups = [publicPages, authPages, areaLayouts, patientPages, dentistPages, adminPages];
  return Promise.all([...groups, messagesPages, supportPages, queryProvider].map((load) => load()));
}

/** The props of a page component (`area` for the pages shared by the patient, dentist and admin areas). */
type PropsOf<C> = C extends ComponentType<infer P> ? P & Attributes : never;

/**
 * A lazily loaded component taken from a lazily imported module; `withQuery` wraps it in the
 * shared react-query provider (for the pages and layouts that call the API through it).
 */
function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K, withQuery = false) {
  type Page = ComponentType<PropsOf<M[K]>>;
  return lazy(async () => {
    if (!withQuery) return { default: (await load())[name] as Page };
    const [module, { QueryProvider }] = await Promise.all([load(), queryProvider()]);
    const Page = module[name] as Page;
    return {
      default: function WithQuery(props: PropsOf<M[K]>) {
        return (
          <QueryProvider>
            <Page {...props} />
          </QueryProvider>
        );
      },
    };
  });
}

const HowItWorksPage = lazyPage(publicPages, "HowItWorksPage");
const FaqPage = lazyPage(publicPages, "FaqPage");
const DentistBenefitsPage = lazyPage(publicPages, "DentistBenefitsPage");
const PrivacyPage = lazyPage(publicPages, "PrivacyPage");
const TermsPage = lazyPage(publicPages, "TermsPage");
const ReviewsPolicyPage = lazyPage(publicPages, "ReviewsPolicyPage");
const ContactPage = lazyPage(publicPages, "ContactPage");
const UploadDevisPage = lazyPage(publicPages, "UploadDevisPage");

const LoginPage = lazyPage(authPages, "LoginPage", true);
const PatientSignupPage = lazyPage(authPages, "PatientSignupPage", true);
const DentistSignupPage = lazyPage(authPages, "DentistSignupPage", true);
const ChooseRolePage = lazyPage(authPages, "ChooseRolePage", true);
const ForgotPasswordPage = lazyPage(authPages, "ForgotPasswordPage", true);
const ResetPasswordPage = lazyPage(authPages, "ResetPasswordPage", true);
const ConfirmEmailPage = lazyPage(authPages, "ConfirmEmailPage", true);
const IndexRedirectPage = lazyPage(authPages, "IndexRedirectPage", true);

const PatientArea = lazyPage(areaLayouts, "PatientArea", true);
const DentistArea = lazyPage(areaLayouts, "DentistArea", true);
const AdminArea = lazyPage(areaLayouts, "AdminArea", true);

const PatientDashboardPage = lazyPage(patientPages, "PatientDashboardPage");
const PatientMessagesPage = lazyPage(messagesPages, "PatientMessagesPage");
const PatientUploadPage = lazyPage(patientPages, "PatientUploadPage");
const PatientRequestPage = lazyPage(patientPages, "PatientRequestPage");
const PatientRequestsPage = lazyPage(patientPages, "PatientRequestsPage");
const PatientAppointmentsPage = lazyPage(patientPages, "PatientAppointmentsPage");
const PatientComparePage = lazyPage(patientPages, "PatientComparePage");
const PatientProfilePage = lazyPage(patientPages, "PatientProfilePage");
const PatientReviewsPage = lazyPage(patientPages, "PatientReviewsPage");
const PatientReviewFormPage = lazyPage(patientPages, "PatientReviewFormPage");
const PatientDentistReviewsPage = lazyPage(patientPages, "PatientDentistReviewsPage");
const HelpPage = lazyPage(supportPages, "HelpPage");

const DentistDashboardPage = lazyPage(dentistPages, "DentistDashboardPage");
const DentistMessagesPage = lazyPage(messagesPages, "DentistMessagesPage");
const DentistQuoteRequestsPage = lazyPage(dentistPages, "DentistQuoteRequestsPage");
const DentistQuoteRequestPage = lazyPage(dentistPages, "DentistQuoteRequestPage");
const DentistPatientSubmissionPage = lazyPage(dentistPages, "DentistPatientSubmissionPage");
const DentistProfilePage = lazyPage(dentistPages, "DentistProfilePage");
const DentistOffersPage = lazyPage(dentistPages, "DentistOffersPage");
const DentistAppointmentsPage = lazyPage(dentistPages, "DentistAppointmentsPage");
const DentistSubscriptionPage = lazyPage(dentistPages, "DentistSubscriptionPage");
const DentistReviewsPage = lazyPage(dentistPages, "DentistReviewsPage");

const AdminDashboardPage = lazyPage(adminPages, "AdminDashboardPage");
const AdminChatMessagesPage = lazyPage(adminPages, "AdminChatMessagesPage");
const AdminVerificationsPage = lazyPage(adminPages, "AdminVerificationsPage");
const AdminContactPage = lazyPage(adminPages, "AdminContactPage");
const AdminAuditPage = lazyPage(adminPages, "AdminAuditPage");
const AdminAccountPage = lazyPage(adminPages, "AdminAccountPage");
const AdminRetentionPage = lazyPage(adminPages, "AdminRetentionPage");
const AdminSubscriptionsPage = lazyPage(adminPages, "AdminSubscriptionsPage");
const AdminReviewsPage = lazyPage(adminPages, "AdminReviewsPage");

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route element={<PublicLayout />}>
          <Route index element={<LandingPage />} />
          <Route path="how-it-works" element={<HowItWorksPage />} />
          <Route path="faq" element={<FaqPage />} />
          <Route path="dentist/benefits" element={<DentistBenefitsPage />} />
          <Route path="privacy" element={<PrivacyPage />} />
          <Route path="terms" element={<TermsPage />} />
          <Route path="avis" element={<ReviewsPolicyPage />} />
          <Route path="contact" element={<ContactPage />} />
          <Route path="upload-devis" element={<UploadDevisPage />} />

          <Route path="login" element={<LoginPage area="patient" />} />
          <Route path="dentist/login" element={<LoginPage area="dentist" />} />
          <Route path="admin/login" element={<LoginPage area="admin" />} />
          <Route path="signup" element={<PatientSignupPage />} />
          <Route path="dentist/signup" element={<DentistSignupPage />} />
          <Route path="choose-role" element={<ChooseRolePage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage area="patient" />} />
          <Route path="dentist/forgot-password" element={<ForgotPasswordPage area="dentist" />} />
          <Route path="admin/forgot-password" element={<ForgotPasswordPage area="admin" />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="confirm-email" element={<ConfirmEmailPage />} />
          <Route path="index" element={<IndexRedirectPage />} />

          <Route path="*" element={<NotFoundPage />} />
        </Route>

        <Route path="patient" element={<PatientArea />}>
          <Route index element={<Navigate to="/patient/dashboard" replace />} />
          <Route path="dashboard" element={<PatientDashboardPage />} />
          <Route path="messages" element={<PatientMessagesPage />} />
          <Route path="upload" element={<PatientUploadPage />} />
          <Route path="request/:id" element={<PatientRequestPage />} />
          <Route path="request/:id/compare" element={<PatientComparePage />} />
          <Route path="requests" element={<PatientRequestsPage />} />
          <Route path="appointments" element={<PatientAppointmentsPage />} />
          <Route path="profile" element={<PatientProfilePage />} />
          <Route path="reviews" element={<PatientReviewsPage />} />
          <Route path="reviews/new/:appointmentId" element={<PatientReviewFormPage />} />
          <Route path="reviews/:id/edit" element={<PatientReviewFormPage />} />
          <Route path="dentists/:id/reviews" element={<PatientDentistReviewsPage />} />
          <Route path="help" element={<HelpPage area="patient" />} />
        </Route>

        <Route path="dentist" element={<DentistArea />}>
          <Route index element={<Navigate to="/dentist/dashboard" replace />} />
          <Route path="dashboard" element={<DentistDashboardPage />} />
          <Route path="messages/:id?" element={<DentistMessagesPage />} />
          <Route path="quote-requests" element={<DentistQuoteRequestsPage />} />
          <Route path="quote-request/:id" element={<DentistQuoteRequestPage />} />
          <Route path="patient-submission/:id" element={<DentistPatientSubmissionPage />} />
          <Route path="offers" element={<DentistOffersPage />} />
          <Route path="appointments" element={<DentistAppointmentsPage />} />
          <Route path="subscription" element={<DentistSubscriptionPage />} />
          <Route path="reviews" element={<DentistReviewsPage />} />
          <Route path="profile" element={<DentistProfilePage />} />
          <Route path="help" element={<HelpPage area="dentist" />} />
        </Route>

        <Route path="admin" element={<AdminArea />}>
          <Route index element={<Navigate to="/admin/dashboard" replace />} />
          <Route path="dashboard" element={<AdminDashboardPage />} />
          <Route path="chat-messages" element={<AdminChatMessagesPage />} />
          <Route path="verifications" element={<AdminVerificationsPage />} />
          <Route path="contact" element={<AdminContactPage />} />
          <Route path="audit" element={<AdminAuditPage />} />
          <Route path="account" element={<AdminAccountPage />} />
          <Route path="retention" element={<AdminRetentionPage />} />
          <Route path="subscriptions" element={<AdminSubscriptionsPage />} />
          <Route path="reviews" element={<AdminReviewsPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
