/** The auth chunk: every sign-in, sign-up and password page (lazy-loaded by the router). */
export { AdminLoginPage, DentistLoginPage, PatientLoginPage } from "./LoginPage";
export { ChooseRolePage, IndexRedirectPage } from "./OtherPages";
export {
  AdminForgotPasswordPage,
  DentistForgotPasswordPage,
  PatientForgotPasswordPage,
  ResetPasswordPage,
} from "./PasswordPages";
export { DentistSignupPage, PatientSignupPage } from "./SignupPages";
