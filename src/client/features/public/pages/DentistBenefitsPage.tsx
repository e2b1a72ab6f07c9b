import { BadgeCheck, Inbox, ShieldCheck, UserPlus, Wallet } from "lucide-react";
import { Link } from "react-router";
import { TRIAL_DAYS } from "../../../../shared/domain/subscription";
import { Island } from "../../../components/Island";
import { PlanPrices, VAT_NOT_RECOVERABLE } from "../../../components/subscription/PlanPrices";
import { Button } from "../../../components/ui/Button";
import { useConfig } from "../../../lib/config";
import { BenefitCard } from "../BenefitCard";
import { ContentPage, Section } from "./ContentPage";

const DENTIST_BENEFITS = [
  {
    icon: Inbox,
    title: "Des demandes qualifiées",
    text: "Les patients déposent leur devis, leurs radiographies et leurs photos, précisent leur budget et leur urgence. Vous savez tout de suite si vous pouvez les aider. Un e-mail du matin vous dit combien de nouvelles demandes attendent votre réponse.",
  },
  {
    icon: Wallet,
    title: "Un abonnement, aucune commission",
    text: `L'accès au réseau est un abonnement, mensuel ou annuel, après ${TRIAL_DAYS} jours d'essai gratuit dès votre vérification, sans carte bancaire. Aucune commission n'est prélevée sur vos devis ni sur vos soins, et rien n'est demandé aux patients.`,
  },
  {
    icon: BadgeCheck,
    title: "Un réseau vérifié",
    text: "Chaque compte est vérifié avant de voir une demande : numéro RPPS et adresse du cabinet. Les patients savent qu'ils s'adressent à des praticiens contrôlés.",
  },
  {
    icon: ShieldCheck,
    title: "Dans le respect de votre déontologie",
    text: "Pas de classement payant ni de publicité : les patients comparent les propositions elles-mêmes. Le secret médical est protégé et chaque accès aux documents est tracé.",
  },
] as const;

export function DentistBenefitsPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Avantages"
      description={`Dentistes : rejoignez le réseau ${brand_name}. Des demandes de patients qualifiées, un abonnement sans commission, un réseau vérifié.`}
      intro={`Rejoignez le réseau ${brand_name} pour recevoir les demandes de patients qui ont un projet de soins et comparent leurs devis.`}
      wide
    >
      <ul className="grid gap-5 sm:grid-cols-2">
        {DENTIST_BENEFITS.map((benefit) => (
          <BenefitCard key={benefit.title} {...benefit} level="h2" />
        ))}
      </ul>
      <Section title="Tarifs" id="tarifs">
        <p>
          {TRIAL_DAYS} jours d'essai gratuit dès votre vérification, sans carte bancaire. Ensuite, l'une de
          ces deux formules : vous pouvez la choisir pendant l'essai sans l'écourter, le premier paiement a
          lieu à sa fin.
        </p>
        <Island name="plan-prices">
          <PlanPrices />
        </Island>
        <p className="text-sm text-slate-600">
          Paiement par carte bancaire ou prélèvement SEPA, facture à chaque paiement. Vous résiliez quand vous
          le souhaitez depuis votre page Abonnement : l'accès reste ouvert jusqu'à la fin de la période payée.{" "}
          {VAT_NOT_RECOVERABLE}
        </p>
      </Section>
      <Section title="Comment rejoindre le réseau">
        <ol className="grid list-decimal gap-2 pl-5">
          <li>Créez votre compte dentiste.</li>
          <li>Indiquez votre numéro RPPS et l'adresse de votre cabinet, puis demandez la vérification.</li>
          <li>Notre équipe vérifie vos informations et vous prévient par e-mail.</li>
          <li>Vous consultez les demandes et répondez aux patients.</li>
        </ol>
      </Section>
      <div className="flex flex-wrap gap-3">
        <Button asChild size="lg">
          <Link to="/dentist/signup">
            <UserPlus aria-hidden="true" />
            Rejoindre le réseau
          </Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/dentist/login">Connexion dentiste</Link>
        </Button>
      </div>
    </ContentPage>
  );
}
