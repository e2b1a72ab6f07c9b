import { normalizeForSearch } from "../format/search";
import type { Basket } from "./out-of-pocket";

/**
 * The reference table of common prosthetic acts (issues 15 and 33). For each CCAM code: its French
 * label, the teeth it applies to, and — through the dated tariff periods below — its basket, its
 * reimbursement base (BR) and its ceiling ("honoraire limite de facturation", HLF) on a given day, each
 * with its sources. A basket and a ceiling are properties of (act, tooth group, day). Amounts in cents.
 *
 * The facts, act by act, with their sources and how sure each is: shared/reference/ccam-prosthesis-2026.md
 * (checked November 2026). Values that could not be checked against the official annexes are marked
 * `uncertain` (what is missing), and the screens say every figure is an estimate.
 *
 * A new tariff (a yearly revaluation, a basket change) is ONE new entry at the end of TARIFF_PERIODS:
 * it lists only what changes on that day, with its sources; everything else carries over.
 */

/**
 * Where on the arch an act applies: FDI position 1–2 incisors, 3 canine, 4–5 premolars, 6–8 molars. A
 * bridge's line carries the tooth it replaces (HBLD785 replaces an incisor, HBLD227 any other tooth).
 */
export const TOOTH_GROUPS = {
  any: [1, 2, 3, 4, 5, 6, 7, 8],
  anterior: [1, 2, 3, 4],
  incisor: [1, 2],
  notIncisor: [3, 4, 5, 6, 7, 8],
  secondPremolar: [5],
  secondPremolarAndMolar: [5, 6, 7, 8],
  molar: [6, 7, 8],
  notMolar: [1, 2, 3, 4, 5],
} as const;
export type ToothGroup = keyof typeof TOOTH_GROUPS;

export const ACT_CATEGORIES = {
  crown: "Couronne",
  temporary: "Couronne transitoire",
  inlayCore: "Inlay-core",
  bridge: "Bridge",
  denture: "Prothèse amovible",
  implant: "Implant",
} as const;
export type ActCategory = keyof typeof ACT_CATEGORIES;

/** The published texts the table is built from (shared/reference/ccam-prosthesis-2026.md). */
export const SOURCES: Record<
  "C18_IV" | "C18_V" | "ID21" | "C2S" | "C23" | "FSDL" | "ID26" | "SCDP" | "EDP" | "PRAT",
  Source
> = {
  C18_IV: {
    title:
      "Convention nationale des chirurgiens-dentistes 2018, annexe IV (honoraires limites de facturation)",
    url: "https://vdocuments.pub/annexe-iv-honoraires-limites-de-facturation-des-rparation-dune-fracture-de.html",
  },
  C18_V: {
    title: "Convention nationale des chirurgiens-dentistes 2018, annexe V (paniers de soins)",
    url: "https://legal.tricoteuses.fr/articles/JORFARTI000037335581",
  },
  ID21: {
    title: "Information dentaire : plafonds au 1er janvier 2021",
    url: "https://information-dentaire.fr/actualites/revalorisations-et-plafonnements-ce-qui-a-change-au-1er-janvier",
  },
  C2S: {
    title: "Arrêté du 23 février 2024 (C2S), annexe : libellés officiels et bases de remboursement",
    url: "https://juriblio.fr/arretes/arrete-du-23-fevrier-2024/183408698/annexe",
  },
  C23: {
    title:
      "Convention nationale des chirurgiens-dentistes 2023 (signée le 21 juillet 2023, arrêté du 23 août 2023, JO du 25 août 2023)",
    url: null,
  },
  FSDL: {
    title:
      "FSDL (syndicat signataire) : +3 % des plafonds prothétiques en janvier 2026, zircone sur molaire en 100 % Santé",
    url: "https://www.fsdl.fr/?p=48369",
  },
  ID26: {
    title: "Information dentaire : plafonds +3 % au 1er janvier 2026, zircone postérieure en 100 % Santé",
    url: "https://information-dentaire.fr/actualites/la-nouvelle-convention-dentaire-s-applique-depuis-le-25-aout",
  },
  SCDP: {
    title: "SCDP : évolutions tarifaires de la convention 2023 (HBLD073 en 100 % Santé au 1er janvier 2026)",
    url: "https://scdp.fr/accueil/evolutions-tarifaires-de-la-convention-2023",
  },
  EDP: {
    title: "EDP dentaire : couronne transitoire, BR 10 €, plafond 60 €",
    url: "http://www.edp-dentaire.fr/actualites/3158-dentistes-de-nouveaux-actes-mais-des-revalorisations-faibles",
  },
  PRAT: {
    title: "Tableau d'honoraires publié par un cabinet (BR couronne 120 €, inlay-core, prothèse résine)",
    url: "https://cabinetdentairenguetta.fr/honoraires",
  },
};
export type SourceId = keyof typeof SOURCES;
export interface Source {
  title: string;
  url: string | null;
}

export interface ReferenceAct {
  code: string;
  label: string;
  category: ActCategory;
  /** Teeth the act applies to; `arch`: the act covers an arch, no tooth number. */
  teeth: ToothGroup | "arch";
  /** Extra words a patient may type ("zircone", "porcelaine"). */
  keywords: string;
}

/** What the table says of an act on a day. */
export interface ActTerms {
  basket: Basket;
  brCents: number;
  /** The HLF of a 100 % Santé or maîtrisé act; null for the free basket. */
  ceilingCents: number | null;
  sources: readonly SourceId[];
  /** What could not be verified (kept until checked against the official annex). */
  uncertain?: string;
}

/** A change of an act's terms on a day; `byTeeth` gives another basket/ceiling to a tooth group. */
export type TermsChange = Partial<ActTerms> & {
  byTeeth?: readonly (Partial<ActTerms> & { teeth: ToothGroup })[];
};

export interface TariffPeriod {
  /** First Paris calendar day of the period ('YYYY-MM-DD'); it lasts until the next period. */
  from: string;
  /** Short French description, shown by "Comment est-ce calculé ?". */
  label: string;
  sources: readonly SourceId[];
  /** The acts whose terms change that day (the first period gives every act in full). */
  changes: Readonly<Record<string, TermsChange>>;
}

export const ACTS: readonly ReferenceAct[] = [
  {
    code: "HBLD038",
    label: "Couronne métallique en alliage non précieux",
    category: "crown",
    teeth: "any",
    keywords: "metal metallique",
  },
  {
    code: "HBLD318",
    label: "Couronne métallique en alliage précieux",
    category: "crown",
    teeth: "any",
    keywords: "metal metallique or precieux",
  },
  {
    code: "HBLD634",
    label: "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
    category: "crown",
    teeth: "anterior",
    keywords: "ceramique ceramometallique porcelaine ccm",
  },
  {
    code: "HBLD491",
    label: "Couronne céramo-métallique (2e prémolaire)",
    category: "crown",
    teeth: "secondPremolar",
    keywords: "ceramique ceramometallique porcelaine premolaire ccm",
  },
  {
    code: "HBLD734",
    label: "Couronne céramo-métallique (molaire)",
    category: "crown",
    teeth: "molar",
    keywords: "ceramique ceramometallique porcelaine ccm",
  },
  {
    code: "HBLD680",
    label: "Couronne céramique monolithique hors zircone (incisive, canine, 1re prémolaire)",
    category: "crown",
    teeth: "anterior",
    keywords: "ceramique monolithique disilicate emax",
  },
  {
    code: "HBLD158",
    label: "Couronne céramique monolithique hors zircone (2e prémolaire et molaires)",
    category: "crown",
    teeth: "secondPremolarAndMolar",
    keywords: "ceramique monolithique disilicate emax premolaire molaire",
  },
  {
    code: "HBLD350",
    label: "Couronne céramique monolithique zircone (hors molaire)",
    category: "crown",
    teeth: "notMolar",
    keywords: "ceramique zircone zirconium zirconia",
  },
  {
    code: "HBLD073",
    label: "Couronne céramique monolithique zircone (molaire)",
    category: "crown",
    teeth: "molar",
    keywords: "ceramique zircone zirconium zirconia",
  },
  {
    code: "HBLD403",
    label: "Couronne céramo-céramique",
    category: "crown",
    teeth: "any",
    keywords: "ceramique ceramoceramique porcelaine esthetique ccc",
  },
  {
    code: "HBLD490",
    label: "Couronne transitoire (pour une couronne 100 % Santé)",
    category: "temporary",
    teeth: "any",
    keywords: "provisoire temporaire",
  },
  {
    code: "HBLD724",
    label: "Couronne transitoire (pour une couronne à tarif maîtrisé)",
    category: "temporary",
    teeth: "any",
    keywords: "provisoire temporaire",
  },
  {
    code: "HBLD486",
    label: "Couronne transitoire (pour une couronne à tarif libre)",
    category: "temporary",
    teeth: "any",
    keywords: "provisoire temporaire",
  },
  {
    code: "HBLD090",
    label: "Inlay-core sous couronne ou pilier 100 % Santé",
    category: "inlayCore",
    teeth: "any",
    keywords: "inlay core ic faux moignon tenon reconstitution",
  },
  {
    code: "HBLD745",
    label: "Inlay-core sous couronne ou pilier à tarif maîtrisé",
    category: "inlayCore",
    teeth: "any",
    keywords: "inlay core ic faux moignon tenon reconstitution",
  },
  {
    code: "HBLD245",
    label: "Inlay-core sous couronne ou pilier à tarif libre",
    category: "inlayCore",
    teeth: "any",
    keywords: "inlay core ic faux moignon tenon reconstitution",
  },
  {
    code: "HBLD033",
    label: "Bridge métallique de 3 éléments",
    category: "bridge",
    teeth: "any",
    keywords: "bridge pont metal",
  },
  {
    code: "HBLD785",
    label: "Bridge céramo-métallique de 3 éléments (remplacement d'une incisive)",
    category: "bridge",
    teeth: "incisor",
    keywords: "bridge pont ceramique ceramometallique ccm incisive",
  },
  {
    code: "HBLD227",
    label: "Bridge céramo-métallique de 3 éléments (remplacement d'une autre dent)",
    category: "bridge",
    teeth: "notIncisor",
    keywords: "bridge pont ceramique ceramometallique ccm",
  },
  {
    code: "HBLD031",
    label: "Prothèse complète résine, une arcade",
    category: "denture",
    teeth: "arch",
    keywords: "dentier appareil amovible resine complete 14 dents",
  },
  {
    code: "HBLD035",
    label: "Prothèses complètes résine, deux arcades",
    category: "denture",
    teeth: "arch",
    keywords: "dentier appareil amovible resine complete bimaxillaire",
  },
  {
    code: "HBLD418",
    label: "Couronne sur implant",
    category: "implant",
    teeth: "any",
    keywords: "implantoportee implant ceramique",
  },
  {
    code: "LBLD015",
    label: "Implant dentaire (non remboursé)",
    category: "implant",
    teeth: "any",
    keywords: "implant vis titane racine",
  },
];

/** The +3 % of 1 January 2026, to the cent, as the union and the press report it (see the reference). */
const RAISED_2026 =
  "Plafond 2026 calculé (+3 % du plafond précédent, au centime) : à vérifier sur l'annexe 2026.";

/**
 * The tariff periods, oldest first. The first one gives every act in full; each later one lists only
 * what changes on its first day. Add a year: append one period.
 */
export const TARIFF_PERIODS: readonly TariffPeriod[] = [
  {
    from: "2021-01-01",
    label: "Convention 2018, plafonds en vigueur depuis le 1er janvier 2021",
    sources: ["C18_IV", "C18_V", "ID21"],
    changes: {
      HBLD038: {
        basket: "100_sante",
        brCents: 120_00,
        ceilingCents: 290_00,
        sources: ["C18_IV", "C18_V", "C2S"],
      },
      HBLD318: {
        basket: "libre",
        brCents: 120_00,
        ceilingCents: null,
        sources: ["C18_V", "C2S"],
        uncertain: "BR non vérifiée (120 € comme les autres couronnes).",
      },
      HBLD634: {
        basket: "100_sante",
        brCents: 120_00,
        ceilingCents: 500_00,
        sources: ["C18_IV", "C18_V", "C2S"],
      },
      HBLD491: {
        basket: "maitrise",
        brCents: 120_00,
        ceilingCents: 550_00,
        sources: ["C18_IV", "C18_V", "C2S"],
      },
      HBLD734: { basket: "libre", brCents: 120_00, ceilingCents: null, sources: ["C18_V", "C2S", "PRAT"] },
      HBLD680: {
        basket: "100_sante",
        brCents: 120_00,
        ceilingCents: 500_00,
        sources: ["C18_IV", "C18_V", "C2S"],
      },
      HBLD158: {
        basket: "maitrise",
        brCents: 120_00,
        ceilingCents: 550_00,
        sources: ["C18_IV", "C18_V", "C2S"],
      },
      HBLD350: {
        basket: "100_sante",
        brCents: 120_00,
        ceilingCents: 440_00,
        sources: ["C18_IV", "C18_V", "C2S"],
      },
      HBLD073: { basket: "maitrise", brCents: 120_00, ceilingCents: 440_00, sources: ["C18_IV", "C18_V"] },
      HBLD403: {
        basket: "libre",
        brCents: 120_00,
        ceilingCents: null,
        sources: ["C18_V", "PRAT"],
        uncertain: "BR 120 € d'après un tableau d'honoraires publié : à vérifier sur la CCAM.",
      },
      HBLD490: {
        basket: "100_sante",
        brCents: 10_00,
        ceilingCents: 60_00,
        sources: ["C18_IV", "C18_V", "EDP"],
      },
      HBLD724: {
        basket: "maitrise",
        brCents: 10_00,
        ceilingCents: 60_00,
        sources: ["C18_IV", "C18_V", "EDP"],
      },
      HBLD486: { basket: "libre", brCents: 10_00, ceilingCents: null, sources: ["C18_V", "EDP"] },
      HBLD090: {
        basket: "100_sante",
        brCents: 90_00,
        ceilingCents: 175_00,
        sources: ["C18_IV", "C18_V", "PRAT"],
      },
      HBLD745: {
        basket: "maitrise",
        brCents: 90_00,
        ceilingCents: 230_00,
        sources: ["C18_V"],
        uncertain: "BR et plafond (230 €) non trouvés dans l'annexe : à vérifier.",
      },
      HBLD245: {
        basket: "libre",
        brCents: 90_00,
        ceilingCents: null,
        sources: ["C18_V"],
        uncertain: "BR non vérifiée (un devis réel indique 70 €).",
      },
      HBLD033: { basket: "100_sante", brCents: 279_50, ceilingCents: 870_00, sources: ["C18_IV", "C18_V"] },
      HBLD785: {
        basket: "100_sante",
        brCents: 279_50,
        ceilingCents: 1_465_00,
        sources: ["C18_IV", "C18_V"],
        uncertain: "BR 279,50 € non revérifiée.",
      },
      HBLD227: {
        basket: "maitrise",
        brCents: 279_50,
        ceilingCents: 1_635_00,
        sources: ["C18_IV", "C18_V", "ID21"],
        uncertain: "BR 279,50 € non revérifiée.",
      },
      HBLD031: {
        basket: "100_sante",
        brCents: 182_75,
        ceilingCents: 1_100_00,
        sources: ["C18_V", "ID21", "PRAT"],
      },
      HBLD035: {
        basket: "100_sante",
        brCents: 365_50,
        ceilingCents: 2_300_00,
        sources: ["C18_V", "ID21"],
        uncertain: "BR 365,50 € (deux fois une arcade) non trouvée dans l'annexe.",
      },
      HBLD418: {
        basket: "libre",
        brCents: 107_50,
        ceilingCents: null,
        sources: ["C18_V"],
        uncertain: "BR : les sources divergent (107,50 € ou 120 €).",
      },
      LBLD015: {
        basket: "libre",
        brCents: 0,
        ceilingCents: null,
        sources: ["C18_V"],
        uncertain: "Acte hors nomenclature, non remboursé sauf rares exceptions.",
      },
    },
  },
  {
    from: "2026-01-01",
    label: "Convention 2023 : plafonds +3 % et zircone sur molaire en 100 % Santé au 1er janvier 2026",
    sources: ["C23", "FSDL", "ID26", "SCDP"],
    changes: {
      HBLD038: {
        ceilingCents: 298_70,
        sources: ["C23", "FSDL", "ID26"],
        uncertain:
          "La presse annonce la sortie des couronnes métalliques postérieures du 100 % Santé en 2026 ; l'annexe 2026 n'a pas pu être lue : panier conservé, à vérifier.",
      },
      HBLD634: { ceilingCents: 515_00, sources: ["C23", "FSDL", "ID26"] },
      HBLD680: { ceilingCents: 515_00, sources: ["C23", "FSDL", "ID26"] },
      HBLD491: { ceilingCents: 566_50, sources: ["C23", "FSDL", "ID26"] },
      HBLD158: { ceilingCents: 566_50, sources: ["C23", "FSDL", "ID26"] },
      HBLD350: { ceilingCents: 453_20, sources: ["C23", "FSDL", "ID26"] },
      HBLD073: {
        basket: "100_sante",
        ceilingCents: 453_20,
        sources: ["C23", "FSDL", "ID26", "SCDP"],
        uncertain: RAISED_2026,
      },
      HBLD490: { ceilingCents: 61_80, sources: ["C23", "FSDL"], uncertain: RAISED_2026 },
      HBLD724: { ceilingCents: 61_80, sources: ["C23", "FSDL"], uncertain: RAISED_2026 },
      HBLD090: { ceilingCents: 180_25, sources: ["C23", "FSDL", "ID26"] },
      HBLD745: {
        ceilingCents: 236_90,
        sources: ["C23", "FSDL"],
        uncertain: "Plafond calculé (+3 %) sur un plafond antérieur non vérifié : à vérifier.",
      },
      HBLD033: { ceilingCents: 896_10, sources: ["C23", "FSDL", "ID26"] },
      HBLD785: { ceilingCents: 1_508_95, sources: ["C23", "FSDL", "ID26"] },
      HBLD227: { ceilingCents: 1_684_05, sources: ["C23", "FSDL", "ID26"] },
      HBLD031: { ceilingCents: 1_133_00, sources: ["C23", "FSDL", "ID26"] },
      HBLD035: { ceilingCents: 2_369_00, sources: ["C23", "FSDL", "ID26"] },
    },
  },
];

export const BASKET_LABELS: Record<Basket, string> = {
  "100_sante": "100 % Santé",
  maitrise: "Tarifs maîtrisés",
  libre: "Tarifs libres",
};

const BY_CODE = new Map(ACTS.map((act) => [act.code, act]));

/** The act of a CCAM code (upper-cased), or undefined when it is not in the table. */
export function actByCode(code: string): ReferenceAct | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

const BY_LABEL = new Map(ACTS.map((act) => [normalizeForSearch(act.label), act]));

/**
 * The act whose label is this text, case, accents and spaces aside ("couronne ceramo-metallique
 * (molaire)"): typed in full, a listed act is that act, not a line « hors liste ».
 */
export function actByLabel(text: string): ReferenceAct | undefined {
  return BY_LABEL.get(normalizeForSearch(text));
}

/** The tariff period in force on a Paris calendar day ('YYYY-MM-DD'); the first one before it began. */
export function tariffOn(day: string, periods: readonly TariffPeriod[] = TARIFF_PERIODS): TariffPeriod {
  let found = periods[0] as TariffPeriod;
  for (const period of periods) if (period.from <= day) found = period;
  return found;
}

/** An act's entry with every change up to `day` applied (tooth groups not resolved). */
function entryOn(code: string, day: string, periods: readonly TariffPeriod[]): TermsChange | undefined {
  let entry: TermsChange | undefined;
  for (const period of periods) {
    if (period !== periods[0] && period.from > day) break;
    const change = period.changes[code];
    if (change) entry = { ...entry, ...change };
  }
  return entry;
}

function fitsGroup(group: ToothGroup, tooth: number | null): boolean {
  return tooth !== null && (TOOTH_GROUPS[group] as readonly number[]).includes(tooth % 10);
}

/**
 * What the table says of an act on `day` for `tooth` (basket, BR, ceiling and their sources), or
 * undefined for a code outside the table. A tooth group's own terms apply to a tooth of that group.
 */
export function termsOn(
  code: string,
  day: string,
  tooth: number | null = null,
  periods: readonly TariffPeriod[] = TARIFF_PERIODS,
): ActTerms | undefined {
  const act = actByCode(code);
  if (!act) return undefined;
  const entry = entryOn(act.code, day, periods);
  if (!entry) return undefined;
  const { byTeeth, ...base } = entry;
  const group = byTeeth?.find((g) => fitsGroup(g.teeth, tooth));
  const { teeth: _teeth, ...own } = group ?? { teeth: "any" as const };
  const terms = { ...base, ...own };
  if (terms.basket === undefined || terms.brCents === undefined || terms.ceilingCents === undefined)
    return undefined;
  return {
    basket: terms.basket,
    brCents: terms.brCents,
    ceilingCents: terms.basket === "libre" ? null : terms.ceilingCents,
    sources: terms.sources ?? [],
    ...(terms.uncertain ? { uncertain: terms.uncertain } : {}),
  };
}

/** The ceiling of an act on a day; null for an act of the free basket (or outside the table). */
export function ceilingOn(
  code: string,
  day: string,
  tooth: number | null = null,
  periods: readonly TariffPeriod[] = TARIFF_PERIODS,
): number | null {
  return termsOn(code, day, tooth, periods)?.ceilingCents ?? null;
}

/** Whether the act applies to this FDI tooth (arch acts take no tooth). */
export function actFitsTooth(act: ReferenceAct, tooth: number | null): boolean {
  if (act.teeth === "arch") return tooth === null;
  if (tooth === null) return true;
  return (TOOTH_GROUPS[act.teeth] as readonly number[]).includes(tooth % 10);
}

const TOOTH_WORDS: Record<ToothGroup, string> = {
  any: "",
  anterior: "incisive canine premolaire anterieure devant",
  incisor: "incisive devant",
  notIncisor: "canine premolaire molaire",
  secondPremolar: "premolaire",
  secondPremolarAndMolar: "premolaire molaire arriere",
  molar: "molaire arriere",
  notMolar: "incisive canine premolaire",
};

const HAYSTACKS = new Map(
  ACTS.map((act) => [
    act.code,
    normalizeForSearch(
      `${act.code} ${act.label} ${act.keywords} ${ACT_CATEGORIES[act.category]} ${
        act.teeth === "arch" ? "arcade" : TOOTH_WORDS[act.teeth]
      }`,
    )
      .replace(/[^a-z0-9 ]/g, " ")
      .split(" ")
      .filter(Boolean),
  ]),
);

/**
 * The acts matching plain words or a code ("couronne céramique molaire", "hbld634"): every word of the
 * query starts a word of the act; with a tooth, only the acts that apply to it. Table order otherwise.
 */
export function searchActs(query: string, tooth: number | null = null): ReferenceAct[] {
  const words = normalizeForSearch(query)
    .replace(/[^a-z0-9 ]/g, " ")
    .split(" ")
    .filter(Boolean);
  return ACTS.filter((act) => {
    if (tooth !== null && act.teeth !== "arch" && !actFitsTooth(act, tooth)) return false;
    const haystack = HAYSTACKS.get(act.code) ?? [];
    return words.every((word) => haystack.some((w) => w.startsWith(word)));
  });
}

/**
 * The 100 % Santé act of the same kind for this tooth on `day`, when the line's act has a reste à
 * charge and one exists (the devis normalisé must offer it): a crown on 21 → HBLD634; on a molar in
 * 2025 → HBLD038 (metal), from 2026 → HBLD073 (zirconia).
 */
export function santeAlternative(
  code: string | null,
  tooth: number | null,
  day: string,
): ReferenceAct | undefined {
  const act = code ? actByCode(code) : undefined;
  if (!act || termsOn(act.code, day, tooth)?.basket === "100_sante") return undefined;
  const candidates = ACTS.filter(
    (other) =>
      other.category === act.category &&
      termsOn(other.code, day, tooth)?.basket === "100_sante" &&
      actFitsTooth(other, tooth),
  );
  // The ceramic one on the teeth where it exists, else the metal one.
  return candidates.find((other) => other.code !== "HBLD038" && other.code !== "HBLD033") ?? candidates[0];
}

/**
 * What is wrong with a tariff table, in plain words (empty: nothing): periods out of order or
 * overlapping (two starting the same day), an act of a period without a source, a 100 % Santé or
 * maîtrisé act without a ceiling in a period, a code outside ACTS, an act of ACTS without terms,
 * tooth groups of one act overlapping. The table's test asserts it is empty for TARIFF_PERIODS.
 */
export function tariffTableProblems(periods: readonly TariffPeriod[] = TARIFF_PERIODS): string[] {
  const problems: string[] = [];
  periods.forEach((period, i) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(period.from)) problems.push(`${period.from} : date invalide`);
    const previous = periods[i - 1];
    if (previous && previous.from >= period.from)
      problems.push(
        `${period.from} : périodes qui se chevauchent ou dans le désordre (après ${previous.from})`,
      );
    if (period.sources.length === 0) problems.push(`${period.from} : période sans source`);
    for (const [code, change] of Object.entries(period.changes)) {
      if (!actByCode(code)) problems.push(`${period.from} ${code} : code absent de la table des actes`);
      if (!change.sources?.length) problems.push(`${period.from} ${code} : ligne sans source`);
      const groups = change.byTeeth ?? [];
      for (const group of groups)
        if (!group.sources?.length)
          problems.push(`${period.from} ${code} (${group.teeth}) : ligne sans source`);
      groups.forEach((group, g) => {
        for (const other of groups.slice(g + 1))
          if (
            TOOTH_GROUPS[group.teeth].some((n) =>
              (TOOTH_GROUPS[other.teeth] as readonly number[]).includes(n),
            )
          )
            problems.push(`${period.from} ${code} : groupes de dents qui se chevauchent`);
      });
    }
    const teeth = [null, ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => 10 + n)];
    for (const act of ACTS)
      for (const tooth of act.teeth === "arch" ? [null] : teeth) {
        const terms = termsOn(act.code, period.from, tooth, periods.slice(0, i + 1));
        if (!terms) problems.push(`${period.from} ${act.code} : acte sans tarif`);
        else if (terms.basket !== "libre" && terms.ceilingCents === null)
          problems.push(`${period.from} ${act.code} : acte plafonné sans plafond`);
      }
  });
  return [...new Set(problems)];
}
