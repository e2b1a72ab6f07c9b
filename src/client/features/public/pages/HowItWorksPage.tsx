import { BadgeCheck, CalendarCheck, FileUp, LockKeyhole, MessagesSquare, Scale, Wallet } from "lucide-react";
import { useConfig } from "../../../lib/config";
import { ContentPage, Section, UploadCta } from "./ContentPage";
import { ExampleComparison } from "./ExampleComparison";

const HOW_STEPS = [
  {
    icon: FileUp,
    title: "Déposez votre devis",
    text: "Un devis est le document où votre dentiste détaille les soins prévus et leur prix. Déposez-le en photo ou en PDF, avec vos radiographies si vous en avez.",
  },
  {
    icon: MessagesSquare,
    title: "Décrivez vos besoins",
    text: "Précisez le soin, votre budget et votre urgence. Vous échangez ensuite par messagerie avec les dentistes qui étudient votre demande, et notre équipe répond à vos questions.",
  },
  {
    icon: Scale,
    title: "Comparez les offres de dentistes vérifiés",
    text: "Des dentistes vérifiés vous répondent ; un e-mail vous prévient. Vous voyez côte à côte le montant, l'économie par rapport à votre devis, le dentiste et sa ville.",
  },
  {
    icon: CalendarCheck,
    title: "Prenez rendez-vous",
    text: "Une offre vous convient ? Acceptez-la et choisissez l'un des créneaux proposés ; le dentiste confirme. Rien ne vous oblige à accepter.",
  },
] as const;

const GUARANTEES = [
  {
    icon: BadgeCheck,
    title: "Dentistes vérifiés",
    text: "Numéro RPPS et cabinet contrôlés à la main par notre équipe.",
  },
  {
    icon: LockKeyhole,
    title: "Documents privés",
    text: "Visibles seulement par les dentistes que vous choisissez ; chaque accès est enregistré.",
  },
  {
    icon: Wallet,
    title: "Aucune commission",
    text: "Les dentistes paient un abonnement ; rien n'est prélevé sur vos soins.",
  },
] as const;

export function HowItWorksPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Comment ça marche"
      description={`Comment ${brand_name} fonctionne : déposez votre devis dentaire, comparez les offres de dentistes vérifiés, prenez rendez-vous. Gratuit pour les patients.`}
      intro={`${brand_name} vous aide à savoir si le devis de votre dentiste est au bon prix, en le faisant étudier par d'autres dentistes vérifiés.`}
      wide
    >
      <ol className="grid gap-5 sm:grid-cols-2">
        {HOW_STEPS.map((step, index) => (
          <li
            key={step.title}
            className="flex gap-4 rounded-ui border border-slate-200 bg-white p-5 shadow-sm"
          >
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-700 font-semibold text-white">
              {index + 1}
            </span>
            <div>
              <h2 className="flex items-center gap-2">
                {step.title}
                <step.icon className="size-5 text-brand-700" aria-hidden="true" />
              </h2>
              <p className="mt-1">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>

      <Section title={`Pourquoi utiliser ${brand_name}`}>
        <ul className="grid list-disc gap-2 pl-5">
          <li>Un deuxième avis sur un soin coûteux, sans vous déplacer.</li>
          <li>L'économie par rapport à votre devis affichée sur chaque proposition.</li>
          <li>Des propositions présentées de la même façon, faciles à comparer.</li>
          <li>Un service gratuit pour vous, entièrement en ligne, sans engagement.</li>
        </ul>
      </Section>

      <Section title="Des garanties de confiance">
        <ul className="grid gap-4 sm:grid-cols-3">
          {GUARANTEES.map((guarantee) => (
            <li key={guarantee.title} className="rounded-ui bg-slate-50 p-4">
              <h3 className="flex items-center gap-2">
                <guarantee.icon className="size-5 text-brand-700" aria-hidden="true" />
                {guarantee.title}
              </h3>
              <p className="mt-1">{guarantee.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <ExampleComparison />
      <UploadCta />
    </ContentPage>
  );
}
