import type { PasswordEstimate } from "../../../shared/password";
import { loadPasswordEstimator } from "../../../shared/password-estimator";
import type { EstimateAnswer, EstimateQuestion } from "./password-estimate.worker";

type Estimate = (password: string, inputs: string[]) => Promise<PasswordEstimate | null>;

/** zxcvbn on the page's own thread: where there is no worker (tests' DOM), or the worker failed. */
const onThisThread: Estimate = async (password, inputs) => (await loadPasswordEstimator())(password, inputs);

/** zxcvbn in a worker (password-estimate.worker.ts), started at the first estimate; null without workers. */
function inWorker(): Estimate | null {
  if (typeof Worker !== "function") return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL("./password-estimate.worker.ts", import.meta.url), { type: "module" });
  } catch {
    return null;
  }
  const waiting = new Map<number, (estimate: PasswordEstimate | null) => void>();
  let nextId = 1;
  let broken = false;
  worker.onmessage = ({ data }: MessageEvent<EstimateAnswer>) => {
    waiting.get(data.id)?.(data.estimate);
    waiting.delete(data.id);
  };
  // A worker that cannot start or load its code: the page estimates on its own thread from then on.
  worker.onerror = () => {
    broken = true;
    worker.terminate();
    for (const answer of waiting.values()) answer(null);
    waiting.clear();
  };
  return async (password, inputs) => {
    if (!broken) {
      const id = nextId++;
      const question: EstimateQuestion = { id, password, inputs };
      const answer = await new Promise<PasswordEstimate | null>((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage(question);
      });
      if (answer || !broken) return answer;
    }
    return onThisThread(password, inputs);
  };
}

let estimate: Estimate | null = null;
let running = false;
let next: { password: string; inputs: string[]; answer: (estimate: PasswordEstimate | null) => void } | null =
  null;

/**
 * The estimate of the password as it is now: one at a time, and a question asked while one is being
 * answered replaces any other still waiting (answered null), so that typing a long password does not
 * queue an estimate per key. Null when superseded or when the estimator failed (the server checks).
 */
export function estimateLatest(password: string, inputs: string[]): Promise<PasswordEstimate | null> {
  return new Promise((answer) => {
    next?.answer(null);
    next = { password, inputs, answer };
    void pump();
  });
}

async function pump(): Promise<void> {
  if (running || !next) return;
  const job = next;
  next = null;
  running = true;
  estimate ??= inWorker() ?? onThisThread;
  try {
    job.answer(await estimate(job.password, job.inputs));
  } catch {
    job.answer(null);
  } finally {
    running = false;
    void pump();
  }
}
