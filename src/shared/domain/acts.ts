import { normalizeForSearch } from "../format/search";
import type { Basket } from "./out-of-pocket";

/**
 * The reference table of common prosthetic acts (issue 15): for each CCAM code, its French label, its
 * basket, its reimbursement base (BR), the teeth it applies to and, through the tariff periods below,
 * its ceiling ("honoraire limite de facturation", HLF) where the basket has one. Amounts in cents.
 *
 * Sources (read November 2026):
 * - Avenant 3 to the dentists' national agreement (arrêté du 20 août 2019, JO 23 août 2019), annexe 1
 *   (CCAM codes, BR, 100 % Santé and "tarifs maîtrisés" ceilings in force from 1 January 2020/2021).
 * - Convention nationale des chirurgiens-dentistes 2023 (arrêté du 20 août 2023): revaluation of the
 *   ceilings on 1 January 2025.
 * - ameli.fr, "100 % Santé dentaire" and "Devis dentaire" pages; CCAM online (ameli.fr/ccam).
 * - Practices' published fee tables (e.g. crown BR 120 €, inlay-core BR 90 € / 175 €, complete resin
 *   denture BR 182,75 € / 1 100 €), which match the annexe.
 *
 * Values marked `uncertain` could not be checked against the annexe itself and must be checked before
 * being relied on outside estimates; the screens say every figure is an estimate.
 */

/** Where on the arch an act applies: FDI position 1–2 incisors, 3 canine, 4–5 premolars, 6–8 molars. */
export const TOOTH_GROUPS = {
  any: [1, 2, 3, 4, 5, 6, 7, 8],
  anterior: [1, 2, 3, 4],
  secondPremolar: [5],
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

export interface ReferenceAct {
  code: string;
  label: string;
  category: ActCategory;
  basket: Basket;
  brCents: number;
  /** Teeth the act applies to; `arch`: the act covers an arch, no tooth number. */
  teeth: ToothGroup | "arch";
  /** Extra words a patient may type ("zircone", "porcelaine"). */
  keywords: string;
  uncertain?: string;
}

export const ACTS: readonly ReferenceAct[] = [
  {
    code: "HBLD038",
    label: "Couronne métallique",
    category: "crown",
    basket: "100_sante",
    brCents: 120_00,
    teeth: "any",
    keywords: "metal",
  },
  {
    code: "HBLD634",
    label: "Couronne céramo-métallique (incisive, canine, 1re prémolaire)",
    category: "crown",
    basket: "100_sante",
    brCents: 120_00,
    teeth: "anterior",
    keywords: "ceramique ceramometallique porcelaine",
  },
  {
    code: "HBLD491",
    label: "Couronne céramo-métallique (2e prémolaire)",
    category: "crown",
    basket: "maitrise",
    brCents: 120_00,
    teeth: "secondPremolar",
    keywords: "ceramique ceramometallique porcelaine premolaire",
  },
  {
    code: "HBLD734",
    label: "Couronne céramo-métallique (molaire)",
    category: "crown",
    basket: "libre",
    brCents: 107_50,
    teeth: "molar",
    keywords: "ceramique ceramometallique porcelaine",
    uncertain: "BR 107,50 € (crowns of the free basket kept the former base): to check.",
  },
  {
    code: "HBLD680",
    label: "Couronne céramique monolithique hors zircone (incisive, canine, 1re prémolaire)",
    category: "crown",
    basket: "100_sante",
    brCents: 120_00,
    teeth: "anterior",
    keywords: "ceramique monolithique disilicate emax",
  },
  {
    code: "HBLD158",
    label: "Couronne céramique monolithique hors zircone (2e prémolaire)",
    category: "crown",
    basket: "maitrise",
    brCents: 120_00,
    teeth: "secondPremolar",
    keywords: "ceramique monolithique disilicate emax premolaire",
  },
  {
    code: "HBLD350",
    label: "Couronne céramique monolithique zircone (hors molaire)",
    category: "crown",
    basket: "100_sante",
    brCents: 120_00,
    teeth: "notMolar",
    keywords: "ceramique zircone",
  },
  {
    code: "HBLD073",
    label: "Couronne céramique monolithique zircone (molaire)",
    category: "crown",
    basket: "maitrise",
    brCents: 120_00,
    teeth: "molar",
    keywords: "ceramique zircone",
    uncertain: "Basket 'maîtrisé' and ceiling 440 € on molars: to check.",
  },
  {
    code: "HBLD403",
    label: "Couronne céramo-céramique",
    category: "crown",
    basket: "libre",
    brCents: 107_50,
    teeth: "any",
    keywords: "ceramique ceramoceramique porcelaine esthetique",
    uncertain: "BR 107,50 €: to check.",
  },
  {
    code: "HBLD724",
    label: "Couronne transitoire",
    category: "temporary",
    basket: "100_sante",
    brCents: 10_00,
    teeth: "any",
    keywords: "provisoire temporaire",
    uncertain: "BR 10 € and ceiling 60 €: to check.",
  },
  {
    code: "HBLD090",
    label: "Inlay-core (faux moignon)",
    category: "inlayCore",
    basket: "100_sante",
    brCents: 90_00,
    teeth: "any",
    keywords: "inlay core faux moignon tenon reconstitution",
  },
  {
    code: "HBLD745",
    label: "Inlay-core à clavette",
    category: "inlayCore",
    basket: "100_sante",
    brCents: 90_00,
    teeth: "any",
    keywords: "inlay core faux moignon clavette",
    uncertain: "BR and ceiling (230 €) of the inlay-core à clavette: to check.",
  },
  {
    code: "HBLD245",
    label: "Inlay-core sous couronne transitoire",
    category: "inlayCore",
    basket: "libre",
    brCents: 90_00,
    teeth: "any",
    keywords: "inlay core faux moignon provisoire",
    uncertain: "Label, basket and BR of HBLD245: to check.",
  },
  {
    code: "HBLD033",
    label: "Bridge métallique de 3 éléments",
    category: "bridge",
    basket: "100_sante",
    brCents: 279_50,
    teeth: "any",
    keywords: "bridge pont metal",
  },
  {
    code: "HBLD785",
    label: "Bridge céramo-métallique de 3 éléments (incisives, canines)",
    category: "bridge",
    basket: "100_sante",
    brCents: 279_50,
    teeth: "anterior",
    keywords: "bridge pont ceramique ceramometallique",
  },
  {
    code: "HBLD227",
    label: "Bridge céramo-métallique de 3 éléments (prémolaires, molaires)",
    category: "bridge",
    basket: "maitrise",
    brCents: 279_50,
    teeth: "any",
    keywords: "bridge pont ceramique ceramometallique",
    uncertain: "Teeth of HBLD227 (premolars and molars): to check.",
  },
  {
    code: "HBLD031",
    label: "Prothèse complète résine, une arcade",
    category: "denture",
    basket: "100_sante",
    brCents: 182_75,
    teeth: "arch",
    keywords: "dentier appareil amovible resine complete 14 dents",
  },
  {
    code: "HBLD035",
    label: "Prothèses complètes résine, deux arcades",
    category: "denture",
    basket: "100_sante",
    brCents: 365_50,
    teeth: "arch",
    keywords: "dentier appareil amovible resine complete bimaxillaire",
    uncertain: "Ceiling 2 200 € (twice one arch): to check.",
  },
  {
    code: "HBLD418",
    label: "Couronne sur implant",
    category: "implant",
    basket: "libre",
    brCents: 107_50,
    teeth: "any",
    keywords: "implantoportee implant ceramique",
  },
  {
    code: "LBLD015",
    label: "Implant dentaire (non remboursé)",
    category: "implant",
    basket: "libre",
    brCents: 0,
    teeth: "any",
    keywords: "implant vis titane racine",
  },
];

/**
 * The ceilings, by the date they apply from. A new year's tariff is one more entry here (and the test
 * of this table checks that it gives a ceiling to every act of a capped basket).
 */
export const TARIFF_PERIODS: readonly {
  validFrom: string;
  source: string;
  uncertain?: string;
  ceilings: Readonly<Record<string, number>>;
}[] = [
  {
    validFrom: "2020-01-01",
    source: "Avenant 3 (arrêté du 20 août 2019), annexe 1",
    ceilings: {
      HBLD038: 290_00,
      HBLD634: 500_00,
      HBLD680: 500_00,
      HBLD350: 440_00,
      HBLD491: 550_00,
      HBLD158: 550_00,
      HBLD073: 440_00,
      HBLD724: 60_00,
      HBLD090: 175_00,
      HBLD745: 230_00,
      HBLD033: 870_00,
      HBLD785: 1_465_00,
      HBLD227: 1_635_00,
      HBLD031: 1_100_00,
      HBLD035: 2_200_00,
    },
  },
  {
    validFrom: "2025-01-01",
    source: "Convention nationale 2023 (arrêté du 20 août 2023), revalorisation au 1er janvier 2025",
    uncertain: "The 2025 ceilings are the 2020 ones raised by about 3 %, rounded to the euro: to check.",
    ceilings: {
      HBLD038: 299_00,
      HBLD634: 515_00,
      HBLD680: 515_00,
      HBLD350: 453_00,
      HBLD491: 567_00,
      HBLD158: 567_00,
      HBLD073: 453_00,
      HBLD724: 62_00,
      HBLD090: 180_00,
      HBLD745: 237_00,
      HBLD033: 896_00,
      HBLD785: 1_509_00,
      HBLD227: 1_684_00,
      HBLD031: 1_133_00,
      HBLD035: 2_266_00,
    },
  },
];

export const BASKET_LABELS: Record<Basket, string> = {
  "100_sante": "100 % Santé",
  maitrise: "Tarifs maîtrisés",
  libre: "Tarifs libres",
};

const BY_CODE = new Map(ACTS.map((act) => [act.code, act]));

/** The act of a CCAM code (upper-cased), or undefined when it is not in the table. */
export function actByCode(code: string): ReferenceAct | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

/** The tariff period in force on a Paris calendar day ('YYYY-MM-DD'). */
export function tariffOn(day: string, periods = TARIFF_PERIODS) {
  let found = periods[0] as (typeof TARIFF_PERIODS)[number];
  for (const period of periods) if (period.validFrom <= day) found = period;
  return found;
}

/** The ceiling of an act on a day; null for an act of the free basket. */
export function ceilingOn(code: string, day: string, periods = TARIFF_PERIODS): number | null {
  return tariffOn(day, periods).ceilings[code.trim().toUpperCase()] ?? null;
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
  secondPremolar: "premolaire",
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
 * The 100 % Santé act of the same kind for this tooth, when the line's act has a reste à charge and one
 * exists (the devis normalisé must offer it): a crown on 21 → HBLD634; on a molar → HBLD038.
 */
export function santeAlternative(code: string | null, tooth: number | null): ReferenceAct | undefined {
  const act = code ? actByCode(code) : undefined;
  if (!act || act.basket === "100_sante") return undefined;
  const candidates = ACTS.filter(
    (other) => other.category === act.category && other.basket === "100_sante" && actFitsTooth(other, tooth),
  );
  // The ceramic one on the teeth where it exists, else the metal one.
  return candidates.find((other) => other.code !== "HBLD038" && other.code !== "HBLD033") ?? candidates[0];
}
