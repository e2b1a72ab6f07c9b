import { useEffect, useState } from "react";
import {
  PASSWORD_RULE_HINT,
  type PasswordEstimate,
  passwordProblems,
  passwordStrength,
} from "../../../shared/password";
import type { PasswordEstimator } from "../../../shared/password-estimator";
import { cn } from "../../lib/cn";

const BAR_COLOURS = ["bg-slate-200", "bg-red-600", "bg-amber-500", "bg-emerald-600", "bg-emerald-700"];

/**
 * Loads zxcvbn and its dictionaries (a separate chunk) once a password is being typed: the public
 * pages' initial JavaScript does not carry them. Null until loaded (or if loading failed: the
 * server still checks).
 */
function useEstimator(active: boolean): PasswordEstimator | null {
  const [estimator, setEstimator] = useState<PasswordEstimator | null>(null);
  useEffect(() => {
    if (!active || estimator) return;
    let alive = true;
    import("../../../shared/password-estimator")
      .then(({ loadPasswordEstimator }) => loadPasswordEstimator())
      .then((loaded) => {
        if (alive) setEstimator(() => loaded);
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [active, estimator]);
  return estimator;
}

/**
 * The strength of a new password, as text and as a bar (the bar is decoration: the text says the
 * same), with what is missing in French. `id` lets the password input point to it
 * (aria-describedby). `userInputs` (name, e-mail) count as easy to guess.
 */
export function PasswordStrengthMeter({
  id,
  password,
  userInputs = [],
}: {
  id?: string;
  password: string;
  userInputs?: string[];
}) {
  const estimator = useEstimator(password.length > 0);
  const estimate: PasswordEstimate | null = estimator && password ? estimator(password, userInputs) : null;
  const { level, label } = passwordStrength(password, estimate);
  const problems = password ? passwordProblems(password, estimate) : [];
  return (
    <div
      id={id}
      className="grid gap-1.5"
      data-testid="password-strength"
      // "estimating" while the estimator loads: the verdict and its list may still change size.
      data-state={password && !estimate ? "estimating" : "ready"}
    >
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span
            key={step}
            className={cn("h-1.5 flex-1 rounded-full", step <= level ? BAR_COLOURS[level] : "bg-slate-200")}
          />
        ))}
      </div>
      <p className="text-sm text-slate-700" aria-live="polite">
        Robustesse du mot de passe{"\u202f"}: <span className="font-medium">{label}</span>
      </p>
      {problems.length > 0 ? (
        <ul className="text-sm text-slate-600">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">{PASSWORD_RULE_HINT}</p>
      )}
    </div>
  );
}
