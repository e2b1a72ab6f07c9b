import type { TreatmentType } from "../../shared/domain/treatments";

/** A line of a devis or an offer: with a CCAM code, basket, BR and ceiling come from the act table. */
export interface DemoLine {
  code?: string;
  act: string;
  tooth: number | null;
  euros: number;
}

/**
 * A request of the demo patient and what happened to it, each step taken by its author through the
 * services (seed.ts): the statuses follow (a reply puts it 'En cours', an accepted offer 'Acceptée').
 */
export interface DemoRequest {
  treatment_type: TreatmentType;
  urgency: "high" | "medium" | "low";
  daysAgo: number;
  description: string;
  budget?: string;
  quoteEuros?: number;
  /** The devis line by line (issue 15); the quote's amount is then their total. */
  quoteLines?: DemoLine[];
  toDentist?: string;
  /** Cancelled by the patient the day she sent it. */
  cancelled?: true;
  /** Dentists who already opened the first document (the patient sees it in the access record). */
  openedBy?: Array<{ email: string; action: "view" | "download"; daysAgo: number }>;
  /** Dentists' replies: the first message of the conversation, then their offer if any. */
  replies?: Array<{
    email: string;
    daysAgo: number;
    message: string;
    /** A formal offer with the reply (ADR 008): slots are [days from today, Paris time]. */
    offer?: {
      /** Accepted by the patient the day it came. */
      accepted?: true;
      lines: DemoLine[];
      comment: string;
      validDays: number;
      slots: Array<[number, string]>;
      /** An appointment asked for and confirmed on the accepted offer: [days from today, Paris time]. */
      appointment?: [number, string];
    };
  }>;
  documents: Array<{
    name: string;
    type: "xray" | "quote" | "photo" | "other";
    kind: "pdf" | "png";
    /** A devis: its author and its acts, printed as a practice prints one (devis-document.ts). */
    devis?: { dentist: DevisAuthor; lines: DemoLine[] };
  }>;
}

/** The dentist who wrote a devis of the demo patient: her own dentist, not a Sourio account. */
export interface DevisAuthor {
  name: string;
  street: string;
  town: string;
}

const DR_ROUX: DevisAuthor = { name: "Dr Claire Roux", street: "14 rue Victor Hugo", town: "69002 Lyon" };
const DR_FABRE: DevisAuthor = { name: "Dr Antoine Fabre", street: "3 place Bellecour", town: "69002 Lyon" };

/** The crown's devis, as the patient also typed it line by line. */
const CROWN_DEVIS: DemoLine[] = [
  { code: "HBLD734", act: "Couronne céramo-métallique (molaire)", tooth: 16, euros: 750 },
  { code: "HBLD245", act: "Inlay-core", tooth: 16, euros: 220 },
];

/** The demo patient's requests: one or more in each status, with small real documents. */
export const DEMO_REQUESTS: DemoRequest[] = [
  {
    treatment_type: "implant",
    urgency: "high",
    daysAgo: 3,
    description: "Remplacement d'une molaire inférieure extraite il y a six mois.",
    budget: "1 500 €",
    quoteEuros: 2400,
    openedBy: [
      { email: "dr.leroy@demo.sourio.fr", action: "view", daysAgo: 2 },
      { email: "dr.martin@demo.sourio.fr", action: "download", daysAgo: 1 },
    ],
    replies: [
      {
        email: "dr.martin@demo.sourio.fr",
        daysAgo: 1,
        message:
          "Bonjour Madame Dupont, j'ai étudié votre radio panoramique : un implant avec couronne céramique est adapté. Je peux vous proposer l'ensemble pour 1 850 €. Souhaitez-vous en parler ?",
        offer: {
          lines: [
            { code: "LBLD015", act: "Implant en titane", tooth: 36, euros: 1200 },
            { code: "HBLD418", act: "Couronne céramique sur implant", tooth: 36, euros: 650 },
          ],
          comment: "Pose de l'implant puis couronne après trois mois de cicatrisation. Garantie 5 ans.",
          validDays: 30,
          slots: [
            [6, "09:30"],
            [8, "14:00"],
          ],
        },
      },
      {
        email: "dr.leroy@demo.sourio.fr",
        daysAgo: 1,
        message:
          "Bonjour, je vous propose l'implant et sa couronne zircone. Je peux vous recevoir rapidement pour un premier bilan.",
        offer: {
          lines: [
            { code: "LBLD015", act: "Implant en titane", tooth: 36, euros: 1150 },
            { code: "HBLD418", act: "Pilier et couronne zircone sur implant", tooth: 36, euros: 890 },
          ],
          comment: "Bilan et scanner 3D compris.",
          validDays: 21,
          slots: [[4, "11:00"]],
        },
      },
    ],
    documents: [
      {
        name: "devis-implant-dr-roux.pdf",
        type: "quote",
        kind: "pdf",
        devis: {
          dentist: DR_ROUX,
          lines: [
            { code: "LBLD015", act: "Implant dentaire en titane", tooth: 36, euros: 1600 },
            { code: "HBLD418", act: "Couronne céramique sur implant", tooth: 36, euros: 800 },
          ],
        },
      },
      { name: "radio-panoramique.png", type: "xray", kind: "png" },
    ],
  },
  {
    treatment_type: "crown",
    urgency: "medium",
    daysAgo: 2,
    description: "Couronne céramique sur la 16, dent dévitalisée.",
    quoteLines: CROWN_DEVIS,
    replies: [
      {
        email: "dr.martin@demo.sourio.fr",
        daysAgo: 1,
        message:
          "Bonjour, pour la 16 je vous propose la même couronne céramo-métallique que votre devis, à un tarif plus bas.",
        offer: {
          lines: [
            { code: "HBLD734", act: "Couronne céramo-métallique", tooth: 16, euros: 620 },
            { code: "HBLD245", act: "Inlay-core", tooth: 16, euros: 200 },
          ],
          comment: "Même matériau que votre devis. Deux rendez-vous à trois semaines d'écart.",
          validDays: 30,
          slots: [[5, "10:00"]],
        },
      },
      {
        email: "dr.leroy@demo.sourio.fr",
        daysAgo: 1,
        message:
          "Bonjour, je vous propose une couronne zircone : sur une molaire, elle est dans le panier 100 % Santé depuis le 1er janvier 2026, donc sans reste à charge avec un contrat responsable.",
        offer: {
          lines: [
            { code: "HBLD073", act: "Couronne zircone monolithique", tooth: 16, euros: 450 },
            { code: "HBLD090", act: "Inlay-core", tooth: 16, euros: 180 },
          ],
          comment: "Empreinte numérique, pas de pâte.",
          validDays: 21,
          slots: [[7, "15:30"]],
        },
      },
    ],
    documents: [
      {
        name: "devis-couronne.pdf",
        type: "quote",
        kind: "pdf",
        devis: { dentist: DR_FABRE, lines: CROWN_DEVIS },
      },
    ],
  },
  {
    treatment_type: "bridge",
    urgency: "low",
    daysAgo: 6,
    description: "Bridge trois éléments, je souhaite l'avis du Dr Martin.",
    toDentist: "dr.martin@demo.sourio.fr",
    openedBy: [{ email: "dr.martin@demo.sourio.fr", action: "view", daysAgo: 5 }],
    documents: [
      {
        name: "devis-bridge.pdf",
        type: "quote",
        kind: "pdf",
        devis: {
          dentist: DR_FABRE,
          lines: [
            {
              code: "HBLD227",
              act: "Bridge céramo-métallique 3 éléments (45-46-47)",
              tooth: 46,
              euros: 1650,
            },
          ],
        },
      },
      { name: "photo-sourire.png", type: "photo", kind: "png" },
    ],
  },
  {
    treatment_type: "whitening",
    urgency: "low",
    // Within Dr Leroy's trial (verified 27 days ago, issue 35).
    daysAgo: 26,
    description: "Blanchiment en cabinet.",
    budget: "400 €",
    quoteEuros: 600,
    replies: [
      {
        email: "dr.leroy@demo.sourio.fr",
        daysAgo: 25,
        message: "Bonjour, je réalise ce blanchiment en cabinet en une séance, pour 420 €.",
        offer: {
          accepted: true,
          lines: [{ act: "Blanchiment en cabinet (une séance)", tooth: null, euros: 420 }],
          comment: "",
          validDays: -10,
          slots: [],
          appointment: [12, "10:30"],
        },
      },
    ],
    documents: [
      {
        name: "devis-blanchiment.pdf",
        type: "quote",
        kind: "pdf",
        devis: {
          dentist: DR_ROUX,
          lines: [
            { act: "Éclaircissement dentaire en cabinet (hors nomenclature)", tooth: null, euros: 600 },
          ],
        },
      },
    ],
  },
  {
    treatment_type: "veneer",
    cancelled: true,
    urgency: "medium",
    daysAgo: 25,
    description: "Facettes sur les incisives, projet reporté.",
    documents: [{ name: "photo-incisives.png", type: "photo", kind: "png" }],
  },
];
