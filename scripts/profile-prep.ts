// Where a photo's preparation for OCR spends its CPU (issue 34, ADR 041 addendum): each step of
// `prepareForOcr` (image.ts) left out in turn, on generated photos of the TUNED layout families only,
// CPU time (process.cpuUsage: user + system of every thread, since the machine is shared) per photo,
// p50 of 3 runs each. Prints no text read. Usage: npx tsx scripts/profile-prep.ts [--photos 1] [--seed 9000]
import { parseArgs } from "node:util";
import { prepareForOcr } from "../src/server/modules/reading/image";
import { devisPhoto, familySample, TUNED_FAMILIES } from "../src/server/testing/devis-corpus";

const { values } = parseArgs({
  options: { photos: { type: "string", default: "1" }, seed: { type: "string", default: "9000" } },
});
const photos: Buffer[] = [];
for (const family of TUNED_FAMILIES)
  for (const devis of familySample(family, Number(values.photos), Number(values.seed), { onePage: true }))
    photos.push(await devisPhoto(devis));

const variants: [string, Parameters<typeof prepareForOcr>[1]][] = [
  ["toute la préparation", {}],
  ["sans égaliser la lumière (flatten)", { flatten: false }],
  ["sans redresser (deskew)", { deskew: false }],
  ["sans les bandeaux (bands)", { bands: false }],
  ["sans effacer les filets (rules)", { rules: false }],
  ["rien que décoder, redimensionner, PNG", { flatten: false, deskew: false, bands: false, rules: false }],
];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
await prepareForOcr(photos[0] as Buffer);
console.log(`| préparation | CPU par photo, p50 (s) | ${photos.length} photos |`);
console.log("|---|---|---|");
for (const [label, options] of variants) {
  const perPhoto: number[] = [];
  for (const photo of photos) {
    const runs: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const t = cpu();
      await prepareForOcr(photo, options);
      runs.push(cpu() - t);
    }
    perPhoto.push(median(runs));
  }
  console.log(`| ${label} | ${(median(perPhoto) / 1000).toFixed(2)} | |`);
}
