import { PASSWORD_MESSAGES } from "../../../shared/password";
import { loadPasswordEstimator } from "../../../shared/password-estimator";
import { validationError } from "../../errors";

/**
 * The check against common passwords, after the schema's length and class rule: zxcvbn with the
 * common and French dictionaries, plus the person's own name and e-mail as words to avoid.
 * Refused with a French 400 naming the field. Every path that sets a password calls it.
 */
export async function assertNotCommonPassword(
  password: string,
  field: string,
  userInputs: Array<string | null | undefined> = [],
): Promise<void> {
  const estimate = await loadPasswordEstimator();
  const inputs = userInputs
    .flatMap((v) => (v ? [v, ...v.split(/[@.\s_-]+/)] : []))
    .filter((v) => v.length > 2);
  const { score, dictionaryHit } = estimate(password, inputs);
  if (score < 2 || dictionaryHit)
    throw validationError([{ path: [field], message: PASSWORD_MESSAGES.common }]);
}
