/**
 * The questions and answers of the FAQ, in one place (issue 16, item 11): plain data an
 * operator may change without touching a component. An answer is paragraphs; a paragraph is text,
 * and links written { to, label } (internal paths). Wording rules: docs/glossary.md.
 */

export type FaqSegment = string | { to: string; label: string };

export interface FaqEntry {
  id: string;
  question: string;
  /** Paragraphs of the answer. */
  answer: readonly (readonly FaqSegment[])[];
}

export const FAQ: readonly FaqEntry[] = [
  {
    id: "qui",
    question: "Qui peut utiliser le service ?",
    answer: [
      [
        "Toute personne qui a reçu un devis dentaire, ou qui a besoin d'un soin dentaire en France, peut créer un compte patient et déposer une demande. Côté professionnels, seuls les chirurgiens-dentistes exerçant en France et vérifiés par notre équipe peuvent consulter les demandes et y répondre.",
      ],
    ],
  },
  {
    id: "gratuit",
    question: "Le service est-il gratuit ?",
    answer: [
      [
        "Oui, entièrement gratuit pour les patients. Les dentistes paient un abonnement, mensuel ou annuel, pour faire partie du réseau. Aucune commission n'est prélevée, ni sur leurs devis, ni auprès des patients.",
      ],
    ],
  },
  {
    id: "donnees",
    question: "Comment mes données sont-elles protégées ?",
    answer: [
      [
        "Vos documents (devis, radiographies, photos) sont stockés de façon privée et ne sont jamais publiés. Ils ne sont visibles que par les dentistes vérifiés que vous choisissez — un dentiste précis, ou tous les dentistes vérifiés du réseau — et par notre équipe d'administration si vous avez besoin d'aide.",
      ],
      [
        "Chaque consultation ou téléchargement d'un document est enregistré, et vous voyez cet historique dans votre espace. Vous pouvez demander à tout moment une copie ou la suppression de vos données (RGPD). Détails dans notre",
        { to: "/privacy", label: "politique de confidentialité" },
        ".",
      ],
      [
        "Pour protéger votre compte au-delà du mot de passe, activez la double authentification dans la partie « Sécurité » de votre profil : un code affiché par une application de votre téléphone vous sera demandé à chaque connexion.",
      ],
    ],
  },
  {
    id: "dentistes",
    question: "Comment les dentistes sont-ils sélectionnés ?",
    answer: [
      [
        "Chaque dentiste donne son numéro RPPS (Répertoire partagé des professionnels de santé : l'identifiant national à 11 chiffres de tout professionnel de santé autorisé à exercer en France) et l'adresse de son cabinet. Notre équipe les contrôle à la main avant de valider le compte. Tant qu'il n'est pas vérifié, un dentiste ne voit aucune donnée de patient.",
      ],
    ],
  },
  {
    id: "economies",
    question: "Combien puis-je économiser ?",
    answer: [
      [
        "Cela dépend du soin et de votre devis de départ. L'économie médiane mesurée sur les propositions acceptées, chacune comparée aux mêmes soins de son devis de départ, est affichée sur la page d'accueil dès qu'elle porte sur assez de demandes. Ce n'est pas une garantie : si vous indiquez le montant de votre devis, chaque proposition affiche l'économie réelle par rapport à celui-ci.",
      ],
    ],
  },
  {
    id: "processus",
    question: "Comment fonctionne la demande de devis ?",
    answer: [
      [
        "Vous créez votre compte, puis déposez votre devis ou décrivez votre besoin, avec vos documents. Vous choisissez qui peut voir votre demande. Les dentistes vérifiés l'étudient et vous envoient leur proposition ; un e-mail vous prévient. Vous comparez les offres, posez vos questions par messagerie, puis acceptez celle qui vous convient et choisissez un créneau de rendez-vous. Rien ne vous oblige à accepter.",
      ],
    ],
  },
];
