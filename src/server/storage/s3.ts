import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline, Readable, Transform } from "node:stream";
import { pipeline as pipe } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { Storage } from "./storage";

/** Same rule as LocalStorage: random keys under an owner folder, one short lower-case extension. */
const SAFE_KEY = /^[a-zA-Z0-9_-]+(\/[a-zA-Z0-9_-]+)*\.[a-z0-9]{1,8}$/;
const PART = ".part";
/** Files larger than this are sent as a multipart upload; smaller ones in one PutObject. */
export const MULTIPART_THRESHOLD = 64 * 1024 * 1024;
/** A multipart upload's part (S3: at least 5 MB but the last, at most 10 000 parts). */
export const PART_SIZE = 16 * 1024 * 1024;
const MAX_PARTS = 10_000;

export interface S3Options {
  /** Above this size (bytes) a file is sent in parts; default MULTIPART_THRESHOLD. */
  multipartThreshold?: number;
  /** The size of a part (bytes); default PART_SIZE, raised when a file would need over 10 000. */
  partSize?: number;
  /** Where uploads are spooled before they are sent; default the OS's temporary folder. */
  spoolDir?: string;
  /** How many keys a listing asks for at a time; default the store's own page (1000 on S3). */
  listPageSize?: number;
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/**
 * A client that works with AWS, the hosts' S3-compatible stores, MinIO and s3rver: recent SDK
 * versions add checksum headers by default, which several S3-compatible servers refuse, so
 * checksums are sent and checked only where the API requires them.
 */
export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** The error callers already meet with LocalStorage when a file is missing. */
function missing(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`fichier absent du stockage : ${key}`), { code: "ENOENT" });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === "NoSuchKey" ||
    e?.name === "NotFound" ||
    e?.Code === "NoSuchKey" ||
    e?.$metadata?.httpStatusCode === 404
  );
}

/** Bytes [start, end) of a spooled file, streamed from the disk (an empty range has no stream). */
function range(file: string, start: number, end: number): Readable | Buffer {
  return end > start ? createReadStream(file, { start, end: end - 1 }) : Buffer.alloc(0);
}

/** Closes a body the SDK has not read to its end (a failed request). */
function release(body: Readable | Buffer): void {
  if (!Buffer.isBuffer(body)) body.destroy();
}

/**
 * Files in an S3-compatible bucket (issue 18, ADR 022). The bucket stays private: no public URL,
 * every download goes through the app (its authorization and access log). An upload is first
 * streamed to a private temporary file (0600, in a 0700 folder, removed whatever happens; what
 * reaches it is already encrypted by EncryptedStorage), then sent from that file with its length
 * known: one PutObject up to `multipartThreshold`, a multipart upload of `partSize` parts, one at a
 * time, above it. Memory stays constant whatever the size (ADR 022). A source that fails sends
 * nothing; an object appears only when complete; a failed multipart upload is aborted. Unfinished
 * multipart uploads are listed as `<key>.part` (where the store can list them), so the sweeper
 * treats them like LocalStorage's unfinished files; removing `<key>.part` aborts them.
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly multipartThreshold: number;
  private readonly partSize: number;
  private readonly spoolDir: string | undefined;
  private readonly listPageSize: number | undefined;

  constructor(settings: S3Settings | { client: S3Client; bucket: string }, options: S3Options = {}) {
    this.client = "client" in settings ? settings.client : s3Client(settings);
    this.bucket = settings.bucket;
    this.multipartThreshold = options.multipartThreshold ?? MULTIPART_THRESHOLD;
    this.partSize = options.partSize ?? PART_SIZE;
    this.spoolDir = options.spoolDir;
    this.listPageSize = options.listPageSize;
  }

  private check(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`clé de stockage invalide : ${key}`);
    return key;
  }

  async write(key: string, source: Readable): Promise<number> {
    this.check(key);
    // mkdtemp creates the folder 0700; the file inside is 0600.
    const folder = await mkdtemp(path.join(this.spoolDir ?? tmpdir(), "sourio-upload-"));
    try {
      const file = path.join(folder, "body");
      await pipe(source, createWriteStream(file, { flags: "wx", mode: 0o600 }));
      const { size } = await stat(file);
      if (size > this.multipartThreshold) await this.sendInParts(key, file, size);
      else {
        const Body = range(file, 0, size);
        try {
          await this.client.send(
            new PutObjectCommand({ Bucket: this.bucket, Key: key, Body, ContentLength: size }),
          );
        } finally {
          release(Body);
        }
      }
      return size;
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** A multipart upload from the spooled file, one part in flight; aborted if anything fails. */
  private async sendInParts(key: string, file: string, size: number): Promise<void> {
    const partSize = Math.max(this.partSize, Math.ceil(size / MAX_PARTS));
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }),
    );
    if (!UploadId) throw new Error("le stockage n'a pas ouvert l'envoi en plusieurs parties");
    try {
      const parts: CompletedPart[] = [];
      for (let start = 0, PartNumber = 1; start < size; start += partSize, PartNumber += 1) {
        const end = Math.min(start + partSize, size);
        const Body = range(file, start, end);
        try {
          const { ETag } = await this.client.send(
            new UploadPartCommand({
              Bucket: this.bucket,
              Key: key,
              UploadId,
              PartNumber,
              Body,
              ContentLength: end - start,
            }),
          );
          parts.push({ ETag, PartNumber });
        } finally {
          release(Body);
        }
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      // The first error is the one that matters; an abort that fails too (s3rver cannot abort)
      // leaves parts the bucket's lifecycle rule removes, never an object.
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId }))
        .catch(() => {});
      throw error;
    }
  }

  /** A stream of the object; the request starts when the stream is first read. */
  read(key: string): Readable {
    this.check(key);
    const abort = new AbortController();
    let body: Readable | null = null;
    let started = false;
    const out = new Readable({
      read: () => {
        if (body) {
          body.resume();
          return;
        }
        if (started) return;
        started = true;
        this.client
          .send(new GetObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: abort.signal })
          .then(
            (response) => {
              const stream = response.Body as Readable;
              if (out.destroyed) {
                stream.destroy();
                return;
              }
              body = stream;
              stream.on("data", (chunk: Buffer) => {
                if (!out.push(chunk)) stream.pause();
              });
              stream.on("end", () => out.push(null));
              stream.on("error", (error) => out.destroy(error));
            },
            (error) => out.destroy(isNotFound(error) ? missing(key) : (error as Error)),
          );
      },
      destroy: (error, done) => {
        if (body) body.destroy();
        else if (started) abort.abort();
        done(error);
      },
    });
    return out;
  }

  async size(key: string): Promise<number | null> {
    if (!SAFE_KEY.test(key)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    if (key.endsWith(PART)) {
      await this.abortUploads(this.check(key.slice(0, -PART.length)));
      return;
    }
    // DeleteObject answers 204 whether or not the object existed.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.check(key) }));
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    // ListObjects (v1) paged by marker (the last key seen): every S3-compatible store has it, while
    // s3rver's v2 continuation tokens use DES, which OpenSSL 3 no longer offers (a 500 past 1000 keys).
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListObjectsCommand({ Bucket: this.bucket, Marker: marker, MaxKeys: this.listPageSize }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, modifiedAt: object.LastModified ?? new Date() };
      }
      const last = page.Contents?.at(-1)?.Key;
      if (!page.IsTruncated || !last) break;
      marker = page.NextMarker ?? last;
    }
    for await (const upload of this.uploads()) {
      yield { key: `${upload.key}${PART}`, modifiedAt: upload.initiated };
    }
  }

  async readHead(key: string, length: number): Promise<Buffer> {
    this.check(key);
    // The size first: a range on an empty object is "not satisfiable" (s3rver even drops the
    // connection), and rotation, the only caller, reads a few heads, not many.
    const size = await this.size(key);
    if (size === null) throw missing(key);
    const end = Math.min(length, size);
    if (end <= 0) return Buffer.alloc(0);
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${end - 1}` }),
      );
      const body = response.Body as { transformToByteArray(): Promise<Uint8Array> };
      // A store that ignores Range sends the whole object.
      return Buffer.from(await body.transformToByteArray()).subarray(0, end);
    } catch (error) {
      if (isNotFound(error)) throw missing(key);
      throw error;
    }
  }

  /**
   * Objects cannot be changed in place: the object is copied with its new head (ADR 013), streamed,
   * so memory stays bounded. The new version replaces the old one only once it is complete.
   */
  async replaceHead(key: string, head: Buffer): Promise<void> {
    this.check(key);
    if ((await this.size(key)) === null) throw missing(key);
    let at = 0;
    const patch = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (at < head.length) {
          const copy = Buffer.from(chunk);
          const n = Math.min(head.length - at, copy.length);
          head.copy(copy, 0, at, at + n);
          at += n;
          done(null, copy);
          return;
        }
        done(null, chunk);
      },
      flush(done) {
        // Like a write past the end of a local file: a head longer than the object extends it.
        done(null, at < head.length ? head.subarray(at) : undefined);
      },
    });
    await this.write(
      key,
      pipeline(this.read(key), patch, () => {}),
    );
  }

  /**
   * Whether the bucket exists and these credentials may use it (the health check): HeadBucket
   * fails on a missing bucket (404), wrong credentials (403) or an unreachable store.
   */
  async ping(): Promise<boolean> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.client.destroy();
  }

  /** Unfinished multipart uploads; none where the store cannot list them (s3rver). */
  private async *uploads(prefix?: string): AsyncIterable<{ key: string; uploadId: string; initiated: Date }> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      let page: ListMultipartUploadsCommandOutput;
      try {
        page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: prefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
      } catch (error) {
        const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === "NotImplemented" || e.$metadata?.httpStatusCode === 501) return;
        throw error;
      }
      for (const upload of page.Uploads ?? []) {
        if (upload.Key && upload.UploadId && (prefix === undefined || upload.Key === prefix))
          yield { key: upload.Key, uploadId: upload.UploadId, initiated: upload.Initiated ?? new Date() };
      }
      if (!page.IsTruncated) return;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    } while (keyMarker);
  }

  private async abortUploads(key: string): Promise<void> {
    for await (const upload of this.uploads(key)) {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: upload.uploadId }),
      );
    }
  }
}
