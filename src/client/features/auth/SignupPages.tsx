import { Navigate, useSearchParams } from "react-router";
import {
  type DentistSignupInput,
  dentistSignupSchema,
  type PatientSignupInput,
  patientSignupSchema,
} from "../../../shared/schemas/account";
import { InputField, PasswordField } from "../../components/ui/FormField";
import { fieldProps } from "../../lib/form";
import { AuthCard } from "./AuthCard";
import { SignInInstead, SignupForm, useSignupForm } from "./SignupForm";

/** The ?next= of this page, kept on the link to the other form (log in instead, sign up instead). */
export function withNext(path: string, next: string | null): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}

const PATIENT_FIELDS = ["first_name", "last_name", "email", "password", "accept_terms"] as const;

/** /signup 'Créer un compte patient'. */
export function PatientSignupPage() {
  const signup = useSignupForm<PatientSignupInput>({
    role: "patient",
    schema: patientSignupSchema,
    defaultValues: {
      first_name: "",
      last_name: "",
      email: "",
      password: "",
      accept_terms: false as unknown as true,
    },
    fields: PATIENT_FIELDS,
    successMessage: "Inscription réussie\u202f!",
  });
  const [params] = useSearchParams();
  if (signup.redirect) return <Navigate to={signup.redirect} replace />;

  return (
    <AuthCard
      title="Créer un compte patient"
      description="Gratuit : déposez votre devis et comparez les propositions de dentistes vérifiés."
      footer={<SignInInstead to={withNext("/login", params.get("next"))} />}
    >
      <SignupForm {...signup} submitLabel="Créer mon compte" />
    </AuthCard>
  );
}

const DENTIST_FIELDS = [
  "first_name",
  "last_name",
  "city",
  "practice_postcode",
  "phone_number",
  "email",
  "password",
  "password_confirmation",
  "accept_terms",
] as const;

/** /dentist/signup 'Inscription Dentiste'. */
export function DentistSignupPage() {
  const signup = useSignupForm<DentistSignupInput>({
    role: "dentist",
    schema: dentistSignupSchema,
    defaultValues: {
      first_name: "",
      last_name: "",
      city: "",
      practice_postcode: "",
      phone_number: "",
      email: "",
      password: "",
      password_confirmation: "",
      accept_terms: false as unknown as true,
    },
    fields: DENTIST_FIELDS,
    successMessage:
      "Inscription réussie\u202f! Renseignez votre numéro RPPS et votre cabinet dans votre profil, puis demandez la vérification de votre compte.",
  });
  const field = fieldProps(signup.form);
  if (signup.redirect) return <Navigate to={signup.redirect} replace />;

  return (
    <AuthCard
      wide
      title="Inscription Dentiste"
      description="Rejoignez le réseau de dentistes vérifiés. Notre équipe vérifie votre numéro RPPS et votre cabinet avant que vous puissiez consulter les demandes des patients."
      footer={<SignInInstead to="/dentist/login" />}
    >
      <SignupForm
        {...signup}
        submitLabel="Créer mon compte dentiste"
        practiceFields={
          <>
            <InputField label="Ville" required autoComplete="address-level2" {...field("city")} />
            <InputField
              label="Code postal du cabinet"
              description="Les patients voient la distance jusqu'à votre cabinet."
              inputMode="numeric"
              autoComplete="postal-code"
              maxLength={5}
              {...field("practice_postcode")}
            />
            <InputField label="Téléphone" required type="tel" autoComplete="tel" {...field("phone_number")} />
          </>
        }
        confirmation={
          <PasswordField
            label="Confirmer le mot de passe"
            autoComplete="new-password"
            {...field("password_confirmation")}
          />
        }
      />
    </AuthCard>
  );
}
