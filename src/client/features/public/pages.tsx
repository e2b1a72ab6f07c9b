import {
  BadgeCheck,
  CalendarCheck,
  FileUp,
  Inbox,
  LockKeyhole,
  MessagesSquare,
  Scale,
  ShieldCheck,
  UserPlus,
  Wallet,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { retentionLines } from "../../../shared/domain/retention";
import { Island } from "../../app/Island";
import { Button } from "../../components/ui/Button";
import { useConfig } from "../../lib/config";
import { usePageMeta } from "../../lib/title";
import { ContactForm } from "./ContactForm";
import { FaqAccordion } from "./faqItems";

const linkClass = "font-medium text-brand-800 underline underline-offset-2";

/** A public text page: one h1, a short introduction, then sections; sets the page's SEO tags. */
function ContentPage({
  title,
  description,
  intro,
  children,
  wide = false,
}: {
  title: string;
  description: string;
  intro?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  usePageMeta({ title, description });
  return (
    <article className={`mx-auto px-4 py-12 sm:px-6 sm:py-16 ${wide ? "max-w-5xl" : "max-w-3xl"}`}>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-4 max-w-3xl text-lg text-slate-700">{intro}</p> : null}
      <div className="mt-8 grid gap-8 text-slate-700 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_h3]:font-semibold [&_h3]:text-slate-900">
        {children}
      </div>
    </article>
  );
}

function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section id={id} className="grid gap-3">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function UploadCta() {
  return (
    <div className="flex flex-wrap gap-3">
      <Button asChild variant="accent" size="lg">
        <Link to="/patient/upload">
          <FileUp aria-hidden="true" />
          Déposer votre devis
        </Link>
      </Button>
    </div>
  );
}

const euros = new Intl.NumberFormat("fr-FR", {
  style: "currency",
  currency: "EUR",
  maximumFractionDigits: 0,
});

const EXAMPLE_QUOTE = 2400;
const EXAMPLE_OFFERS = [
  { dentist: "Cabinet A", city: "Lyon 3e", amount: 1560, delay: "Rendez-vous sous 10 jours" },
  { dentist: "Cabinet B", city: "Villeurbanne", amount: 1680, delay: "Rendez-vous sous 3 semaines" },
  { dentist: "Cabinet C", city: "Lyon 7e", amount: 1890, delay: "Rendez-vous sous 1 semaine" },
] as const;

/** The illustrative comparison of /how-it-works#exemple (made-up amounts, clearly labelled). */
function ExampleComparison() {
  return (
    <section id="exemple" aria-labelledby="exemple-title" className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="exemple-title">Exemple de comparaison</h2>
        <span className="rounded-full bg-amber-50 px-3 py-1 text-sm font-semibold text-amber-900 ring-1 ring-amber-300">
          Exemple illustratif
        </span>
      </div>
      <p>
        Montants fictifs, pour montrer comment les propositions vous sont présentées. Devis initial : trois
        couronnes céramo-métalliques,{" "}
        <span className="tabular font-semibold">{euros.format(EXAMPLE_QUOTE)}</span>.
      </p>
      <div className="overflow-x-auto rounded-ui border border-slate-200">
        <table className="w-full min-w-[32rem] text-left text-sm">
          <caption className="sr-only">
            Exemple illustratif : trois propositions pour un devis de 2 400 €
          </caption>
          <thead className="bg-slate-50 text-slate-800">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Dentiste vérifié
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Proposition
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Économie
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Disponibilité
              </th>
            </tr>
          </thead>
          <tbody>
            {EXAMPLE_OFFERS.map((offer, index) => {
              const saving = EXAMPLE_QUOTE - offer.amount;
              return (
                <tr key={offer.dentist} className={index === 0 ? "bg-brand-50" : "border-t border-slate-200"}>
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    <span className="inline-flex items-center gap-1.5">
                      <BadgeCheck className="size-4 text-brand-700" aria-hidden="true" />
                      {offer.dentist}, {offer.city}
                    </span>
                    {index === 0 ? (
                      <span className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">
                        Meilleure offre
                      </span>
                    ) : null}
                  </th>
                  <td className="px-4 py-3 tabular text-slate-900">{euros.format(offer.amount)}</td>
                  <td className="px-4 py-3 tabular text-slate-900">
                    {euros.format(saving)} ({Math.round((saving / EXAMPLE_QUOTE) * 100)} %)
                  </td>
                  <td className="px-4 py-3 text-slate-700">{offer.delay}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-sm text-slate-600">
        Dans votre espace, chaque offre indique aussi les actes prévus, la validité de la proposition et les
        créneaux de rendez-vous proposés.
      </p>
    </section>
  );
}

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
    text: "Des dentistes vérifiés vous répondent, en général sous 48 heures. Vous voyez côte à côte le montant, l'économie par rapport à votre devis, le dentiste et sa ville.",
  },
  {
    icon: CalendarCheck,
    title: "Prenez rendez-vous",
    text: "Une offre vous convient ? Acceptez-la et choisissez l'un des créneaux proposés ; le dentiste confirme. Vous n'êtes jamais obligé d'accepter.",
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
          <li>Des économies de 30 à 60 % en moyenne selon les soins, jusqu'à 60 %.</li>
          <li>Des propositions présentées de la même façon, faciles à comparer.</li>
          <li>Un service gratuit pour vous, entièrement en ligne, sans engagement.</li>
        </ul>
      </Section>

      <Section title="Des garanties de confiance">
        <ul className="grid gap-4 sm:grid-cols-3">
          <li className="rounded-ui bg-slate-50 p-4">
            <h3 className="flex items-center gap-2">
              <BadgeCheck className="size-5 text-brand-700" aria-hidden="true" />
              Dentistes vérifiés
            </h3>
            <p className="mt-1">Numéro RPPS et cabinet contrôlés à la main par notre équipe.</p>
          </li>
          <li className="rounded-ui bg-slate-50 p-4">
            <h3 className="flex items-center gap-2">
              <LockKeyhole className="size-5 text-brand-700" aria-hidden="true" />
              Documents privés
            </h3>
            <p className="mt-1">
              Visibles seulement par les dentistes que vous choisissez ; chaque accès est enregistré.
            </p>
          </li>
          <li className="rounded-ui bg-slate-50 p-4">
            <h3 className="flex items-center gap-2">
              <Wallet className="size-5 text-brand-700" aria-hidden="true" />
              Aucune commission
            </h3>
            <p className="mt-1">Les dentistes paient un abonnement ; rien n'est prélevé sur vos soins.</p>
          </li>
        </ul>
      </Section>

      <ExampleComparison />
      <UploadCta />
    </ContentPage>
  );
}

export function FaqPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Questions fréquentes"
      description={`Les réponses sur ${brand_name} : gratuité pour les patients, protection des données de santé, vérification des dentistes, économies, fonctionnement de la demande de devis.`}
      intro="Les réponses aux questions que l'on nous pose le plus souvent."
    >
      <FaqAccordion headingLevel={2} />
      <p>
        Vous ne trouvez pas votre réponse ?{" "}
        <Link to="/contact" className={linkClass}>
          Contactez-nous
        </Link>
        .
      </p>
    </ContentPage>
  );
}

const DENTIST_BENEFITS = [
  {
    icon: Inbox,
    title: "Des demandes qualifiées",
    text: "Les patients déposent leur devis, leurs radiographies et leurs photos, précisent leur budget et leur urgence. Vous savez tout de suite si vous pouvez les aider.",
  },
  {
    icon: Wallet,
    title: "Un abonnement, aucune commission",
    text: "L'accès au réseau est un abonnement mensuel. Aucune commission n'est prélevée sur vos devis ni sur vos soins, et rien n'est demandé aux patients.",
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
      description={`Dentistes : rejoignez le réseau ${brand_name}. Des demandes de patients qualifiées, un abonnement mensuel sans commission, un réseau vérifié.`}
      intro={`Rejoignez le réseau ${brand_name} pour recevoir les demandes de patients qui ont un projet de soins et comparent leurs devis.`}
      wide
    >
      <ul className="grid gap-5 sm:grid-cols-2">
        {DENTIST_BENEFITS.map((benefit) => (
          <li key={benefit.title} className="rounded-ui border border-slate-200 bg-white p-5 shadow-sm">
            <span className="flex size-11 items-center justify-center rounded-ui bg-brand-50 text-brand-700 ring-1 ring-brand-100">
              <benefit.icon className="size-5" aria-hidden="true" />
            </span>
            <h2 className="mt-4">{benefit.title}</h2>
            <p className="mt-1">{benefit.text}</p>
          </li>
        ))}
      </ul>
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

export function PrivacyPage() {
  const { brand_name, contact_email } = useConfig();
  const mail = (
    <a href={`mailto:${contact_email}`} className={linkClass}>
      {contact_email}
    </a>
  );
  return (
    <ContentPage
      title="Politique de confidentialité"
      description={`Comment ${brand_name} protège vos données de santé : données collectées, base légale, qui voit vos documents, durées de conservation, vos droits RGPD.`}
      intro={`${brand_name} traite des données de santé. Cette page explique lesquelles, pourquoi, qui peut les voir, combien de temps nous les gardons et comment exercer vos droits (RGPD).`}
    >
      <Section title="Responsable du traitement">
        <p>
          {brand_name} est responsable du traitement des données collectées sur ce site. Pour toute question
          sur vos données, écrivez-nous à {mail}.
        </p>
      </Section>
      <Section title="Les données que nous collectons, et pourquoi">
        <ul className="grid list-disc gap-2 pl-5">
          <li>
            <strong>Votre compte</strong> : nom, prénom, adresse e-mail, mot de passe (chiffré, jamais
            lisible), et si vous les ajoutez, téléphone, ville et photo. Pour vous identifier et faire
            fonctionner le service.
          </li>
          <li>
            <strong>Vos demandes</strong> : devis, radiographies, photos, type de soin, budget, urgence et
            description. Ce sont des données de santé : elles servent uniquement à obtenir les propositions
            des dentistes que vous choisissez.
          </li>
          <li>
            <strong>Votre devis détaillé et votre mutuelle</strong>, si vous les saisissez : les actes de
            votre devis (dent, acte, honoraires) et le niveau de remboursement de votre mutuelle. Ils servent
            à estimer votre reste à charge sur chaque proposition ; les dentistes voient les actes de votre
            devis, jamais votre mutuelle.
          </li>
          <li>
            <strong>Vos échanges</strong> : messages avec les dentistes et avec notre équipe, offres et
            rendez-vous.
          </li>
          <li>
            <strong>Les dentistes</strong> : identité, numéro RPPS, adresse du cabinet, spécialités, pour
            vérifier leur droit d'exercer.
          </li>
          <li>
            <strong>Le formulaire de contact</strong> : nom, e-mail, message et pièce jointe éventuelle, pour
            vous répondre.
          </li>
        </ul>
        <p>
          Un seul cookie est utilisé : celui de votre session, nécessaire à la connexion. Aucun traceur
          publicitaire ni outil de mesure d'audience tiers.
        </p>
      </Section>
      <Section title="Base légale">
        <p>
          Vos données de santé ne sont traitées qu'avec votre <strong>consentement explicite</strong> (article
          9 du RGPD), donné lorsque vous déposez une demande. Vous pouvez le retirer à tout moment ; cela
          n'affecte pas ce qui a été fait avant. Les autres données sont traitées pour exécuter le service que
          vous demandez (article 6.1.b) et, pour la sécurité du site et la traçabilité des accès, au titre de
          notre intérêt légitime (article 6.1.f).
        </p>
      </Section>
      <Section title="Qui voit vos documents">
        <p>
          Vos documents ne sont jamais publiés ni accessibles par une adresse publique. Seuls peuvent les
          voir : vous ; les dentistes vérifiés que vous avez choisis (un dentiste précis, ou tous les
          dentistes vérifiés du réseau si vous le décidez) ; et notre équipe d'administration, uniquement pour
          vous aider ou traiter un signalement. Un dentiste dont le compte n'est pas vérifié ne voit aucune
          donnée de patient. Nous ne vendons ni ne louons aucune donnée.
        </p>
      </Section>
      <Section title="Le journal des accès">
        <p>
          Chaque ouverture de votre demande par un dentiste, chaque consultation ou téléchargement d'un de vos
          documents ou des pièces jointes que vous envoyez est enregistré : qui, quoi, quand. Vous consultez
          ce journal dans votre espace patient, sur la page de chaque demande.
        </p>
      </Section>
      <Section title="Durées de conservation">
        <ul className="grid list-disc gap-2 pl-5">
          {retentionLines().map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </Section>
      <Section title="Vos droits">
        <p>
          Vous pouvez à tout moment accéder à vos données, en obtenir une copie dans un format courant
          (portabilité), les faire rectifier ou effacer, limiter leur traitement, vous y opposer, et retirer
          votre consentement. Depuis votre profil, rubrique « Mes données », vous téléchargez vous-même toutes
          vos données (une archive zip) et vous supprimez votre compte ; vous y modifiez aussi votre profil.
          Pour le reste, écrivez à {mail} depuis l'adresse de votre compte. Nous répondons dans un délai d'un
          mois au plus.
        </p>
        <p>
          Si vous estimez que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la CNIL
          (Commission nationale de l'informatique et des libertés), sur cnil.fr.
        </p>
      </Section>
      <Section title="Hébergement et sécurité">
        <p>
          Le service est hébergé dans l'Union européenne par notre hébergeur. Les données de santé doivent
          être hébergées chez un hébergeur certifié HDS (hébergeur de données de santé) ; le nom de
          l'hébergeur retenu vous est communiqué sur simple demande. Les échanges avec le site sont chiffrés
          (HTTPS) ; les documents sont chiffrés sur nos serveurs (AES-256), stockés sous des noms aléatoires
          et ne sont servis qu'aux personnes autorisées.
        </p>
      </Section>
    </ContentPage>
  );
}

export function TermsPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Conditions d'utilisation"
      description={`Les conditions d'utilisation de ${brand_name} pour les patients (service gratuit) et les dentistes (abonnement sans commission).`}
      intro={`${brand_name} met en relation des patients et des dentistes vérifiés pour comparer des devis dentaires. En utilisant le service, vous acceptez les conditions ci-dessous.`}
    >
      <Section title="Le service">
        <p>
          {brand_name} permet à un patient de déposer un devis dentaire et ses documents, de recevoir les
          propositions de dentistes vérifiés, de les comparer, d'échanger avec eux par messagerie et de
          prendre rendez-vous. {brand_name} n'est ni un cabinet dentaire ni un assureur.
        </p>
      </Section>
      <Section title="Pour les patients">
        <p>
          Le service est gratuit pour les patients. Vous vous engagez à déposer des documents qui vous
          concernent (ou concernent une personne dont vous avez la charge) et des informations exactes. Vous
          restez libre d'accepter une proposition ou non, et de garder votre dentiste.
        </p>
      </Section>
      <Section title="Pas de conseil médical">
        <p>
          La plateforme ne donne aucun avis médical et ne pose aucun diagnostic. Les propositions sont faites
          par les dentistes, sous leur seule responsabilité, sur la base des documents transmis ; le plan de
          traitement définitif est établi par le dentiste lors de la consultation. En cas d'urgence, contactez
          un dentiste de garde ou le 15.
        </p>
      </Section>
      <Section title="Pour les dentistes">
        <p>
          L'accès aux demandes est réservé aux chirurgiens-dentistes dont le compte a été vérifié (numéro RPPS
          et cabinet). L'accès au réseau est un abonnement mensuel, sans aucune commission sur les devis ou
          les soins. Les dentistes répondent avec sérieux, respectent le secret médical et le code de
          déontologie de leur profession.
        </p>
        <p>
          Conformément à ces règles, {brand_name} ne propose ni classement payant ni publicité : aucun
          dentiste ne peut payer pour être mis en avant. Les propositions sont présentées de la même façon
          pour tous ; le patient les trie lui-même.
        </p>
      </Section>
      <Section title="Comptes et sécurité">
        <p>
          Vous êtes responsable de la confidentialité de votre mot de passe. Nous pouvons suspendre un compte
          en cas d'usage frauduleux ou contraire à ces conditions.
        </p>
      </Section>
      <Section title="Vos données">
        <p>
          Le traitement de vos données est décrit dans notre{" "}
          <Link to="/privacy" className={linkClass}>
            politique de confidentialité
          </Link>
          .
        </p>
      </Section>
    </ContentPage>
  );
}

export function ContactPage() {
  const { brand_name, contact_email } = useConfig();
  return (
    <ContentPage
      title="Contact"
      description={`Contactez l'équipe ${brand_name} : une question sur votre devis, le fonctionnement du service ou votre compte.`}
      intro="Une question sur votre devis, sur le fonctionnement du service ou sur votre compte ? Écrivez-nous : notre équipe répond par e-mail, en français."
    >
      <div className="rounded-ui border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <Island name="contact-form">
          <ContactForm />
        </Island>
      </div>
      <p>
        Vous préférez l'e-mail ? Écrivez à{" "}
        <a href={`mailto:${contact_email}`} className={linkClass}>
          {contact_email}
        </a>
        . Vous voulez faire étudier un devis ? Le plus simple est de{" "}
        <Link to="/patient/upload" className={linkClass}>
          le déposer dans votre espace patient
        </Link>
        .
      </p>
    </ContentPage>
  );
}

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
    text: "Un dentiste vérifié précis, ou tous les dentistes vérifiés du réseau. Les premières propositions arrivent en général sous 48 heures.",
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
        Déjà connecté ? Vous serez conduit directement à la page de dépôt. La création d'un compte est
        gratuite et prend une minute.
      </p>
    </ContentPage>
  );
}
