import { useEffect, useState } from "react";
import {
  PASSWORD_RULE_HINT,
  type PasswordEstimate,
  passwordProblems,
  passwordStrength,
} from "../../../shared/password";
import { cn } from "../../lib/cn";

const BAR_COLOURS = ["bg-slate-200", "bg-red-600", "bg-amber-500", "bg-emerald-600", "bg-emerald-700"];

/**
 * zxcvbn's estimate of the password as it is now, made in a worker (passwordEstimates.ts, loaded with
 * the dictionaries once a password is being typed: the public pages' initial JavaScript does not
 * carry them). While the estimate of the password as it is now is being made (`current` false), the
 * last one made stays shown, a key behind, rather than a verdict flickering at every key; null
 * before the first, or if none could be made (the server still checks).
 */
function useEstimate(
  password: string,
  userInputs: string[],
): { estimate: PasswordEstimate | null; current: boolean } {
  const [result, setResult] = useState<{ key: string; estimate: PasswordEstimate } | null>(null);
  const key = JSON.stringify([password, userInputs]);
  useEffect(() => {
    const [current, inputs] = JSON.parse(key) as [string, string[]];
    if (!current) return;
    let alive = true;
    import("./passwordEstimates")
      .then(({ estimateLatest }) => estimateLatest(current, inputs))
      .then((estimate) => {
        if (alive && estimate) setResult({ key, estimate });
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [key]);
  return { estimate: result?.estimate ?? null, current: result?.key === key };
}

/**
 * The strength of a new password, as text and as a bar (the bar is decoration: the text says the
 * same), with what is missing in French. `id` lets the password input point to it
 * (aria-describedby). `userInputs` (name, e-mail) count as easy to guess. `fieldError`, the
 * field's own error shown above the meter, is not said a second time in its list.
 */
export function PasswordStrengthMeter({
  id,
  password,
  userInputs = [],
  fieldError,
}: {
  id?: string;
  password: string;
  userInputs?: string[];
  fieldError?: string | undefined;
}) {
  const { estimate, current } = useEstimate(password, userInputs);
  const { level, label } = passwordStrength(password, estimate);
  const lacking = password ? passwordProblems(password, estimate) : [];
  const problems = lacking.filter((problem) => problem !== fieldError);
  return (
    <div
      id={id}
      className="grid gap-1.5"
      data-testid="password-strength"
      // "estimating" until the estimate of this password is in: the verdict and its list may still change size.
      data-state={password && !current ? "estimating" : "ready"}
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
      ) : lacking.length === 0 ? (
        <p className="text-sm text-slate-600">{PASSWORD_RULE_HINT}</p>
      ) : null}
    </div>
  );
}
