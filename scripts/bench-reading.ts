// Reading the uploaded devis (issues 17 and 34), measured for `npm run bench`: the generated corpus of
// the test suite (src/server/testing/devis-corpus.ts, fixed seeds) read through `readQuote`, as the
// server's runner reads an uploaded document, per split — the HELD-OUT layout families first (never
// tuned on, ADR 042: the figures that count), then the tuned ones — and per kind (text PDF, phone photo,
// scanned PDF): lines found (code, or 4 of 6 fields, right), lines exact, fields right (tooth, code,
// basket, fee, BR, AMO per line; an extra line counts as 6 wrong fields), time per page (p50 and max;
// one unmeasured read per kind first, as a running server has its OCR workers started). First, the RSS
// while 4 photos are read at once through the OCR pool, in a child process that loads only what the
// server loads to read (the corpus' generation would weigh on its baseline), from a cold pool as on a
// server at rest (idle OCR workers end after a minute): the workers' start is part of the growth. The
// child runs with the reading child's allocator settings (sandbox.ts READER_CHILD_MALLOC_ENV, ADR 061);
// run alone (`--rss-of DIR`), it needs them in its environment to measure the same.
// Prints its rows as JSON on the last line of stdout (bench.mjs makes them table rows); nothing read is
// printed. Usage: tsx scripts/bench-reading.ts [--text 5] [--photos 2] [--scans 1] (per family).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ReadOptions } from "../src/server/modules/reading/types";
import type { Devis, FamilyName } from "../src/server/testing/devis-corpus";

const { values } = parseArgs({
  options: {
    text: { type: "string", default: "5" },
    photos: { type: "string", default: "2" },
    scans: { type: "string", default: "1" },
    /** Child mode: read the JPEGs of this folder at once, print the RSS figures. */
    "rss-of": { type: "string" },
  },
});

if (values["rss-of"]) {
  const dir = values["rss-of"];
  const { readQuote, closeOcr } = await import("../src/server/modules/reading/read");
  const { ocrPoolState, setOcrConcurrency } = await import("../src/server/modules/reading/ocr");
  const { loadConfig } = await import("../src/server/config");
  // READING_CONCURRENCY as the server reads it (1 by default, 2 at most).
  setOcrConcurrency(loadConfig({ ...process.env, DATA_DIR: dir }).readingConcurrency);
  const photos = [0, 1, 2, 3].map((i) => readFileSync(path.join(dir, `${i}.jpg`)));
  await new Promise((r) => setTimeout(r, 500));
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = performance.now();
  try {
    await Promise.all(photos.map((bytes) => readQuote(bytes, { mime: "image/jpeg" })));
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  const { concurrency } = ocrPoolState();
  await closeOcr();
  console.log(JSON.stringify({ baseline, peak, ms: performance.now() - started, concurrency }));
  process.exit(0);
}

const { closeOcr, readQuote } = await import("../src/server/modules/reading/read");
const {
  devisPdf,
  devisPhoto,
  devisScan,
  familySample,
  HELD_OUT_FAMILIES,
  makeDevis,
  scoreReading,
  TUNED_FAMILIES,
} = await import("../src/server/testing/devis-corpus");

interface Row {
  name: string;
  value: string;
  budget: string;
  ok: boolean;
}
const rows: Row[] = [];
const record = (name: string, value: string, budget: string, ok: boolean) =>
  rows.push({ name, value, budget, ok });

interface Kind {
  label: string;
  /** Devis per family. */
  count: number;
  /** Seeds seed0, seed0 + 1, … of each family (one-page devis only for photos): the same corpus on every run. */
  seed0: number;
  onePage: boolean;
  file: (devis: Devis) => Promise<Uint8Array>;
  mime: ReadOptions["mime"];
  msPerPageBudget: number;
  accuracyBudget: number;
  foundBudget: number;
}

const KINDS: Kind[] = [
  {
    label: "PDF texte",
    count: Number(values.text),
    seed0: 1_000,
    onePage: false,
    file: (d) => devisPdf(d),
    mime: "application/pdf",
    msPerPageBudget: 1_000,
    accuracyBudget: 0.99,
    foundBudget: 1,
  },
  {
    label: "photo JPEG",
    count: Number(values.photos),
    seed0: 2_000,
    onePage: true,
    file: (d) => devisPhoto(d),
    mime: "image/jpeg",
    msPerPageBudget: 5_000,
    accuracyBudget: 0.9,
    foundBudget: 0.95,
  },
  {
    label: "PDF scanné",
    count: Number(values.scans),
    seed0: 3_000,
    onePage: false,
    file: (d) => devisScan(d),
    mime: "application/pdf",
    msPerPageBudget: 5_000,
    accuracyBudget: 0.9,
    foundBudget: 0.95,
  },
];

const SPLITS: { label: string; families: readonly FamilyName[] }[] = [
  { label: "familles tenues à l'écart", families: HELD_OUT_FAMILIES },
  { label: "familles de réglage", families: TUNED_FAMILIES },
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * p) - 1)] ?? 0;
};
const percent = (x: number) => `${(x * 100).toFixed(1).replace(".", ",")} %`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2).replace(".", ",")} s`;
const mb = (bytes: number) => bytes / (1024 * 1024);
const RSS_BUDGET_MB = 400;

try {
  // Memory first, in a child process (see above).
  const dir = mkdtempSync(path.join(tmpdir(), "sourio-bench-reading-"));
  try {
    for (let i = 0; i < 4; i += 1)
      writeFileSync(path.join(dir, `${i}.jpg`), await devisPhoto(makeDevis(4_000 + i)));
    // The allocator's settings of the server's reading child (sandbox.ts), read when a process starts.
    const { READER_CHILD_MALLOC_ENV } = await import("../src/server/modules/reading/sandbox");
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), "--rss-of", dir],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, ...READER_CHILD_MALLOC_ENV },
      },
    );
    const last = child.stdout?.trim().split("\n").pop() ?? "";
    if (child.status !== 0 || !last.startsWith("{")) {
      record("Lecture de 4 photos à la fois : hausse du RSS", "échec", `< ${RSS_BUDGET_MB} Mo`, false);
    } else {
      const rss = JSON.parse(last) as { baseline: number; peak: number; ms: number; concurrency: number };
      const growth = mb(rss.peak - rss.baseline);
      record(
        `Lecture de 4 photos à la fois (${rss.concurrency} OCR) : hausse du RSS`,
        `${growth.toFixed(0)} Mo (${mb(rss.baseline).toFixed(0)} → ${mb(rss.peak).toFixed(0)} Mo, ${seconds(rss.ms)})`,
        `< ${RSS_BUDGET_MB} Mo`,
        growth < RSS_BUDGET_MB,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  for (const split of SPLITS)
    for (const kind of KINDS) {
      if (kind.count <= 0) continue;
      const corpus: { devis: Devis; bytes: Uint8Array }[] = [];
      for (const family of split.families)
        for (const devis of familySample(family, kind.count, kind.seed0, { onePage: kind.onePage }))
          corpus.push({ devis, bytes: await kind.file(devis) });
      // Warm-up (not measured): a running server has loaded pdf.js and started its OCR workers.
      const first = corpus[0];
      if (first) await readQuote(first.bytes, { mime: kind.mime });

      let exact = 0;
      let found = 0;
      let lines = 0;
      let fieldsRight = 0;
      let fields = 0;
      const msPerPage: number[] = [];
      for (const { devis, bytes } of corpus) {
        const started = performance.now();
        const reading = await readQuote(bytes, { mime: kind.mime });
        const elapsed = performance.now() - started;
        msPerPage.push(elapsed / Math.max(1, reading.pages));
        const score = scoreReading(devis, reading.result);
        exact += score.linesExact;
        found += score.linesFound;
        lines += score.expectedLines;
        fieldsRight += score.fieldsRight;
        fields += score.fieldsTotal;
      }
      const accuracy = fields === 0 ? 0 : fieldsRight / fields;
      const foundShare = lines === 0 ? 0 : found / lines;
      const p50 = percentile(msPerPage, 0.5);
      const max = Math.max(...msPerPage);
      const name = `Lecture ${kind.label}, ${split.label} (${corpus.length})`;
      record(
        `${name} : lignes trouvées`,
        `${found}/${lines} (${percent(foundShare)})`,
        kind.foundBudget === 1 ? "toutes" : `≥ ${Math.round(kind.foundBudget * 100)} %`,
        foundShare >= kind.foundBudget,
      );
      record(`${name} : lignes exactes`, `${exact}/${lines}`, "", true);
      record(
        `${name} : champs justes`,
        percent(accuracy),
        `≥ ${Math.round(kind.accuracyBudget * 100)} %`,
        accuracy >= kind.accuracyBudget,
      );
      record(
        `${name} : temps par page`,
        `p50 ${seconds(p50)}, max ${seconds(max)}`,
        `≤ ${kind.msPerPageBudget / 1000} s`,
        max <= kind.msPerPageBudget,
      );
    }
} finally {
  await closeOcr();
}

console.log(JSON.stringify({ rows }));
