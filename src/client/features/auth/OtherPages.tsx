import { ChevronRight, Stethoscope, UserRound } from "lucide-react";
import { Link, Navigate } from "react-router";
import { homePathFor } from "../../../shared/policies/redirects";
import { PageSpinner } from "../../components/ui/Spinner";
import { useSession } from "../../lib/session";
import { useDocumentTitle } from "../../lib/title";

const CHOICES = [
  {
    to: "/signup",
    icon: UserRound,
    title: "Je suis patient",
    text: "Déposez votre devis et comparez gratuitement les propositions de dentistes vérifiés.",
  },
  {
    to: "/dentist/signup",
    icon: Stethoscope,
    title: "Je suis dentiste",
    text: "Rejoignez le réseau pour répondre aux demandes des patients. Votre compte sera vérifié.",
  },
] as const;

/** /choose-role — two big choices. */
export function ChooseRolePage() {
  useDocumentTitle("Créer un compte");
  return (
    <div className="min-h-dvh bg-slate-50 px-4 py-10 sm:py-16">
      <div className="mx-auto max-w-3xl">
        <h1 className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          Créer un compte
        </h1>
        <p className="mt-2 text-center text-slate-600">Vous êtes :</p>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2">
          {CHOICES.map((choice) => (
            <li key={choice.to}>
              <Link
                to={choice.to}
                className="group flex h-full flex-col gap-3 rounded-ui border border-slate-200 bg-white p-6 shadow-sm transition hover:border-brand-600 hover:shadow-md"
              >
                <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                  <choice.icon className="size-6" aria-hidden="true" />
                </span>
                <span className="flex items-center justify-between text-lg font-semibold text-slate-900">
                  {choice.title}
                  <ChevronRight
                    className="size-5 text-brand-700 group-hover:translate-x-0.5"
                    aria-hidden="true"
                  />
                </span>
                <span className="text-slate-700">{choice.text}</span>
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-8 text-center text-sm text-slate-700">
          Vous avez déjà un compte ?{" "}
          <Link to="/login" className="font-medium text-brand-800 underline underline-offset-2">
            Se connecter
          </Link>
        </p>
      </div>
    </div>
  );
}

/** /index — spinner, then the person's home (signed out → /). */
export function IndexRedirectPage() {
  useDocumentTitle("Redirection");
  const { status, profile } = useSession();
  if (status !== "loading") return <Navigate to={homePathFor(profile, "index")} replace />;
  return (
    <>
      <h1 className="sr-only">Redirection</h1>
      <PageSpinner />
    </>
  );
}
