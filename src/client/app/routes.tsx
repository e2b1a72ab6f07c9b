import { Navigate, type RouteObject } from "react-router";
import { PageSpinner } from "../components/ui/Spinner";
import { LandingPage } from "../features/public/LandingPage";
import { NotFoundPage } from "../features/public/NotFoundPage";
import { PublicLayout } from "./PublicLayout";
import { RootLayout } from "./RootLayout";
import { RouteError } from "./RouteError";

/*
 * The complete route table of spec §2. Only the landing page and the public layout are in the
 * initial bundle; every other page group is its own chunk, loaded when a route needs it:
 * public content pages, auth pages, the signed-in shell, and the patient, dentist and admin areas.
 */
const publicPages = () => import("../features/public/pages");
const authPages = () => import("../features/auth/pages");
const areaLayouts = () => import("./AreaLayouts");
const patientPages = () => import("../features/patient/pages");
const dentistPages = () => import("../features/dentist/pages");
const adminPages = () => import("../features/admin/pages");

type Loader<M> = () => Promise<M>;

/** A route `lazy` that takes one component from a lazily imported module. */
function page<M, K extends keyof M>(load: Loader<M>, name: K) {
  return async () => ({ Component: (await load())[name] as React.ComponentType });
}

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageSpinner,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, Component: LandingPage },
          { path: "how-it-works", lazy: page(publicPages, "HowItWorksPage") },
          { path: "faq", lazy: page(publicPages, "FaqPage") },
          { path: "dentist/benefits", lazy: page(publicPages, "DentistBenefitsPage") },
          { path: "privacy", lazy: page(publicPages, "PrivacyPage") },
          { path: "terms", lazy: page(publicPages, "TermsPage") },
          { path: "contact", lazy: page(publicPages, "ContactPage") },
          { path: "upload-devis", lazy: page(publicPages, "UploadDevisPage") },

          { path: "login", lazy: page(authPages, "PatientLoginPage") },
          { path: "dentist/login", lazy: page(authPages, "DentistLoginPage") },
          { path: "admin/login", lazy: page(authPages, "AdminLoginPage") },
          { path: "signup", lazy: page(authPages, "PatientSignupPage") },
          { path: "dentist/signup", lazy: page(authPages, "DentistSignupPage") },
          { path: "choose-role", lazy: page(authPages, "ChooseRolePage") },
          { path: "forgot-password", lazy: page(authPages, "PatientForgotPasswordPage") },
          { path: "dentist/forgot-password", lazy: page(authPages, "DentistForgotPasswordPage") },
          { path: "admin/forgot-password", lazy: page(authPages, "AdminForgotPasswordPage") },
          { path: "reset-password", lazy: page(authPages, "ResetPasswordPage") },
          { path: "index", lazy: page(authPages, "IndexRedirectPage") },

          { path: "*", Component: NotFoundPage },
        ],
      },
      {
        path: "patient",
        lazy: page(areaLayouts, "PatientArea"),
        children: [
          { index: true, element: <Navigate to="/patient/dashboard" replace /> },
          { path: "dashboard", lazy: page(patientPages, "PatientDashboardPage") },
          { path: "messages", lazy: page(patientPages, "PatientMessagesPage") },
          { path: "upload", lazy: page(patientPages, "PatientUploadPage") },
          { path: "request/:id", lazy: page(patientPages, "PatientRequestPage") },
          { path: "requests", lazy: page(patientPages, "PatientRequestsPage") },
          { path: "profile", lazy: page(patientPages, "PatientProfilePage") },
        ],
      },
      {
        path: "dentist",
        lazy: page(areaLayouts, "DentistArea"),
        children: [
          { index: true, element: <Navigate to="/dentist/dashboard" replace /> },
          { path: "dashboard", lazy: page(dentistPages, "DentistDashboardPage") },
          { path: "messages", lazy: page(dentistPages, "DentistMessagesPage") },
          { path: "messages/:id", lazy: page(dentistPages, "DentistConversationPage") },
          { path: "quote-requests", lazy: page(dentistPages, "DentistQuoteRequestsPage") },
          { path: "quote-request/:id", lazy: page(dentistPages, "DentistQuoteRequestPage") },
          { path: "patient-submission/:id", lazy: page(dentistPages, "DentistPatientSubmissionPage") },
          { path: "profile", lazy: page(dentistPages, "DentistProfilePage") },
        ],
      },
      {
        path: "admin",
        lazy: page(areaLayouts, "AdminArea"),
        children: [
          { index: true, element: <Navigate to="/admin/dashboard" replace /> },
          { path: "dashboard", lazy: page(adminPages, "AdminDashboardPage") },
          { path: "chat-messages", lazy: page(adminPages, "AdminChatMessagesPage") },
        ],
      },
    ],
  },
];
