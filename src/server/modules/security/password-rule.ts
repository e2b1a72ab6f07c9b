import { PASSWORD_MESSAGES } from "../../../shared/password";
import { validationError } from "../../errors";
import { estimatePassword } from "./password-check";

/**
 * The check against common passwords, after the schema's length and class rule: zxcvbn with the
 * common and French dictionaries, plus the person's own name and e-mail as words to avoid.
 * Refused with a French 400 naming the field. Every path that sets a password calls it. The
 * estimate is made off the server's thread (password-check.ts, ADR 070).
 */
export async function assertNotCommonPassword(
  password: string,
  field: string,
  userInputs: Array<string | null | undefined> = [],
): Promise<void> {
  const inputs = userInputs
    .flatMap((v) => (v ? [v, ...v.split(/[@.\s_-]+/)] : []))
    .filter((v) => v.length > 2);
  const { score, dictionaryHit } = await estimatePassword(password, inputs);
  if (score < 2 || dictionaryHit)
    throw validationError([{ path: [field], message: PASSWORD_MESSAGES.common }]);
}
