import { randomUUID } from "node:crypto";
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { type S3Settings, s3Client } from "../storage/s3";

// s3rver ships no types: the little of it the tests use.
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string; configs: never[] }>;
}) => S3rverInstance;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

// The SDK warns once per process that its 2027 releases will need Node 22; on Node 20 that line
// would be printed in every test run. Only this warning is turned off (its documented switch).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

export interface TestS3 {
  /** Settings for the bucket created at start, as S3_* variables would give them. */
  settings: S3Settings;
  /** The same settings as environment variables, for loadConfig / createTestContext. */
  env: Record<string, string>;
  /** Creates another empty bucket on the same server (one per test keeps tests apart). */
  newBucket(): Promise<S3Settings>;
  /**
   * Every object of `bucket` as the server holds it, read from its own folder (so synchronously,
   * and not through the Storage under test), with its unfinished multipart uploads as `<key>.part`.
   */
  storedKeys(bucket: string): string[];
  /** An object's bytes as the server holds them (what the store keeps: our encrypted form). */
  storedObject(bucket: string, key: string): Buffer;
  close(): Promise<void>;
}

/** A real S3 server (s3rver, over HTTP on a free port, files in a temporary folder) for tests. */
export async function startS3(): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "sourio-s3-"));
  const bucket = `sourio-${randomUUID().slice(0, 8)}`;
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const base: Omit<S3Settings, "bucket"> = {
    endpoint: `http://127.0.0.1:${port}`,
    region: "eu-west-3",
    // s3rver's fixed credentials.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  const settings: S3Settings = { ...base, bucket };
  return {
    settings,
    env: {
      S3_ENDPOINT: settings.endpoint,
      S3_BUCKET: settings.bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    async newBucket() {
      const name = `sourio-${randomUUID().slice(0, 8)}`;
      const client = s3Client({ ...base, bucket: name });
      try {
        await client.send(new CreateBucketCommand({ Bucket: name }));
      } finally {
        client.destroy();
      }
      return { ...base, bucket: name };
    },
    storedKeys(bucket) {
      return bucketKeys(path.join(directory, bucket));
    },
    storedObject(bucket, key) {
      return readFileSync(path.join(directory, bucket, `${key}${OBJECT}`));
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

// s3rver's folder layout (its FilesystemStore): `<bucket>/<key>._S3rver_object`, and each unfinished
// multipart upload in `<bucket>/._S3rver_uploads/<id>/`, its key in a `key` file.
const OBJECT = "._S3rver_object";
const UPLOADS = "._S3rver_uploads";

function bucketKeys(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  const keys: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep);
    if (relative[0] === UPLOADS) {
      if (relative.length === 3 && relative[2] === "key")
        keys.push(`${readFileSync(path.join(entry.parentPath, entry.name), "utf8")}.part`);
    } else if (entry.name.endsWith(OBJECT)) keys.push(relative.join("/").slice(0, -OBJECT.length));
  }
  return keys;
}
