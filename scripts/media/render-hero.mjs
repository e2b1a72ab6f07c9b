#!/usr/bin/env node
// Renders the landing page's hero video from code: every frame is an SVG string built below, rasterized
// with rsvg-convert (librsvg2-bin) and encoded with ffmpeg. No third-party footage, no npm dependency.
//
//   node scripts/media/render-hero.mjs                  # renders everything (about 30–60 s)
//   node scripts/media/render-hero.mjs --preview 4.5    # one PNG of the instant t = 4.5 s, in the temp dir
//
// Outputs public/media/hero.webm (VP9), public/media/hero.mp4 (H.264, +faststart) and
// public/media/hero-poster.webp (the first frame). Neither video has an audio track.
//
// The story (7 s loop, 24 fps): a quote (devis) card sits on the left next to three empty, dashed slots;
// small dots travel from the quote to the slots, and three dentist offer cards fill them one after the
// other (verified badge, price bar shorter than the quote's, savings chip); the cheapest offer is
// highlighted and its amber button turns into a booked check; a small calendar confirmation rises below;
// then everything eases back to the first frame so that the loop is seamless.
// To change the animation, edit `scene(t)` (t in seconds) and rerun the script.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "public/media");

const WIDTH = 960;
const HEIGHT = 540;
const FPS = 24;
const DURATION = 7; // seconds; frame FPS * DURATION would be identical to frame 0, so it is not rendered
const FRAME_COUNT = FPS * DURATION;

// Encoder settings, tuned so that each video stays well under 600 KB and the poster under 40 KB.
const VP9_CRF = 28;
const X264_CRF = 20;
const WEBP_QUALITY = 82;
const BUDGET = { "hero.webm": 600_000, "hero.mp4": 600_000, "hero-poster.webp": 40_000 };

// Design tokens.
const C = {
  teal: "#0f766e",
  teal300: "#5eead4",
  teal100: "#ccfbf1",
  teal50: "#f0fdfa",
  ink: "#0f172a",
  slate700: "#334155",
  slate600: "#475569",
  slate400: "#94a3b8",
  slate300: "#cbd5e1",
  slate200: "#e2e8f0",
  slate100: "#f1f5f9",
  green: "#059669",
  green700: "#047857",
  green100: "#d1fae5",
  amber: "#f59e0b",
  white: "#ffffff",
};

// ---------------------------------------------------------------------------------------------------------
// Tools

function requireTools() {
  const missing = [];
  for (const [tool, arg] of [
    ["rsvg-convert", "--version"],
    ["ffmpeg", "-version"],
  ]) {
    const result = spawnSync(tool, [arg], { stdio: "ignore" });
    if (result.error || result.status !== 0) missing.push(tool);
  }
  if (missing.length > 0) {
    console.error(`Outil(s) introuvable(s) : ${missing.join(", ")}.`);
    console.error("Sur Debian/Ubuntu : sudo apt-get install librsvg2-bin ffmpeg");
    process.exit(1);
  }
  const encoders = spawnSync("ffmpeg", ["-hide_banner", "-encoders"], { encoding: "utf8" }).stdout ?? "";
  const missingEncoders = ["libvpx-vp9", "libx264", "libwebp"].filter((e) => !encoders.includes(` ${e} `));
  if (missingEncoders.length > 0) {
    console.error(`Cet ffmpeg n'a pas les encodeurs : ${missingEncoders.join(", ")}.`);
    console.error("Installez le paquet Debian « ffmpeg » complet : sudo apt-get install ffmpeg");
    process.exit(1);
  }
}

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} a échoué (code ${code}) :\n${stderr.trim()}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Timing helpers

const clamp01 = (x) => Math.min(1, Math.max(0, x));
const easeInOut = (x) => (x < 0.5 ? 4 * x * x * x : 1 - (-2 * x + 2) ** 3 / 2);
const easeOut = (x) => 1 - (1 - x) ** 3;
const easeOutBack = (x) => {
  const s = 1.4;
  return 1 + (s + 1) * (x - 1) ** 3 + s * (x - 1) ** 2;
};
/** Progress 0 → 1 of a segment starting at `start` and lasting `dur` seconds. */
const seg = (t, start, dur, ease = easeInOut) => ease(clamp01((t - start) / dur));
const f = (n) => Math.round(n * 100) / 100;

// ---------------------------------------------------------------------------------------------------------
// Drawing helpers (all in local coordinates)

const rect = (x, y, w, h, rx, fill, extra = "") =>
  `<rect x="${f(x)}" y="${f(y)}" width="${f(Math.max(0, w))}" height="${f(h)}" rx="${f(rx)}" fill="${fill}" ${extra}/>`;
const bar = (x, y, w, h, fill) => rect(x, y, w, h, h / 2, fill);
const group = (content, { x = 0, y = 0, scale = 1, cx = 0, cy = 0, opacity = 1 } = {}) => {
  if (opacity <= 0.001) return "";
  const transforms = [];
  if (x || y) transforms.push(`translate(${f(x)} ${f(y)})`);
  if (scale !== 1)
    transforms.push(
      `translate(${f(cx)} ${f(cy)}) scale(${f(scale * 1000) / 1000}) translate(${f(-cx)} ${f(-cy)})`,
    );
  const tr = transforms.length ? ` transform="${transforms.join(" ")}"` : "";
  const op = opacity < 0.999 ? ` opacity="${f(opacity * 1000) / 1000}"` : "";
  return `<g${tr}${op}>${content}</g>`;
};

// The tooth from public/favicon.svg (64×64 viewBox, tooth centred around 32,34).
const TOOTH =
  "M24.5 18c-4.6 0-8 3.7-8 8.6 0 4.1 1.4 7 2.6 10.3 1.1 3.1 1.6 7.1 2.4 10 .5 1.8 1.4 2.8 2.6 2.8 1.5 0 2.2-1.3 2.7-3.6l1.4-6.4c.4-1.8 1.4-2.8 3.8-2.8s3.4 1 3.8 2.8l1.4 6.4c.5 2.3 1.2 3.6 2.7 3.6 1.2 0 2.1-1 2.6-2.8.8-2.9 1.3-6.9 2.4-10 1.2-3.3 2.6-6.2 2.6-10.3 0-4.9-3.4-8.6-8-8.6-3.2 0-5 1.6-7.5 1.6S27.7 18 24.5 18Z";
const tooth = (cx, cy, size, fill) =>
  `<path d="${TOOTH}" fill="${fill}" transform="translate(${cx} ${cy}) scale(${size / 32}) translate(-32 -34)"/>`;

/** A check mark centred on (cx, cy); `draw` (0 → 1) animates the stroke. */
const CHECK_LENGTH = 15;
const check = (cx, cy, size, stroke, width, draw = 1) => {
  const s = size / 12;
  const d = `M${f(cx - 5 * s)} ${f(cy + 0.2 * s)} l${f(3.5 * s)} ${f(3.5 * s)} l${f(6.5 * s)} ${f(-7 * s)}`;
  const len = CHECK_LENGTH * s;
  const dash = draw < 1 ? ` stroke-dasharray="${f(len)}" stroke-dashoffset="${f(len * (1 - draw))}"` : "";
  return `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"${dash}/>`;
};

/** A calendar glyph drawn on a 16×16 grid, `size` pixels wide, top-left at (x, y). */
const calendar = (x, y, size, color) =>
  `<g transform="translate(${x} ${y}) scale(${size / 16})">` +
  `<rect x="1.8" y="3.8" width="12.4" height="10.4" rx="2.2" fill="none" stroke="${color}" stroke-width="1.6"/>` +
  `<path d="M1 6Q1 3 4 3H12Q15 3 15 6V7.4H1Z" fill="${color}"/>` +
  `${rect(4, 1, 2, 4, 1, color)}${rect(10, 1, 2, 4, 1, color)}` +
  `${rect(4.2, 9.4, 2.2, 2.2, 0.6, color)}${rect(6.9, 9.4, 2.2, 2.2, 0.6, color)}${rect(9.6, 9.4, 2.2, 2.2, 0.6, color)}` +
  "</g>";

const person = (cx, cy, fill) =>
  `<circle cx="${cx}" cy="${cy - 5}" r="7" fill="${fill}"/>` +
  `<path d="M${cx - 14} ${cy + 22} C${cx - 14} ${cy + 6} ${cx + 14} ${cy + 6} ${cx + 14} ${cy + 22} Z" fill="${fill}"/>`;

// ---------------------------------------------------------------------------------------------------------
// Layout

const QUOTE = { x: 100, y: 84, w: 280, h: 360 };
const PRICE_FULL = 200; // the quote's price bar; offers are drawn at the same scale
const CARD = { x: 470, w: 390, h: 100, gap: 18 };
const cardY = (i) => 90 + i * (CARD.h + CARD.gap);
const OFFERS = [
  { price: 0.78, avatar: C.teal100, name: 118, sub: 84, start: 1.1 },
  { price: 0.62, avatar: "#e0f2fe", name: 96, sub: 104, start: 1.75 },
  { price: 0.86, avatar: C.slate100, name: 132, sub: 72, start: 2.4 },
];
const BEST = 1; // the cheapest offer gets highlighted
const TOAST = { w: 212, h: 54 };
TOAST.x = CARD.x + (CARD.w - TOAST.w) / 2;
TOAST.y = cardY(2) + CARD.h + 22;

// Curved connectors from the quote's right edge to each slot.
function connector(i) {
  const p0 = [QUOTE.x + QUOTE.w + 6, QUOTE.y + QUOTE.h / 2];
  const p3 = [CARD.x - 6, cardY(i) + CARD.h / 2];
  const mx = (p0[0] + p3[0]) / 2;
  return [p0, [mx, p0[1]], [mx, p3[1]], p3];
}
function bezierPoint([p0, p1, p2, p3], k) {
  const u = 1 - k;
  const a = u * u * u;
  const b = 3 * u * u * k;
  const c = 3 * u * k * k;
  const d = k * k * k;
  return [a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]];
}

const DEFS = `<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="${C.teal50}"/><stop offset="0.55" stop-color="#f8fafc"/><stop offset="1" stop-color="${C.white}"/>
</linearGradient>
<radialGradient id="blob"><stop offset="0" stop-color="${C.teal100}" stop-opacity="0.6"/><stop offset="1" stop-color="${C.teal100}" stop-opacity="0"/></radialGradient>
<filter id="shadow" x="-20%" y="-30%" width="140%" height="170%">
  <feGaussianBlur in="SourceAlpha" stdDeviation="9"/><feOffset dy="8" result="blur"/>
  <feFlood flood-color="${C.ink}" flood-opacity="0.08"/><feComposite in2="blur" operator="in" result="shadow"/>
  <feGaussianBlur in="SourceAlpha" stdDeviation="1.2" result="edge"/><feFlood flood-color="${C.ink}" flood-opacity="0.06"/>
  <feComposite in2="edge" operator="in" result="edgeShadow"/>
  <feMerge><feMergeNode in="shadow"/><feMergeNode in="edgeShadow"/><feMergeNode in="SourceGraphic"/></feMerge>
</filter>
<filter id="lift" x="-20%" y="-40%" width="140%" height="190%">
  <feGaussianBlur in="SourceAlpha" stdDeviation="14"/><feOffset dy="14" result="blur"/>
  <feFlood flood-color="${C.teal}" flood-opacity="0.22"/><feComposite in2="blur" operator="in"/>
</filter>
<clipPath id="avatar"><circle cx="46" cy="50" r="24"/></clipPath>
</defs>`;

// ---------------------------------------------------------------------------------------------------------
// Scene pieces

function background() {
  return (
    rect(0, 0, WIDTH, HEIGHT, 0, "url(#bg)") +
    `<circle cx="850" cy="60" r="260" fill="url(#blob)"/><circle cx="80" cy="510" r="220" fill="url(#blob)"/>`
  );
}

function quoteCard() {
  const { w, h } = QUOTE;
  const fold = 28;
  const body = `M16 0H${w - fold}L${w} ${fold}V${h - 16}Q${w} ${h} ${w - 16} ${h}H16Q0 ${h} 0 ${h - 16}V16Q0 0 16 0Z`;
  const lines = [
    [128, 44],
    [92, 38],
    [146, 48],
    [108, 40],
  ];
  let s = `<path d="${body}" fill="${C.white}" filter="url(#shadow)"/>`;
  s += `<path d="M${w - fold} 0V${fold - 8}Q${w - fold} ${fold} ${w - fold + 8} ${fold}H${w}Z" fill="${C.slate200}"/>`;
  s += rect(24, 26, 48, 48, 12, C.teal100) + tooth(48, 50, 30, C.teal);
  s += bar(88, 34, 112, 11, C.slate700) + bar(88, 55, 76, 8, C.slate300);
  s += rect(24, 98, w - 48, 1.5, 0.75, C.slate200);
  lines.forEach(([left, right], i) => {
    const y = 122 + i * 34;
    s += bar(24, y, left, 9, C.slate200) + bar(w - 24 - right, y, right, 9, C.slate300);
  });
  s += rect(24, 262, w - 48, 1.5, 0.75, C.slate200);
  s += bar(24, 284, 58, 8, C.slate400);
  s += bar(24, 306, PRICE_FULL, 14, C.slate600);
  return group(s, { x: QUOTE.x, y: QUOTE.y });
}

function slot(i, opacity) {
  const s =
    rect(
      0,
      0,
      CARD.w,
      CARD.h,
      16,
      "rgba(255,255,255,0.55)",
      `stroke="${C.slate300}" stroke-width="1.5" stroke-dasharray="7 7"`,
    ) +
    `<circle cx="46" cy="50" r="22" fill="${C.slate100}"/>` +
    bar(84, 30, 110, 10, C.slate100) +
    bar(84, 66, PRICE_FULL, 12, C.slate100);
  return group(s, { x: CARD.x, y: cardY(i), opacity });
}

function offerCard(i, t, k) {
  const o = OFFERS[i];
  const { w, h } = CARD;
  const isBest = i === BEST;
  const price = PRICE_FULL * o.price;
  const fill = seg(t, o.start + 0.35, 0.7); // price bar grows
  const badge = seg(t, o.start + 0.55, 0.45, easeOutBack);
  const chip = seg(t, o.start + 0.8, 0.4);

  let s = rect(0, 0, w, h, 16, C.white, `filter="url(#shadow)"`);
  if (isBest && k.highlight > 0) {
    s = `<g opacity="${f(k.highlight)}">${rect(6, 10, w - 12, h - 10, 16, C.white, `filter="url(#lift)"`)}</g>${s}`;
    s += rect(0, 0, w, h, 16, "none", `stroke="${C.teal}" stroke-width="2" opacity="${f(k.highlight)}"`);
  }
  s += `<circle cx="46" cy="50" r="24" fill="${o.avatar}"/>`;
  s += `<g clip-path="url(#avatar)">${person(46, 50, C.teal)}</g>`;
  s += bar(84, 26, o.name, 10, C.slate700) + bar(84, 45, o.sub, 8, C.slate300);
  // verified badge
  const bx = 84 + o.name + 15;
  s += group(`<circle cx="${bx}" cy="31" r="9" fill="${C.green}"/>${check(bx, 31, 10, C.white, 2.2)}`, {
    scale: Math.max(0.001, badge),
    cx: bx,
    cy: 31,
    opacity: clamp01(badge * 2),
  });
  // price: the quote's length as a track, the offer in teal, the saving in mint
  s += bar(84, 66, PRICE_FULL, 12, C.slate100);
  s += group(rect(84, 66, PRICE_FULL, 12, 6, C.green100), { opacity: fill });
  s += bar(84, 66, Math.max(12, price * fill), 12, C.teal);
  // savings chip (arrow down + short bar)
  const chipEl =
    rect(0, 0, 56, 22, 11, C.green100) +
    `<path d="M14 6V15M10 11.5L14 15.5L18 11.5" fill="none" stroke="${C.green700}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>` +
    bar(24, 8, 22, 6, C.green700);
  s += group(chipEl, { x: w - 72, y: 20 + 6 * (1 - chip), opacity: chip });
  // button: neutral on every card, amber on the chosen one, teal with a check once booked
  const btn = { x: w - 90, y: 58, w: 74, h: 28 };
  let b = rect(0, 0, btn.w, btn.h, 14, C.slate100);
  b += bar(32, 11, 28, 6, C.slate300) + calendar(12, 6, 16, C.slate300);
  if (isBest) {
    b += group(
      rect(0, 0, btn.w, btn.h, 14, C.amber) + calendar(12, 6, 16, C.white) + bar(32, 11, 28, 6, C.white),
      {
        opacity: k.cta,
      },
    );
    b += group(rect(0, 0, btn.w, btn.h, 14, C.teal) + check(btn.w / 2, 14, 13, C.white, 2.6, k.booked), {
      opacity: clamp01(k.booked * 3),
    });
  }
  s += group(b, {
    x: btn.x,
    y: btn.y,
    scale: isBest ? k.press : 1,
    cx: btn.w / 2,
    cy: btn.h / 2,
    opacity: chip,
  });
  return s;
}

function toast(t, opacity, rise) {
  const { w, h } = TOAST;
  const draw = seg(t, 4.95, 0.45, easeOut);
  let s = rect(0, 0, w, h, 14, C.white, `filter="url(#shadow)"`);
  s += rect(12, 11, 32, 32, 9, C.teal100) + calendar(17, 16, 22, C.teal);
  s += `<circle cx="${w - 30}" cy="${h / 2}" r="12" fill="${C.green}"/>${check(w - 30, h / 2, 12, C.white, 2.4, draw)}`;
  s += bar(56, 16, 92, 9, C.slate700) + bar(56, 32, 64, 7, C.slate300);
  return group(s, { x: TOAST.x, y: TOAST.y + 14 * (1 - rise), opacity });
}

// ---------------------------------------------------------------------------------------------------------
// The whole frame at time t (seconds, 0 ≤ t < DURATION)

function scene(t) {
  // The offers ease out first, then the empty slots come back: the last frame equals the first one.
  const out = seg(t, 6.0, 0.7);
  const back = seg(t, 6.3, 0.6);
  const keep = 1 - out;
  const highlight = seg(t, 3.45, 0.7) * keep;
  const k = {
    highlight,
    cta: seg(t, 3.75, 0.45),
    press: 1 - 0.07 * Math.sin(Math.PI * clamp01((t - 4.35) / 0.3)),
    booked: seg(t, 4.5, 0.45, easeOut),
  };

  let s = background();

  // connectors and travelling dots
  for (let i = 0; i < 3; i++) {
    const c = connector(i);
    const d = `M${c[0].join(" ")}C${c[1].join(" ")} ${c[2].join(" ")} ${c[3].join(" ")}`;
    s += `<path d="${d}" fill="none" stroke="${C.slate300}" stroke-width="1.5" stroke-dasharray="4 6" stroke-linecap="round"/>`;
    if (i === BEST && highlight > 0) {
      s += `<path d="${d}" fill="none" stroke="${C.teal}" stroke-width="2" stroke-linecap="round" opacity="${f(highlight)}"/>`;
    }
    const start = OFFERS[i].start - 0.7;
    const travel = clamp01((t - start) / 0.75);
    if (travel > 0 && travel < 1) {
      const [x, y] = bezierPoint(c, easeInOut(travel));
      const op = Math.min(1, travel * 5, (1 - travel) * 5);
      s += `<circle cx="${f(x)}" cy="${f(y)}" r="5" fill="${C.teal}" opacity="${f(op)}"/>`;
      s += `<circle cx="${f(x)}" cy="${f(y)}" r="10" fill="${C.teal300}" opacity="${f(op * 0.35)}"/>`;
    }
  }

  s += quoteCard();

  // slots and offers
  for (let i = 0; i < 3; i++) {
    const slotOpacity = Math.max(1 - seg(t, OFFERS[i].start, 0.35), back);
    s += slot(i, slotOpacity);
  }
  for (let i = 0; i < 3; i++) {
    const appear = seg(t, OFFERS[i].start, 0.6) * keep;
    if (appear <= 0) continue;
    const isBest = i === BEST;
    const dim = isBest ? 1 : 1 - 0.3 * highlight;
    const y = cardY(i) - (isBest ? 4 * highlight : 0);
    s += group(offerCard(i, t, k), {
      x: CARD.x + 28 * (1 - seg(t, OFFERS[i].start, 0.6, easeOut)) + 16 * out,
      y,
      scale: isBest ? 1 + 0.03 * highlight : 1,
      cx: CARD.w / 2,
      cy: CARD.h / 2,
      opacity: appear * dim,
    });
  }

  const toastIn = seg(t, 4.7, 0.55);
  s += toast(t, toastIn * keep, seg(t, 4.7, 0.55, easeOut));

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${DEFS}${s}</svg>`;
}

// ---------------------------------------------------------------------------------------------------------
// Rendering

async function rasterize(dir) {
  const jobs = Array.from({ length: FRAME_COUNT }, (_, i) => i);
  const workers = Math.max(1, Math.min(8, os.availableParallelism?.() ?? os.cpus().length));
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = jobs.shift(); i !== undefined; i = jobs.shift()) {
        const name = String(i).padStart(4, "0");
        const svg = path.join(dir, `${name}.svg`);
        writeFileSync(svg, scene(i / FPS));
        await run("rsvg-convert", [
          "-w",
          String(WIDTH),
          "-h",
          String(HEIGHT),
          "-o",
          path.join(dir, `${name}.png`),
          svg,
        ]);
        done++;
        if (process.stdout.isTTY) process.stdout.write(`\r  images : ${done}/${FRAME_COUNT}`);
      }
    }),
  );
  if (process.stdout.isTTY) process.stdout.write("\n");
}

// Untagged RGB → YUV conversions default to BT.601 in swscale; convert and tag as BT.709 like browsers expect.
const COLOR = [
  "-vf",
  "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,format=yuv420p",
  "-colorspace",
  "bt709",
  "-color_primaries",
  "bt709",
  "-color_trc",
  "bt709",
  "-color_range",
  "tv",
];

async function encode(dir) {
  const input = [
    "-y",
    "-hide_banner",
    "-loglevel",
    "error",
    "-framerate",
    String(FPS),
    "-i",
    path.join(dir, "%04d.png"),
  ];
  // Encode into the temp dir and copy at the end, so that an interrupted run never leaves half a file.
  const webm = path.join(dir, "hero.webm");
  const mp4 = path.join(dir, "hero.mp4");
  const poster = path.join(dir, "hero-poster.webp");
  await Promise.all([
    run("ffmpeg", [
      ...input,
      ...COLOR,
      "-c:v",
      "libvpx-vp9",
      "-b:v",
      "0",
      "-crf",
      String(VP9_CRF),
      "-deadline",
      "good",
      "-cpu-used",
      "1",
      "-row-mt",
      "1",
      "-g",
      String(FPS * 2),
      "-an",
      webm,
    ]),
    run("ffmpeg", [
      ...input,
      ...COLOR,
      "-c:v",
      "libx264",
      "-preset",
      "slow",
      "-tune",
      "animation",
      "-crf",
      String(X264_CRF),
      "-profile:v",
      "high",
      "-g",
      String(FPS * 2),
      "-movflags",
      "+faststart",
      "-an",
      mp4,
    ]),
    run("ffmpeg", [
      "-y",
      "-hide_banner",
      "-loglevel",
      "error",
      "-i",
      path.join(dir, "0000.png"),
      "-c:v",
      "libwebp",
      "-quality",
      String(WEBP_QUALITY),
      "-compression_level",
      "6",
      poster,
    ]),
  ]);
  return [webm, mp4, poster].map((file) => {
    const target = path.join(outDir, path.basename(file));
    copyFileSync(file, target);
    return target;
  });
}

/** `--preview <seconds>`: renders only that instant to a PNG in the temp dir, to iterate on the design. */
async function preview(seconds) {
  const t = Number(seconds);
  if (!Number.isFinite(t) || t < 0 || t >= DURATION) {
    console.error(`Usage : node scripts/media/render-hero.mjs --preview <secondes, de 0 à ${DURATION}>`);
    process.exit(1);
  }
  const base = path.join(os.tmpdir(), `sourio-hero-${t.toFixed(2)}s`);
  writeFileSync(`${base}.svg`, scene(t));
  await run("rsvg-convert", ["-w", String(WIDTH), "-h", String(HEIGHT), "-o", `${base}.png`, `${base}.svg`]);
  rmSync(`${base}.svg`);
  console.log(`${base}.png`);
}

async function main() {
  requireTools();
  const previewAt = process.argv.indexOf("--preview");
  if (previewAt !== -1) return preview(process.argv[previewAt + 1]);
  const started = Date.now();
  mkdirSync(outDir, { recursive: true });
  const tmp = mkdtempSync(path.join(os.tmpdir(), "sourio-hero-"));
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  process.once("SIGINT", () => {
    cleanup();
    process.exit(130);
  });
  try {
    console.log(`Rendu de ${FRAME_COUNT} images ${WIDTH}×${HEIGHT} (${DURATION} s à ${FPS} i/s)…`);
    await rasterize(tmp);
    console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s) Encodage (VP9, H.264, poster WebP)…`);
    const files = await encode(tmp);
    let overBudget = false;
    for (const file of files) {
      const size = statSync(file).size;
      const name = path.basename(file);
      const over = size > BUDGET[name];
      overBudget ||= over;
      console.log(
        `  ${path.relative(root, file)} : ${(size / 1024).toFixed(1)} Ko${over ? " (au-dessus du budget !)" : ""}`,
      );
    }
    console.log(`Terminé en ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    if (overBudget) process.exitCode = 1;
  } finally {
    cleanup();
  }
}

await main();
