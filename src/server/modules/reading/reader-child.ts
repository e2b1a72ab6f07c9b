import { setPriority } from "node:os";
import type { ChildAnswer, SandboxTask } from "./sandbox";

/**
 * The reading's own process (sandbox.ts, ADR 037): reads a devis, renders a page preview or squares a
 * profile photo for the server, one task at a time, and answers by IPC. Forked with a heap limit and
 * killed by the server past its time or memory; it prints nothing and holds no secret. Its arguments:
 * the OCR workers, its CPU priority (nice).
 */

const noop = () => {};
for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) console[method] = noop;

try {
  // The server gives it (READING_NICE, 19 unless set).
  setPriority(Number(process.argv[3] ?? 19));
} catch {
  // Already as low as allowed.
}

// An error nobody catches ends this process: the server fails the task and forks a fresh one.
process.on("uncaughtException", () => process.exit(1));
process.on("unhandledRejection", () => process.exit(1));
// The server is gone: nothing to read for.
process.on("disconnect", () => process.exit(0));

const ocrConcurrency = Number(process.argv[2] ?? 1) || 1;

// Everything a task needs is loaded before the child says it is ready: the server's time limit for
// a task then counts the task alone.
const [{ readQuote }, { setOcrConcurrency }, { renderPreview }, { resizeAvatar }] = await Promise.all([
  import("./read"),
  import("./ocr"),
  import("./preview"),
  import("../../files/avatar-image"),
]);
setOcrConcurrency(ocrConcurrency);
process.send?.({ ready: true });

async function perform(task: SandboxTask): Promise<unknown> {
  if (task.kind === "read") return readQuote(task.data, task.options);
  if (task.kind === "avatar") {
    const webp = await resizeAvatar(task.data);
    return new Uint8Array(webp.buffer, webp.byteOffset, webp.byteLength);
  }
  const png = await renderPreview(task.data, task.mime, task.page, task.width);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

process.on("message", (message: { id: number; task: SandboxTask }) => {
  void perform(message.task).then(
    (value) => answer({ id: message.id, ok: true, value }),
    (error: unknown) =>
      answer({
        id: message.id,
        ok: false,
        name: error instanceof Error ? error.name : "Error",
        // Only a ReadingError's message (a fixed French sentence) goes back; never another's.
        message: error instanceof Error && error.name === "ReadingError" ? error.message : "",
      }),
  );
});

function answer(value: ChildAnswer): void {
  process.send?.(value);
}
