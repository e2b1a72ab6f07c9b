import { BadgeCheck, Clock, FileUp, MessagesSquare, PiggyBank, ShieldCheck, Stethoscope } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/Button";
import { useConfig } from "../../lib/config";
import { useDocumentTitle } from "../../lib/title";

const STEPS = [
  {
    icon: FileUp,
    title: "Déposez votre devis",
    text: "Envoyez le devis de votre dentiste (photo ou PDF), vos radiographies, ou décrivez simplement le soin dont vous avez besoin.",
  },
  {
    icon: Stethoscope,
    title: "Des dentistes vérifiés l'étudient",
    text: "Seuls les dentistes vérifiés que vous choisissez voient votre dossier. Les premières propositions arrivent en général sous 48 heures.",
  },
  {
    icon: MessagesSquare,
    title: "Comparez et échangez",
    text: "Comparez les propositions, posez vos questions au dentiste par la messagerie de la plateforme, puis prenez rendez-vous.",
  },
] as const;

const TRUST = [
  {
    icon: PiggyBank,
    title: "Jusqu'à 60 % d'économie",
    text: "Selon les soins, l'économie par rapport au devis initial va en moyenne de 30 à 60 %.",
  },
  {
    icon: BadgeCheck,
    title: "Dentistes vérifiés",
    text: "Chaque dentiste est vérifié à la main avant de rejoindre le réseau : inscription à l'Ordre (numéro RPPS) et diplômes.",
  },
  {
    icon: ShieldCheck,
    title: "Vos données protégées",
    text: "Vos documents médicaux restent privés : seuls les dentistes vérifiés que vous choisissez peuvent les consulter.",
  },
  {
    icon: Clock,
    title: "Gratuit et 100 % en ligne",
    text: "Le service est gratuit pour les patients. Les dentistes paient un abonnement, sans aucune commission sur vos soins.",
  },
] as const;

/** / — what the product is, the upload call to action visible without scrolling on a phone. */
export function LandingPage() {
  const { brand_name } = useConfig();
  useDocumentTitle(`${brand_name} — comparez vos devis dentaires`, { full: true });
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 pt-10 pb-14 sm:px-6 sm:pt-16 md:pb-20">
          <div className="max-w-3xl">
            <p className="mb-3 inline-flex rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-800 ring-1 ring-brand-200">
              La mutuelle dentaire numérique
            </p>
            <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              Comparez votre devis dentaire avec des dentistes vérifiés
            </h1>
            <p className="mt-5 text-lg text-slate-700 sm:text-xl">
              Votre dentiste vous a remis un devis ? Déposez-le sur {brand_name} : des dentistes vérifiés vous
              proposent une alternative, vous comparez et vous choisissez. C'est gratuit pour les patients.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild variant="accent" size="lg">
                <Link to="/patient/upload">
                  <FileUp aria-hidden="true" />
                  Télécharger votre devis
                </Link>
              </Button>
              <Button asChild variant="outline" size="lg">
                <Link to="/dentist/signup">Rejoindre le réseau</Link>
              </Button>
            </div>
            <p className="mt-4 text-sm text-slate-600">
              Vous êtes dentiste ? Rejoignez le réseau pour recevoir des demandes de patients près de chez
              vous.
            </p>
          </div>
        </div>
      </section>

      <section aria-labelledby="steps-title" className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <h2 id="steps-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          Comment ça marche
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-ui border border-slate-200 bg-white p-6 shadow-sm">
              <div className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-full bg-brand-700 font-semibold text-white">
                  {index + 1}
                </span>
                <step.icon className="size-6 text-brand-700" aria-hidden="true" />
              </div>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-6">
          <Link to="/how-it-works" className="font-medium text-brand-800 underline underline-offset-2">
            En savoir plus sur le fonctionnement
          </Link>
        </p>
      </section>

      <section aria-labelledby="why-title" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h2 id="why-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            Pourquoi passer par {brand_name}
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2">
            {TRUST.map((item) => (
              <li key={item.title} className="flex gap-4">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-ui bg-brand-50 text-brand-700 ring-1 ring-brand-100">
                  <item.icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900">{item.title}</h3>
                  <p className="mt-1 text-slate-700">{item.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <div className="rounded-ui bg-brand-800 px-6 py-10 text-center text-white sm:px-12">
          <h2 id="cta-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Un devis à comparer ?
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-brand-50">
            Déposez-le en quelques minutes. Vous restez libre de choisir votre dentiste, ou de ne rien
            choisir.
          </p>
          <Button asChild variant="light" size="lg" className="mt-6">
            <Link to="/patient/upload">Télécharger votre devis</Link>
          </Button>
        </div>
      </section>
    </>
  );
}
