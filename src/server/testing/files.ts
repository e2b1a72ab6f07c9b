import { Readable } from "node:stream";
import yauzl from "yauzl";
import { tinyPdf } from "../sample-files";

export { tinyPdf, tinyPng } from "../sample-files";

/** Files for tests: the real samples, and things that are not what they claim. */

/** A Windows executable header: what a renamed .exe starts with. */
export function fakeExe(): Buffer {
  const buf = Buffer.alloc(512);
  buf.write("MZ", 0, "ascii");
  buf.writeUInt32LE(0x80, 0x3c);
  buf.write("PE\0\0", 0x80, "binary");
  return buf;
}

/** A PDF padded to `bytes` bytes (to test size limits). */
export function pdfOfSize(bytes: number): Buffer {
  const head = tinyPdf();
  return Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length), 0x20)]);
}

/** A multipart/form-data body for app.inject. */
export function multipart(
  fields: Record<string, string>,
  files: Array<{ field: string; name: string; type: string; content: Buffer }> = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sourio${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** The entries of a zip archive (name and uncompressed size), in archive order. */
export function zipEntries(buffer: Buffer): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: { name: string; size: number }[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on("end", () => resolve(entries));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

/** The entries of a zip archive with their uncompressed content, by name. */
export function zipContents(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const contents = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            contents.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(contents));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

/**
 * A body sent in two pieces: the first at once, the rest when `release` is called. `reading`
 * resolves once the server asks for more than the first piece (it is storing the file): an upload
 * still streaming, for what happens meanwhile (issue 32).
 */
export function slowBody(payload: Buffer, splitAt: number) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reading!: () => void;
  const waiting = new Promise<void>((resolve) => {
    reading = resolve;
  });
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent === 0) {
        sent = 1;
        this.push(payload.subarray(0, splitAt));
        return;
      }
      if (sent === 1) {
        sent = 2;
        reading();
        void released.then(() => {
          this.push(payload.subarray(splitAt));
          this.push(null);
        });
      }
    },
  });
  return { stream, release, reading: waiting };
}
