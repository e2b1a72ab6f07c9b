/*
 * The public content pages, one file each (the landing page and the 404 page are in the initial
 * bundle: app/routes.tsx imports them directly). app/routes.tsx loads this group lazily.
 */
export { ContactPage } from "./ContactPage";
export { DentistBenefitsPage } from "./DentistBenefitsPage";
export { FaqPage } from "./FaqPage";
export { HowItWorksPage } from "./HowItWorksPage";
export { PrivacyPage } from "./PrivacyPage";
export { ReviewsPolicyPage } from "./ReviewsPolicyPage";
export { TermsPage } from "./TermsPage";
export { UploadDevisPage } from "./UploadDevisPage";
