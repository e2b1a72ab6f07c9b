import { parentPort } from "node:worker_threads";
import type { PasswordEstimate } from "../../../shared/password";
import { loadPasswordEstimator } from "../../../shared/password-estimator";

/** A check asked by password-check.ts: the password and the words to avoid (name, e-mail). */
export interface CheckRequest {
  id: number;
  password: string;
  inputs: string[];
}

/** Its answer: the estimate, or a failure's message (never the password). */
export type CheckAnswer = { id: number; estimate: PasswordEstimate } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error("password-check.worker : à lancer comme thread de travail");
const estimate = await loadPasswordEstimator();
port.on("message", ({ id, password, inputs }: CheckRequest) => {
  let answer: CheckAnswer;
  try {
    answer = { id, estimate: estimate(password, inputs) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.name : "Error" };
  }
  port.postMessage(answer);
});
