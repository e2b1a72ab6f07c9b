import { parisToday } from "../../../shared/policies/offers";

/** The archive's data file and its README (the data export, export.service.ts). */
export const DATA_FILE = "mes-donnees.json";
export const README_FILE = "README.txt";

/** The archive's folders, as the README names them. */
export const FOLDERS = {
  documents: "fichiers/documents",
  messages: "fichiers/messages",
  support: "fichiers/aide",
  avatar: "fichiers/photo-de-profil",
  invoices: "fichiers/factures",
} as const;

/** The README of the archive, in French: what each file and folder holds. */
export function readme(
  brandName: string,
  now: Date,
  role: "patient" | "dentist" | null,
  verified = true,
): string {
  const day = parisToday(now).split("-").reverse().join("/");
  const lines = [
    `Vos données ${brandName} — export du ${day}`,
    "",
    "Cette archive contient les données personnelles que nous conservons sur vous (droit d'accès et",
    "droit à la portabilité, articles 15 et 20 du RGPD), et les fichiers que vous avez envoyés.",
    "Elle ne contient aucun fichier envoyé par une autre personne.",
    "",
    "Contenu :",
    "",
    `- ${README_FILE} : ce fichier.`,
    `- ${DATA_FILE} : toutes vos données, au format JSON (lisible par un programme). Les dates sont en`,
    "  UTC (format ISO 8601), les montants en centimes d'euro. Principales rubriques :",
    "    profile : votre profil (nom, e-mail, téléphone, ville…, double authentification activée ou non) ;",
    "    requests : vos demandes de devis, les lignes de votre devis et la liste de leurs documents ;",
    "      devis_readings : les lectures automatiques de votre devis (lignes lues et texte lu) ;",
    "    mutuelle : la couverture de votre mutuelle, si vous l'avez renseignée ;",
    "    offers_received : les propositions reçues des dentistes (actes, montants, créneaux) ;",
    "    requests_followed : les demandes que vous avez suivies (dentistes) ;",
    "    offers_sent : les propositions que vous avez envoyées (dentistes) ;",
    "    conversations : vos conversations et tous leurs messages (le nom de votre interlocuteur",
    "      y figure ; ses pièces jointes ne sont pas incluses, seulement leur nombre) ;",
    "    appointments : vos rendez-vous ;",
    "    billing_profile, invoices : votre profil de facturation et les factures et avoirs de votre",
    `      abonnement ${brandName} (dentistes) ;`,
    "    reviews : les avis que vous avez donnés (patients), ou ceux publiés sur vous, vos réponses",
    "      et vos signalements (dentistes) ;",
    "    support_messages : vos échanges avec l'équipe (aide) ;",
    "    access_history : qui a consulté vos demandes, documents et pièces jointes, et les",
    "      consultations que vous avez faites des données d'un patient ;",
    "    consents : les consentements donnés (partage des documents à l'envoi de chaque demande,",
    "      conditions d'utilisation pour les dentistes) ;",
    "    sessions : vos appareils connectés (navigateur, adresse IP, dates), sans leur jeton secret ;",
    "    account_events : les événements de votre compte (changement de mot de passe, vérification,",
    "      exports de vos données…) ;",
    "    files : la liste des fichiers de cette archive.",
    `- ${FOLDERS.documents}/ : les documents de vos demandes (devis, radiographies, photos), un`,
    "  dossier par demande (les 8 premiers caractères de son identifiant).",
    `- ${FOLDERS.messages}/ : les pièces jointes que vous avez envoyées dans vos conversations, un`,
    "  dossier par conversation.",
    `- ${FOLDERS.support}/ : les images que vous avez envoyées à l'équipe.`,
    `- ${FOLDERS.avatar}/ : votre photo de profil, si vous en avez une.`,
    `- ${FOLDERS.invoices}/ : vos factures et avoirs ${brandName} (PDF Factur-X), si vous êtes dentiste.`,
    "",
    "Dans le JSON, le champ « file » de chaque document ou pièce jointe donne son chemin dans",
    "l'archive (null si le fichier n'a pas pu être retrouvé).",
    "",
    role === "dentist"
      ? "Vous êtes dentiste : les demandes et documents des patients ne sont pas dans cette archive ;"
      : "Une rubrique sans objet pour votre compte est une liste vide.",
    ...(role === "dentist" && verified
      ? ["seuls le nom du patient et vos propres échanges avec lui y figurent."]
      : []),
    // D6: a dentist not verified sees no patient data, in his archive neither (export.repo.ts).
    ...(role === "dentist" && !verified
      ? [
          "votre compte n'étant pas vérifié, vos conversations, vos rendez-vous, le nom des patients",
          "de vos propositions et les avis sur vous n'y figurent pas non plus (seules vos réponses et",
          "vos signalements) : ils y reviendront une fois votre compte vérifié.",
        ]
      : []),
    "",
    "Une question sur vos données ? Écrivez-nous depuis la page de contact.",
    "",
  ];
  return lines.join("\r\n");
}
