import { once } from "node:events";
import { crc32, createDeflate, deflateSync } from "node:zlib";
import sharp from "sharp";

/**
 * Hostile devis for the reading's tests (issue 32), generated in memory: none is committed. Each is
 * small (a few KB to under 1 MB) and made to exhaust a reader that has no caps.
 */

/**
 * The files that are dear to make, each made once per process and handed out as a copy: the 1 GB flate
 * bomb (≈ 2.3 CPU-s of deflate), the images sharp encodes (the 12 000 px JPEG ≈ 3 CPU-s, a 7 000 px
 * PNG ≈ 0.9); the three hostile test files, which share their worker's modules, each sent the same.
 */
const made = new Map<string, Promise<Buffer>>();
async function madeOnce(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  let bytes = made.get(key);
  if (!bytes) {
    bytes = make();
    made.set(key, bytes);
    bytes.catch(() => made.delete(key));
  }
  return Buffer.from(await bytes);
}

/** `chunk` written `times` times through deflate, without holding the whole inflated data. */
export async function deflateRepeated(chunk: Buffer, times: number): Promise<Buffer> {
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
export function pdfOf(objects: Array<string | Buffer>): Buffer {
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
export function onePage(width: number, height: number, content: Buffer, filters?: string[]): Buffer {
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R >>`,
    stream(content, filters),
  ]);
}

const empty = () => deflateSync(Buffer.from(" "));

/** A page box of 5 000 × 5 000 pt (a 200 DPI render would be 193 M pixels). */
export const hugeBox = () => onePage(5000, 5000, empty());
/** A page of 1 × 14 400 pt (PDF's largest side). */
export const thinPage = () => onePage(1, 14_400, empty());
/** A page of 20 × 2 000 pt: allowed, its renders scaled down to fit. */
export const tallPage = () => onePage(20, 2000, empty());

/** Two million drawing operators in a small flate-compressed content stream. */
export async function operators(): Promise<Buffer> {
  const chunk = Buffer.from("0 0 m 500 800 l S\n".repeat(100_000), "latin1");
  return onePage(595, 842, await deflateRepeated(chunk, 20));
}

/** A content stream deflated twice: 1 GB of spaces in a few KB. */
export function flateBomb(): Promise<Buffer> {
  return madeOnce("flate-bomb", async () => {
    const once = await deflateRepeated(Buffer.alloc(1 << 20, 0x20), 1024);
    return onePage(595, 842, deflateSync(once, { level: 9 }), ["/FlateDecode", "/FlateDecode"]);
  });
}

/** The one page at the bottom of a page tree 10 000 levels deep. */
export function deepTree(): Buffer {
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
export function tenThousandPages(): Buffer {
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
export async function pngBomb(): Promise<Buffer> {
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

/** A real 12 000 × 12 000 JPEG (144 M pixels, within sharp's own limit) in under 1 MB. */
export const bigJpeg = () =>
  madeOnce("jpeg-12000", () =>
    sharp({ create: { width: 12_000, height: 12_000, channels: 3, background: "#000000" } })
      .greyscale()
      .jpeg({ quality: 10 })
      .toBuffer(),
  );

/** A small JPEG whose header claims 60 000 × 60 000 pixels. */
export async function jpegBomb(): Promise<Buffer> {
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

/**
 * A real `side` × `side` photo in under 1 MB, made to cost its decoder the most: an interlaced PNG
 * (Adam7) or a progressive JPEG is decoded whole before it can be shrunk (a 7 000 px one: ~220 MB).
 */
export const heavyImage = (format: "png" | "jpeg", side: number) =>
  madeOnce(`${format}-${side}`, () => {
    const image = sharp({ create: { width: side, height: side, channels: 4, background: "#8a6d5c" } });
    return format === "png"
      ? image.png({ progressive: true, compressionLevel: 9 }).toBuffer()
      : image.jpeg({ progressive: true, quality: 10 }).toBuffer();
  });
