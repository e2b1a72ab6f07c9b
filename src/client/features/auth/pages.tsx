/** The auth chunk: every sign-in, sign-up and password page (lazy-loaded by the router). */

export { ConfirmEmailPage } from "./EmailChangePages";
export { LoginPage } from "./LoginPage";
export { ChooseRolePage, IndexRedirectPage } from "./OtherPages";
export { ForgotPasswordPage, ResetPasswordPage } from "./PasswordPages";
export { DentistSignupPage, PatientSignupPage } from "./SignupPages";
