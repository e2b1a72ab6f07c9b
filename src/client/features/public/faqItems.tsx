import type { ReactNode } from "react";
import { Link } from "react-router";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "../../components/ui/Accordion";

export interface FaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

const link = "font-medium text-brand-800 underline underline-offset-2";

/** The six questions of spec §2, answered for this product (D6, D9, D10, D12). */
export const FAQ_ITEMS: readonly FaqItem[] = [
  {
    id: "qui",
    question: "Qui peut utiliser le service ?",
    answer: (
      <p>
        Toute personne qui a reçu un devis dentaire, ou qui a besoin d'un soin dentaire en France, peut créer
        un compte patient et déposer une demande. Côté professionnels, seuls les chirurgiens-dentistes
        exerçant en France et vérifiés par notre équipe peuvent consulter les demandes et y répondre.
      </p>
    ),
  },
  {
    id: "gratuit",
    question: "Le service est-il gratuit ?",
    answer: (
      <p>
        Oui, entièrement gratuit pour les patients. Les dentistes paient un abonnement mensuel pour faire
        partie du réseau. Aucune commission n'est prélevée, ni sur leurs devis, ni auprès des patients.
      </p>
    ),
  },
  {
    id: "donnees",
    question: "Comment mes données sont-elles protégées ?",
    answer: (
      <>
        <p>
          Vos documents (devis, radiographies, photos) sont stockés de façon privée et ne sont jamais publiés.
          Ils ne sont visibles que par les dentistes vérifiés que vous choisissez — un dentiste précis, ou
          tous les dentistes vérifiés du réseau — et par notre équipe d'administration si vous avez besoin
          d'aide.
        </p>
        <p className="mt-2">
          Chaque consultation ou téléchargement d'un document est enregistré, et vous voyez cet historique
          dans votre espace. Vous pouvez demander à tout moment une copie ou la suppression de vos données
          (RGPD). Détails dans notre{" "}
          <Link to="/privacy" className={link}>
            politique de confidentialité
          </Link>
          .
        </p>
      </>
    ),
  },
  {
    id: "dentistes",
    question: "Comment les dentistes sont-ils sélectionnés ?",
    answer: (
      <p>
        Chaque dentiste donne son numéro RPPS (Répertoire partagé des professionnels de santé : l'identifiant
        national à 11 chiffres de tout professionnel de santé autorisé à exercer en France) et l'adresse de
        son cabinet. Notre équipe les contrôle à la main avant de valider le compte. Tant qu'il n'est pas
        vérifié, un dentiste ne voit aucune donnée de patient.
      </p>
    ),
  },
  {
    id: "economies",
    question: "Combien puis-je économiser ?",
    answer: (
      <p>
        Cela dépend du soin et de votre devis de départ. Les économies constatées vont en moyenne de 30 à 60
        %, et jusqu'à 60 % sur certains soins comme les implants ou les couronnes. Ce n'est pas une garantie :
        si vous indiquez le montant de votre devis, chaque proposition affiche l'économie réelle par rapport à
        celui-ci.
      </p>
    ),
  },
  {
    id: "processus",
    question: "Comment fonctionne la demande de devis ?",
    answer: (
      <p>
        Vous créez votre compte, puis déposez votre devis ou décrivez votre besoin, avec vos documents. Vous
        choisissez qui peut voir votre demande. Les dentistes vérifiés l'étudient et vous envoient leur
        proposition, en général sous 48 heures. Vous comparez les offres, posez vos questions par messagerie,
        puis acceptez celle qui vous convient et choisissez un créneau de rendez-vous. Vous n'êtes jamais
        obligé d'accepter.
      </p>
    ),
  },
];

/** The FAQ of spec §2: one item open at a time, collapsible. Questions are h2 on /faq, h3 under a section. */
export function FaqAccordion({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  return (
    <Accordion type="single" collapsible className="border-t border-slate-200">
      {FAQ_ITEMS.map((item) => (
        <AccordionItem key={item.id} value={item.id}>
          <AccordionTrigger headingLevel={headingLevel}>{item.question}</AccordionTrigger>
          <AccordionContent>{item.answer}</AccordionContent>
        </AccordionItem>
      ))}
    </Accordion>
  );
}
