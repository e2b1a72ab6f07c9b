import type { PasswordEstimate } from "../../../shared/password";
import { loadPasswordEstimator } from "../../../shared/password-estimator";

/** A question from passwordEstimates.ts, and its answer (null: the estimator failed here). */
export interface EstimateQuestion {
  id: number;
  password: string;
  inputs: string[];
}
export interface EstimateAnswer {
  id: number;
  estimate: PasswordEstimate | null;
}

/**
 * The meter's zxcvbn, in a worker of its own (ADR 070): the dictionaries load here, and an estimate
 * that takes a second for a long generated password does not freeze the page while it is typed.
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<EstimateQuestion>) => void) | null;
  postMessage(answer: EstimateAnswer): void;
};
const estimator = loadPasswordEstimator();
scope.onmessage = ({ data: { id, password, inputs } }) => {
  estimator
    .then((estimate) => estimate(password, inputs))
    .then(
      (estimate) => scope.postMessage({ id, estimate }),
      () => scope.postMessage({ id, estimate: null }),
    );
};
