import sharp from "sharp";

/**
 * The demo patient's images, drawn in code (sharp renders the SVG): no real patient's, and each says so.
 *
 * Her panoramic radiograph: a drawing of one (both arches, their teeth with crowns,
 * roots and pulp on a dark film), made in code, the lower left first molar (36) missing as her request
 * says. Marked as a demonstration image: a document a dentist can open and look at, where the demo had
 * a grey rectangle.
 */
const WIDTH = 1400;
const HEIGHT = 640;
const GAP = 6;

/** FDI numbers from the patient's right to her left, as the film shows them (her right on its left). */
const UPPER = [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28];
const LOWER = [48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38];

/** Crown width, crown height and root length of a tooth by its position (1–8), upper and lower. */
function sizeOf(tooth: number): { w: number; crown: number; root: number; roots: number } {
  const position = tooth % 10;
  const lower = Math.floor(tooth / 10) >= 3;
  const w = [0, lower ? 34 : 50, lower ? 36 : 42, 46, 44, 44, 66, 62, 56][position] ?? 44;
  const crown = position >= 6 ? 58 : position >= 4 ? 62 : 70;
  const root = position === 3 ? 150 : position >= 6 ? 115 : 130;
  return { w, crown, root, roots: position >= 6 ? 2 : 1 };
}

/** One tooth: its root(s) from the crown away from the bite, the crown, then the pulp, darker. */
function tooth(x: number, bite: number, up: boolean, size: ReturnType<typeof sizeOf>): string {
  const s = up ? -1 : 1;
  const { w, crown, root, roots } = size;
  const neck = bite + s * crown;
  const parts: string[] = [];
  for (let i = 0; i < roots; i += 1) {
    const half = w / (roots * 2.3);
    const cx = x - w / 2 + (w / roots) * (i + 0.5) + (roots === 2 ? (i === 0 ? 3 : -3) : 0);
    const tip = neck + s * root * (roots === 2 && i === 1 ? 0.92 : 1);
    parts.push(
      `<path d="M ${cx - half} ${neck} C ${cx - half} ${neck + s * root * 0.6}, ${cx - 3} ${tip}, ${cx} ${tip} C ${cx + 3} ${tip}, ${cx + half} ${neck + s * root * 0.6}, ${cx + half} ${neck} Z" />`,
    );
  }
  const top = up ? neck : bite;
  parts.push(`<rect x="${x - w / 2}" y="${top}" width="${w}" height="${crown}" rx="${w * 0.32}" />`);
  const pulpTop = up ? neck + 8 : bite + crown * 0.35;
  parts.push(
    `<path class="pulp" d="M ${x - w * 0.14} ${pulpTop} L ${x + w * 0.14} ${pulpTop} L ${x + 2} ${neck + s * root * 0.85} L ${x - 2} ${neck + s * root * 0.85} Z" />`,
  );
  return parts.join("");
}

/** Where each tooth of an arch stands: its centre and the line of the bite, curving up at the back. */
function placed(teeth: number[], up: boolean) {
  const sizes = teeth.map(sizeOf);
  const total = sizes.reduce((sum, size) => sum + size.w + GAP, -GAP);
  let x = (WIDTH - total) / 2;
  return teeth.map((number, i) => {
    const size = sizes[i] as ReturnType<typeof sizeOf>;
    const centre = x + size.w / 2;
    x += size.w + GAP;
    const lift = ((centre - WIDTH / 2) / (WIDTH / 2)) ** 2 * 110;
    return { number, size, centre, bite: (up ? 312 : 334) - lift };
  });
}

function arch(teeth: number[], up: boolean, missing: ReadonlySet<number>): string {
  return placed(teeth, up)
    .filter((t) => !missing.has(t.number))
    .map((t) => tooth(t.centre, t.bite, up, t.size))
    .join("");
}

/** A point of a tooth's crown on the film (FDI number), near the bite, clear of its pulp; drawn or missing. */
export function crownCentre(number: number): { x: number; y: number } {
  const up = Math.floor(number / 10) <= 2;
  const t = placed(up ? UPPER : LOWER, up).find((p) => p.number === number);
  if (!t) throw new Error(`dent inconnue : ${number}`);
  return { x: t.centre, y: t.bite + ((up ? -1 : 1) * t.size.crown) / 4 };
}

export async function demoPanoramicXray(missing: readonly number[] = [36]): Promise<Buffer> {
  const gone = new Set(missing);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs>
    <radialGradient id="film" cx="50%" cy="48%" r="62%">
      <stop offset="0%" stop-color="#4a4a4a"/>
      <stop offset="60%" stop-color="#222222"/>
      <stop offset="100%" stop-color="#060606"/>
    </radialGradient>
    <filter id="soft"><feGaussianBlur stdDeviation="1.6"/></filter>
  </defs>
  <style>.pulp { fill: #5c5c5c; fill-opacity: 0.8; stroke: none; }</style>
  <rect width="100%" height="100%" fill="#050505"/>
  <ellipse cx="${WIDTH / 2}" cy="${HEIGHT * 0.5}" rx="${WIDTH * 0.48}" ry="${HEIGHT * 0.46}" fill="url(#film)"/>
  <g fill="#d6d6d6" fill-opacity="0.9" stroke="#f4f4f4" stroke-opacity="0.45" stroke-width="2" filter="url(#soft)">
    ${arch(UPPER, true, gone)}
    ${arch(LOWER, false, gone)}
  </g>
  <text x="28" y="46" font-family="DejaVu Sans, sans-serif" font-size="26" fill="#bdbdbd">D</text>
  <text x="${WIDTH - 48}" y="46" font-family="DejaVu Sans, sans-serif" font-size="26" fill="#bdbdbd">G</text>
  <text x="28" y="${HEIGHT - 24}" font-family="DejaVu Sans, sans-serif" font-size="18" fill="#9a9a9a">Image de démonstration de Sourio : aucun patient réel.</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

/**
 * The demo patient's photo of her smile: a drawing (lips, the upper teeth from canine to canine and
 * the lower incisors), marked as a demonstration image, where the demo had a grey rectangle.
 */
export async function demoSmilePhoto(): Promise<Buffer> {
  const width = 900;
  const height = 520;
  // Upper: central incisors, laterals, canines, first premolars; lower: the four incisors.
  const upper = [
    [35, 66, 96],
    [100, 56, 84],
    [157, 52, 80],
    [206, 44, 70],
  ]
    .flatMap(([dx, w, h]) => [-(dx as number), dx as number].map((x) => [x, w, h]))
    .map(
      ([dx, w, h]) =>
        `<rect x="${450 + (dx as number) - (w as number) / 2}" y="${262 - (h as number)}" width="${w}" height="${(h as number) + 12}" rx="14" />`,
    )
    .join("");
  const lower = [-72, -24, 24, 72]
    .map((dx) => `<rect x="${450 + dx - 23}" y="266" width="46" height="60" rx="12" />`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <radialGradient id="skin" cx="50%" cy="45%" r="75%">
      <stop offset="0%" stop-color="#e9c3a6"/><stop offset="100%" stop-color="#b98568"/>
    </radialGradient>
    <filter id="soft"><feGaussianBlur stdDeviation="1.2"/></filter>
  </defs>
  <rect width="100%" height="100%" fill="url(#skin)"/>
  <path d="M 180 250 Q 450 60 720 250 Q 450 470 180 250 Z" fill="#b5535e"/>
  <path d="M 215 250 Q 450 150 685 250 Q 450 380 215 250 Z" fill="#3a1418"/>
  <clipPath id="mouth"><path d="M 215 250 Q 450 150 685 250 Q 450 380 215 250 Z"/></clipPath>
  <g clip-path="url(#mouth)"><g fill="#f3efe6" stroke="#d8d0c0" stroke-width="2" filter="url(#soft)">${upper}${lower}</g></g>
  <text x="24" y="${height - 22}" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#5b3b2b">Image de démonstration de Sourio : aucun patient réel.</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}
