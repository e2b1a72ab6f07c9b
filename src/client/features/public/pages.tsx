import { FileUp, Mail } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "../../components/ui/Accordion";
import { Button } from "../../components/ui/Button";
import { useConfig } from "../../lib/config";
import { useDocumentTitle } from "../../lib/title";

/** A public text page: one h1, a short introduction, then sections. */
function ContentPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-4 text-lg text-slate-700">{intro}</p> : null}
      <div className="mt-8 grid gap-6 text-slate-700 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900">
        {children}
      </div>
    </article>
  );
}

function UploadCta() {
  return (
    <div className="flex flex-wrap gap-3">
      <Button asChild variant="accent" size="lg">
        <Link to="/patient/upload">
          <FileUp aria-hidden="true" />
          Télécharger votre devis
        </Link>
      </Button>
    </div>
  );
}

export function HowItWorksPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Comment ça marche"
      intro={`${brand_name} vous aide à savoir si le devis de votre dentiste est au bon prix, en le faisant étudier par d'autres dentistes vérifiés.`}
    >
      <ol className="grid gap-5">
        {[
          [
            "Déposez votre devis",
            "Un devis est le document où votre dentiste détaille les soins prévus et leur prix. Déposez-le en photo ou en PDF, avec vos radiographies si vous en avez.",
          ],
          [
            "Décrivez vos besoins",
            "Précisez le soin, votre budget et votre urgence. Vous pouvez ensuite échanger par messagerie avec les dentistes qui étudient votre demande.",
          ],
          [
            "Comparez les propositions",
            "Des dentistes vérifiés vous répondent, en général sous 48 heures. Vous comparez les montants, les dentistes et leurs villes.",
          ],
          [
            "Prenez rendez-vous",
            "Si une proposition vous convient, vous contactez le dentiste par la messagerie de la plateforme et prenez rendez-vous. Vous n'êtes jamais obligé d'accepter.",
          ],
        ].map(([title, text], index) => (
          <li key={title} className="flex gap-4">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-700 font-semibold text-white">
              {index + 1}
            </span>
            <div>
              <h2>{title}</h2>
              <p className="mt-1">{text}</p>
            </div>
          </li>
        ))}
      </ol>
      <p>
        Le service est gratuit pour les patients. Vos documents ne sont visibles que par les dentistes
        vérifiés que vous choisissez.
      </p>
      <UploadCta />
    </ContentPage>
  );
}

const FAQ = [
  {
    q: "Qui peut utiliser le service ?",
    a: "Toute personne qui a reçu un devis dentaire en France, ou qui a besoin d'un soin dentaire, peut déposer une demande. Les dentistes diplômés exerçant en France peuvent rejoindre le réseau après vérification.",
  },
  {
    q: "Le service est-il gratuit ?",
    a: "Oui, le service est entièrement gratuit pour les patients. Les dentistes paient un abonnement mensuel pour faire partie du réseau ; aucune commission n'est prélevée sur les devis, ni auprès des patients.",
  },
  {
    q: "Comment mes données sont-elles protégées ?",
    a: "Vos documents sont stockés de façon privée et ne sont jamais publiés. Seuls les dentistes vérifiés que vous choisissez peuvent les consulter, et chaque consultation est enregistrée. Nous appliquons le RGPD : vous pouvez demander la suppression de vos données à tout moment.",
  },
  {
    q: "Comment les dentistes sont-ils sélectionnés ?",
    a: "Chaque dentiste est vérifié manuellement avant de pouvoir répondre aux patients : son numéro RPPS (l'identifiant des professionnels de santé inscrits à l'Ordre) et ses diplômes sont contrôlés.",
  },
  {
    q: "Combien puis-je économiser ?",
    a: "Cela dépend du soin et de votre devis de départ. Les économies constatées vont en moyenne de 30 à 60 %, et jusqu'à 60 % sur certains soins comme les implants ou les couronnes. Vous restez libre de garder votre dentiste.",
  },
  {
    q: "Comment fonctionne la demande de devis ?",
    a: "Vous déposez votre devis ou décrivez votre besoin, avec vos documents. Les dentistes vérifiés que vous avez choisis l'étudient et vous envoient leur proposition, en général sous 48 heures. Vous comparez, posez vos questions par messagerie, puis prenez rendez-vous si une proposition vous convient.",
  },
] as const;

export function FaqPage() {
  return (
    <ContentPage
      title="Questions fréquentes"
      intro="Les réponses aux questions que l'on nous pose le plus souvent."
    >
      <Accordion type="single" collapsible className="border-t border-slate-200">
        {FAQ.map((item, index) => (
          <AccordionItem key={item.q} value={`q${index}`}>
            <AccordionTrigger>{item.q}</AccordionTrigger>
            <AccordionContent>{item.a}</AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>
      <p>
        Vous ne trouvez pas votre réponse ?{" "}
        <Link to="/contact" className="font-medium text-brand-800 underline underline-offset-2">
          Contactez-nous
        </Link>
        .
      </p>
    </ContentPage>
  );
}

export function DentistBenefitsPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Avantages pour les dentistes"
      intro={`Rejoignez le réseau ${brand_name} pour recevoir les demandes de patients qui cherchent un dentiste et comparent leurs devis.`}
    >
      <section className="grid gap-2">
        <h2>Des patients qui ont un projet de soins</h2>
        <p>
          Les patients déposent un devis ou décrivent leur besoin, avec leurs documents (radiographies,
          photos). Vous consultez les demandes, y répondez avec votre proposition et échangez avec le patient
          par messagerie.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>Un abonnement, aucune commission</h2>
        <p>
          L'accès au réseau est un abonnement mensuel. Aucune commission n'est prélevée sur vos devis ni sur
          vos soins.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>Un réseau de confiance</h2>
        <p>
          Chaque compte dentiste est vérifié avant de pouvoir consulter les demandes : numéro RPPS,
          inscription à l'Ordre et diplômes. Les patients savent qu'ils s'adressent à des praticiens
          contrôlés.
        </p>
      </section>
      <div className="flex flex-wrap gap-3">
        <Button asChild size="lg">
          <Link to="/dentist/signup">Rejoindre le réseau</Link>
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
  return (
    <ContentPage
      title="Politique de confidentialité"
      intro={`${brand_name} traite des données de santé : nous les protégeons avec le plus grand soin, conformément au RGPD.`}
    >
      <section className="grid gap-2">
        <h2>Vos documents</h2>
        <p>
          Les devis, radiographies et photos que vous déposez sont stockés de façon privée, jamais à une
          adresse publique. Ils ne sont visibles que par vous, par les dentistes vérifiés que vous choisissez
          et par l'équipe d'administration. Chaque consultation d'un document est enregistrée et vous pouvez
          en voir la liste.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>Votre compte</h2>
        <p>
          Nous conservons votre nom, votre adresse email et les informations que vous ajoutez à votre profil,
          pour faire fonctionner le service. Votre session est conservée dans un cookie sécurisé ; aucun
          traceur publicitaire n'est utilisé.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>Vos droits</h2>
        <p>
          Vous pouvez demander l'accès, la rectification ou la suppression de vos données en écrivant à{" "}
          <a
            href={`mailto:${contact_email}`}
            className="font-medium text-brand-800 underline underline-offset-2"
          >
            {contact_email}
          </a>
          .
        </p>
      </section>
    </ContentPage>
  );
}

export function TermsPage() {
  const { brand_name } = useConfig();
  return (
    <ContentPage
      title="Conditions d'utilisation"
      intro={`${brand_name} met en relation des patients et des dentistes vérifiés pour comparer des devis dentaires.`}
    >
      <section className="grid gap-2">
        <h2>Pour les patients</h2>
        <p>
          Le service est gratuit. Les propositions des dentistes sont des offres indicatives : vous restez
          libre de les accepter ou non, et de garder votre dentiste. Le diagnostic définitif est posé par le
          dentiste lors de la consultation.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>Pour les dentistes</h2>
        <p>
          L'accès aux demandes des patients est réservé aux dentistes dont le compte a été vérifié.
          L'abonnement est mensuel, sans commission sur les devis. Les dentistes s'engagent à répondre avec
          sérieux et à respecter le secret médical.
        </p>
      </section>
      <section className="grid gap-2">
        <h2>Vos données</h2>
        <p>
          Le traitement de vos données est décrit dans notre{" "}
          <Link to="/privacy" className="font-medium text-brand-800 underline underline-offset-2">
            politique de confidentialité
          </Link>
          .
        </p>
      </section>
    </ContentPage>
  );
}

export function ContactPage() {
  const { contact_email } = useConfig();
  return (
    <ContentPage
      title="Contact"
      intro="Une question sur votre devis, sur le fonctionnement du service ou sur votre compte ? Écrivez-nous."
    >
      <p>
        Notre équipe répond par email, en français, du lundi au vendredi. Pour une question sur une demande en
        cours, indiquez l'adresse email de votre compte.
      </p>
      <div className="flex flex-wrap gap-3">
        <Button asChild size="lg">
          <a href={`mailto:${contact_email}`}>
            <Mail aria-hidden="true" />
            {contact_email}
          </a>
        </Button>
      </div>
      <p>
        Vous voulez faire étudier un devis ? Le plus simple est de le déposer directement : des dentistes
        vérifiés vous répondront.
      </p>
      <UploadCta />
    </ContentPage>
  );
}

export function UploadDevisPage() {
  return (
    <ContentPage
      title="Déposer un devis"
      intro="Faites étudier le devis de votre dentiste par des dentistes vérifiés, gratuitement."
    >
      <p>
        Pour protéger vos données de santé, le dépôt se fait depuis votre espace patient : connectez-vous, ou
        créez votre compte en une minute, puis ajoutez votre devis et vos documents (PDF, JPG ou PNG, 10 Mo
        maximum par fichier).
      </p>
      <p>
        Choisissez ensuite un dentiste vérifié précis, ou tous les dentistes vérifiés du réseau. Seuls les
        dentistes choisis verront vos documents. Les premières propositions arrivent en général sous 48
        heures.
      </p>
      <UploadCta />
      <p>
        Pas encore de compte ?{" "}
        <Link to="/signup" className="font-medium text-brand-800 underline underline-offset-2">
          Créer un compte patient
        </Link>
      </p>
    </ContentPage>
  );
}
