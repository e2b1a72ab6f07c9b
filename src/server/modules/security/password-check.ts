import { Worker } from "node:worker_threads";
import type { PasswordEstimate } from "../../../shared/password";
import type { CheckAnswer, CheckRequest } from "./password-check.worker";

/**
 * zxcvbn's estimate of a new password, made in a worker thread (ADR 070): its matching costs 15 ms
 * for a typical password and up to half a second of CPU for a hostile one of 64 characters, which on
 * the server's own thread would hold every other request of the instance for as long. One thread,
 * started at the first check (its dictionaries load there, not in the server's thread), kept for
 * the next ones until it has been idle for IDLE_MS (it holds 50 to 70 MB); it holds the process
 * open only while a check is under way.
 */
const IDLE_MS = 5 * 60_000;
let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;
const pending = new Map<
  number,
  { resolve: (estimate: PasswordEstimate) => void; reject: (error: Error) => void }
>();
let nextId = 1;

/**
 * The thread's entry beside this file: password-check.worker.js in the compiled build
 * (scripts/lib/server-build.mjs emits one .js per source); in development and tests the .ts,
 * loaded through tsx's API from a two-line bootstrap (a thread does not take tsx's `--import`
 * on every Node version we support).
 */
function startWorker(): Worker {
  if (import.meta.url.endsWith(".js"))
    return new Worker(new URL("./password-check.worker.js", import.meta.url));
  const entry = new URL("./password-check.worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  return new Worker(bootstrap, { eval: true });
}

/** Every check waiting on a thread that failed gets its error; the next check starts another. */
function failed(thread: Worker, error: Error): void {
  if (worker !== thread) return;
  worker = null;
  clearIdleTimer();
  for (const waiting of pending.values()) waiting.reject(error);
  pending.clear();
  void thread.terminate().catch(() => {});
}

function clearIdleTimer(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
}

/** Nothing waiting: the thread no longer holds the process open, and stops after IDLE_MS. */
function idle(thread: Worker): void {
  thread.unref();
  clearIdleTimer();
  idleTimer = setTimeout(
    () => failed(thread, new Error("estimation du mot de passe : thread au repos")),
    IDLE_MS,
  );
  idleTimer.unref();
}

function thread(): Worker {
  if (worker) return worker;
  const started = startWorker();
  started.on("message", (answer: CheckAnswer) => {
    if (worker !== started) return; // stopped: its checks have had their error
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if (pending.size === 0) idle(started);
    if (!waiting) return;
    if ("error" in answer) waiting.reject(new Error(`estimation du mot de passe : ${answer.error}`));
    else waiting.resolve(answer.estimate);
  });
  started.on("error", (error) => failed(started, error));
  started.on("exit", (code) =>
    failed(started, new Error(`estimation du mot de passe : thread arrêté (${code})`)),
  );
  worker = started;
  return started;
}

/**
 * Stops the thread (tests): the checks waiting on it fail, the next one starts another. A server
 * need not call it: the thread holds the process open only while a check is under way.
 */
export async function stopPasswordChecks(): Promise<void> {
  const current = worker;
  if (!current) return;
  failed(current, new Error("estimation du mot de passe : thread arrêté"));
  await current.terminate();
}

/** zxcvbn's score of the password and whether it is a dictionary entry as a whole, off the server's thread. */
export function estimatePassword(password: string, inputs: string[]): Promise<PasswordEstimate> {
  const target = thread();
  const id = nextId++;
  const request: CheckRequest = { id, password, inputs };
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    clearIdleTimer();
    target.ref();
    target.postMessage(request);
  });
}
