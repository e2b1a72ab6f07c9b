import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";
import { ContentPage } from "./ContentPage";

const UPLOAD_STEPS = [
  {
    title: "Connectez-vous ou créez votre compte",
    text: "Vos documents de santé sont toujours rattachés à votre compte : personne d'autre ne peut les retrouver.",
  },
  {
    title: "Déposez votre devis et vos documents",
    text: "PDF, JPG ou PNG de moins de 10 Mo par fichier. Indiquez le soin, votre budget et votre urgence.",
  },
  {
    title: "Choisissez qui peut voir votre demande",
    text: "Un dentiste vérifié précis, ou tous les dentistes vérifiés du réseau. Un e-mail vous prévient de chaque proposition.",
  },
] as const;

export function UploadDevisPage() {
  return (
    <ContentPage
      title="Déposer un devis"
      description="Faites étudier gratuitement le devis de votre dentiste par des dentistes vérifiés : connectez-vous ou créez votre compte, puis déposez vos documents."
      intro="Faites étudier le devis de votre dentiste par des dentistes vérifiés, gratuitement, en trois étapes."
    >
      <ol className="grid gap-4">
        {UPLOAD_STEPS.map((step, index) => (
          <li key={step.title} className="flex gap-4">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-700 font-semibold text-white">
              {index + 1}
            </span>
            <div>
              <h2>{step.title}</h2>
              <p className="mt-1">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button asChild size="lg">
          <Link to="/login?next=/patient/upload">J'ai déjà un compte</Link>
        </Button>
        <Button asChild variant="accent" size="lg">
          <Link to="/signup?next=/patient/upload">Créer un compte</Link>
        </Button>
      </div>
      <p className="text-sm text-slate-600">
        Avec une session déjà ouverte, vous arrivez directement sur la page de dépôt. La création d'un compte
        est gratuite et prend une minute.
      </p>
    </ContentPage>
  );
}
