import { makeFamilyDevis } from "./devis-corpus/families";
import type { CorpusDevis, FamilyName } from "./devis-corpus/model";
import { pageCount } from "./devis-corpus/pdf";

/**
 * A corpus of generated devis for the reading tests and the bench (issues 17 and 34). Each devis imitates
 * the French "devis normalisé" for prosthetic care as practice software prints it: a header block
 * (practice, practitioner, RPPS/ADELI, patient, date, address, phone…), the table of acts, the totals,
 * then noise (signatures, validity sentence). Eight layout families (devis-corpus/families.ts) imitate
 * eight kinds of practice software; the reader is tuned on TUNED_FAMILIES and measured on
 * HELD_OUT_FAMILIES (ADR 042). `makeDevis(seed, family)` draws everything from a seeded PRNG; the ground
 * truth is in the returned object, the layout choices too, so `devisPdf`, `devisPhoto` and `devisScan`
 * draw the same bytes for the same seed.
 *
 * Test support only (vitest, the bench through tsx, Playwright specs): no test-runner imports here.
 */

export { classicDevis } from "./devis-corpus/content";
export { HELD_OUT_FAMILIES, makeFamilyDevis, TUNED_FAMILIES } from "./devis-corpus/families";
export * from "./devis-corpus/model";
export { devisPdf, pageCount } from "./devis-corpus/pdf";
export {
  devisPagePngs,
  devisPhoto,
  devisScan,
  type PhotoSettings,
  photoSettings,
  type ScanSettings,
  scanSettings,
} from "./devis-corpus/photo";
export * from "./devis-corpus/score";

/** A deterministic devis for this seed (of the "classique" family unless another is named). */
export function makeDevis(seed: number, family: FamilyName = "classique"): CorpusDevis {
  return makeFamilyDevis(seed, family);
}

/**
 * `count` devis of a family from `seed0` on (seed0, seed0 + 1, …), the two-page ones skipped when
 * `onePage` (a photo holds one page): the same sample on every run.
 */
export function familySample(
  family: FamilyName,
  count: number,
  seed0: number,
  { onePage = false }: { onePage?: boolean } = {},
): CorpusDevis[] {
  const out: CorpusDevis[] = [];
  for (let seed = seed0; out.length < count && seed < seed0 + count * 20; seed++) {
    const devis = makeDevis(seed, family);
    if (!onePage || pageCount(devis) === 1) out.push(devis);
  }
  return out;
}
