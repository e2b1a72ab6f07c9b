import { once } from "node:events";
import { crc32, createDeflate, deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QuoteReading, READING_MESSAGES } from "../../../shared/schemas/reading";
import {
  createTestContext,
  newRequestId,
  signUpPatient,
  type TestContext,
  type UploadFile,
} from "../../testing/harness";
import { MAX_RENDER_PIXELS, MAX_RENDER_SIDE } from "./limits";

/**
 * Hostile devis (issue 32): files made to exhaust a reader (page boxes, operators, pixel bombs, page
 * trees, flate bombs, 10 000 pages), generated here, uploaded as a devis through the real app and read
 * by the real runner in its own process. While each is read, the server keeps answering /api/health
 * (a probe every 50 ms: p99 < 200 ms, none over 1 s), its own memory grows by less than 150 MB (the
 * reader's counts against its own ceiling), and the reading ends within its time limit: failed with its
 * French message, or done when the capped pages hold nothing. Their previews are capped too.
 */

/** The reading's time limit in this file (READING_TIME_LIMIT_S), short to keep the suite fast. */
const TIME_LIMIT_S = 10;
/** What the end of a reading may take beyond its limit (killing the child, saving the row). */
const GRACE_MS = 3000;

let ctx: TestContext;
let cookie: string;

beforeAll(async () => {
  ctx = await createTestContext({
    env: { READING_TIME_LIMIT_S: String(TIME_LIMIT_S), READING_MEMORY_MB: "768" },
  });
  cookie = (await signUpPatient(ctx.app)).cookie;
}, 60_000);
afterAll(async () => ctx?.close());

// --- Files ---------------------------------------------------------------------------------------

/** `chunk` written `times` times through deflate, without holding the whole inflated data. */
async function deflateRepeated(chunk: Buffer, times: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (data: Buffer) => out.push(data));
  for (let i = 0; i < times; i += 1) {
    if (!deflate.write(chunk)) await once(deflate, "drain");
  }
  deflate.end();
  await once(deflate, "end");
  return Buffer.concat(out);
}

/** A PDF of these objects (object 1 is the catalog), with a correct cross-reference table. */
function pdfOf(objects: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, "latin1"),
      typeof body === "string" ? Buffer.from(body, "latin1") : body,
      Buffer.from("\nendobj\n", "latin1"),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    "startxref",
    String(length),
    "%%EOF",
  ].join("\n");
  parts.push(Buffer.from(`${xref}\n`, "latin1"));
  return Buffer.concat(parts);
}

const stream = (data: Buffer, filters = ["/FlateDecode"]) =>
  Buffer.concat([
    Buffer.from(`<< /Length ${data.length} /Filter [${filters.join(" ")}] >>\nstream\n`, "latin1"),
    data,
    Buffer.from("\nendstream", "latin1"),
  ]);

/** One page of `width` × `height` points whose content is `content` (deflated). */
function onePage(width: number, height: number, content: Buffer, filters?: string[]): Buffer {
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R >>`,
    stream(content, filters),
  ]);
}

const empty = () => deflateSync(Buffer.from(" "));

/** A page box of 5 000 × 5 000 pt (a 200 DPI render would be 193 M pixels). */
const hugeBox = () => onePage(5000, 5000, empty());
/** A page of 1 × 14 400 pt (PDF's largest side). */
const thinPage = () => onePage(1, 14_400, empty());
/** A page of 20 × 2 000 pt: allowed, its renders scaled down to fit. */
const tallPage = () => onePage(20, 2000, empty());

/** Two million drawing operators in a small flate-compressed content stream. */
async function operators(): Promise<Buffer> {
  const chunk = Buffer.from("0 0 m 500 800 l S\n".repeat(100_000), "latin1");
  return onePage(595, 842, await deflateRepeated(chunk, 20));
}

/** A content stream deflated twice: 1 GB of spaces in a few KB. */
async function flateBomb(): Promise<Buffer> {
  const once = await deflateRepeated(Buffer.alloc(1 << 20, 0x20), 1024);
  return onePage(595, 842, deflateSync(once, { level: 9 }), ["/FlateDecode", "/FlateDecode"]);
}

/** The one page at the bottom of a page tree 10 000 levels deep. */
function deepTree(): Buffer {
  const depth = 10_000;
  const objects: Array<string | Buffer> = ["<< /Type /Catalog /Pages 2 0 R >>"];
  // Objects 2 … depth+1 are the tree's levels; depth+2 the page, depth+3 its content.
  for (let level = 0; level < depth; level += 1) {
    const id = level + 2;
    const parent = level === 0 ? "" : ` /Parent ${id - 1} 0 R`;
    objects.push(`<< /Type /Pages /Kids [${id + 1} 0 R] /Count 1${parent} >>`);
  }
  objects.push(
    `<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 595 842] /Contents ${depth + 3} 0 R >>`,
  );
  return pdfOf([...objects, stream(empty())]);
}

/** 10 000 pages, each with one line of text (no act). */
function tenThousandPages(): Buffer {
  const count = 10_000;
  const kids = Array.from({ length: count }, (_, i) => `${i + 5} 0 R`).join(" ");
  const text = deflateSync(
    Buffer.from("BT /F1 12 Tf 60 780 Td (Document de test sans aucun acte dentaire) Tj ET", "latin1"),
  );
  const objects: Array<string | Buffer> = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    stream(text),
  ];
  for (let i = 0; i < count; i += 1)
    objects.push(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>",
    );
  return pdfOf(objects);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A 16 000 × 16 000 PNG of zeros (1-bit grey: 32 MB inflated, 256 M pixels) in a few dozen KB. */
async function pngBomb(): Promise<Buffer> {
  const side = 16_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + side / 8) * 100); // 100 rows: filter byte 0, then zeros
  const idat = await deflateRepeated(rows, side / 100);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", idat),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A small JPEG whose header claims 60 000 × 60 000 pixels. */
async function jpegBomb(): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#ffffff" } })
    .jpeg()
    .toBuffer();
  for (let i = 2; i < jpeg.length - 9; i += 1) {
    if (jpeg[i] === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2)) {
      jpeg.writeUInt16BE(60_000, i + 5);
      jpeg.writeUInt16BE(60_000, i + 7);
      return jpeg;
    }
  }
  throw new Error("no SOF marker");
}

// --- Measures ------------------------------------------------------------------------------------

interface Measured {
  reading: QuoteReading;
  ms: number;
  probes: number[];
  rssGrowthMb: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Uploads `file` as a devis and reads it with the app's runner, probing the server meanwhile. */
async function readWhileProbing(file: UploadFile): Promise<Measured> {
  const requestId = await newRequestId(ctx.app, cookie, [file], { document_types: '["quote"]' });
  const rss0 = process.memoryUsage.rss();
  let peak = rss0;
  const probes: number[] = [];
  let reading = true;
  const probing = (async () => {
    while (reading) {
      const started = performance.now();
      const response = await ctx.app.inject({ method: "GET", url: "/api/health" });
      probes.push(performance.now() - started);
      expect(response.statusCode).toBe(200);
      peak = Math.max(peak, process.memoryUsage.rss());
      await sleep(50);
    }
  })();
  const started = performance.now();
  try {
    expect(await ctx.app.readings.drain()).toBe(1);
  } finally {
    reading = false;
  }
  const ms = performance.now() - started;
  await probing;
  const response = await ctx.app.inject({
    method: "GET",
    url: `/api/patient/requests/${requestId}/reading`,
    headers: { cookie },
  });
  const result = response.json().reading as QuoteReading;
  return { reading: result, ms, probes, rssGrowthMb: (peak - rss0) / 2 ** 20 };
}

/** Stated in the test's output: what the server's probes and memory were while the file was read. */
function expectServerUnaffected(name: string, measured: Measured) {
  const p99 = percentile(measured.probes, 99);
  const max = Math.max(...measured.probes);
  console.info(
    `${name}: ${measured.reading.status} in ${Math.round(measured.ms)} ms; ${measured.probes.length} probes, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms; server RSS +${measured.rssGrowthMb.toFixed(1)} MB`,
  );
  expect(measured.probes.length).toBeGreaterThan(0);
  expect(p99, `${name}: p99 of /api/health`).toBeLessThan(200);
  expect(max, `${name}: slowest /api/health`).toBeLessThan(1000);
  expect(measured.rssGrowthMb, `${name}: server RSS growth`).toBeLessThan(150);
  expect(measured.ms, `${name}: reading time`).toBeLessThan(TIME_LIMIT_S * 1000 + GRACE_MS);
}

const FAILURES: string[] = [
  READING_MESSAGES.damaged,
  READING_MESSAGES.timeout,
  READING_MESSAGES.failed,
  READING_MESSAGES.unreadableFile,
];

/** The preview of page 1 of the request's reading: never a 500; a PNG within the render caps. */
async function expectPreviewCapped(reading: QuoteReading) {
  const response = await ctx.app.inject({
    method: "GET",
    url: `/api/patient/requests/${reading.request_id}/reading/${reading.id}/pages/1`,
    headers: { cookie },
  });
  if (reading.status !== "done") {
    expect(response.statusCode).toBe(404);
    return;
  }
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  const meta = await sharp(response.rawPayload).metadata();
  expect(meta.width).toBeLessThanOrEqual(MAX_RENDER_SIDE);
  expect(meta.height).toBeLessThanOrEqual(MAX_RENDER_SIDE);
  expect((meta.width ?? 0) * (meta.height ?? 0)).toBeLessThanOrEqual(MAX_RENDER_PIXELS);
  return meta;
}

const pdfFile = (content: Buffer): UploadFile => ({ name: "devis.pdf", type: "application/pdf", content });

describe("hostile devis, read in the reading's own process", () => {
  it("a 5 000 × 5 000 pt page: refused as illisible, the server unaffected", async () => {
    const measured = await readWhileProbing(pdfFile(hugeBox()));
    expectServerUnaffected("5000 pt page", measured);
    expect(measured.reading).toMatchObject({ status: "failed", message: READING_MESSAGES.damaged });
    await expectPreviewCapped(measured.reading);
  });

  it("a 1 × 14 400 pt page: refused as illisible (never a 500)", async () => {
    const measured = await readWhileProbing(pdfFile(thinPage()));
    expectServerUnaffected("1 x 14400 pt page", measured);
    expect(measured.reading).toMatchObject({ status: "failed", message: READING_MESSAGES.damaged });
    await expectPreviewCapped(measured.reading);
  });

  it("a 20 × 2 000 pt page: read, and its preview scaled down to fit (not 1 000 × 100 000 px)", async () => {
    const measured = await readWhileProbing(pdfFile(tallPage()));
    expectServerUnaffected("20 x 2000 pt page", measured);
    expect(measured.reading.status).toBe("done");
    const meta = await expectPreviewCapped(measured.reading);
    expect(meta?.height).toBe(MAX_RENDER_SIDE);
  });

  it("two million drawing operators in 50 KB: stopped at its time or memory limit", async () => {
    const measured = await readWhileProbing(pdfFile(await operators()));
    expectServerUnaffected("2 M operators", measured);
    expect(measured.reading.status).toBe("failed");
    expect(FAILURES).toContain(measured.reading.message);
  });

  it("a flate bomb (1 GB of content in a few KB): stopped, the server unaffected", async () => {
    const measured = await readWhileProbing(pdfFile(await flateBomb()));
    expectServerUnaffected("flate bomb", measured);
    if (measured.reading.status === "failed") expect(FAILURES).toContain(measured.reading.message);
    else expect(measured.reading.result?.lines ?? []).toEqual([]);
    await expectPreviewCapped(measured.reading);
  });

  it("a page tree 10 000 levels deep: ends within its limit", async () => {
    const measured = await readWhileProbing(pdfFile(deepTree()));
    expectServerUnaffected("deep page tree", measured);
    if (measured.reading.status === "failed") expect(FAILURES).toContain(measured.reading.message);
    else expect(measured.reading.result?.lines ?? []).toEqual([]);
    await expectPreviewCapped(measured.reading);
  });

  it("a 10 000-page PDF: its first 4 pages read, nothing found", async () => {
    const measured = await readWhileProbing(pdfFile(tenThousandPages()));
    expectServerUnaffected("10 000 pages", measured);
    expect(measured.reading).toMatchObject({ status: "done", pages: 4 });
    expect(measured.reading.result?.lines).toEqual([]);
    await expectPreviewCapped(measured.reading);
  });

  it("a 16 000 × 16 000 PNG of zeros: refused from its header, never decoded", async () => {
    const content = await pngBomb();
    expect(content.length).toBeLessThan(100_000);
    const measured = await readWhileProbing({ name: "devis.png", type: "image/png", content });
    expectServerUnaffected("PNG bomb", measured);
    expect(measured.reading).toMatchObject({ status: "failed", message: READING_MESSAGES.damaged });
    await expectPreviewCapped(measured.reading);
  });

  it("a JPEG whose header claims 60 000 × 60 000 pixels: refused as illisible", async () => {
    const measured = await readWhileProbing({
      name: "devis.jpg",
      type: "image/jpeg",
      content: await jpegBomb(),
    });
    expectServerUnaffected("JPEG bomb", measured);
    expect(measured.reading).toMatchObject({ status: "failed", message: READING_MESSAGES.damaged });
    await expectPreviewCapped(measured.reading);
  });
});
