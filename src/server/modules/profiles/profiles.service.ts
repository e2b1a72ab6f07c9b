import { verificationRequestProblem } from "../../../shared/policies/verification";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { PROFILE_MESSAGES } from "../../../shared/schemas/profile";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { sessionsChanged } from "../../access/session-cache";
import type { Db } from "../../db/index";
import type { ProfileRow } from "../../db/types";
import { AppError, forbidden } from "../../errors";
import { findOwnProfileForUpdate, markOwnVerificationRequested } from "./profiles.repo";

const MISSING_FIELD_MESSAGES = {
  rpps: PROFILE_MESSAGES.rppsMissing,
  practice_address: PROFILE_MESSAGES.addressMissing,
  practice_postcode: PROFILE_MESSAGES.postcodeMissing,
} as const;

/**
 * 'Demander une vérification' (an admin then verifies or refuses): in one transaction, checks the
 * saved profile with the shared policy (409 when verified or already asked, 400 naming what is
 * missing), records the date and writes the audit row. The admins' queue reads
 * verification_requested_at (issue 7).
 */
export async function requestVerification(db: Db, actor: Actor): Promise<ProfileRow> {
  const updated = await db.transaction().execute(async (trx) => {
    const profile = await findOwnProfileForUpdate(trx, actor);
    const problem = verificationRequestProblem(profile);
    if (problem?.kind === "not-dentist") throw forbidden();
    if (problem?.kind === "verified")
      throw new AppError(409, ERROR_CODES.conflict, PROFILE_MESSAGES.alreadyVerified);
    if (problem?.kind === "requested")
      throw new AppError(409, ERROR_CODES.conflict, PROFILE_MESSAGES.alreadyRequested);
    if (problem?.kind === "missing") {
      const fields = Object.fromEntries(problem.fields.map((f) => [f, MISSING_FIELD_MESSAGES[f]]));
      throw new AppError(400, ERROR_CODES.validation, PROFILE_MESSAGES.verificationMissing, fields);
    }
    const updated = await markOwnVerificationRequested(trx, actor, new Date());
    if (!updated) throw new AppError(409, ERROR_CODES.conflict, PROFILE_MESSAGES.alreadyRequested);
    await writeAudit(trx, {
      actorId: actor.userId,
      action: "verification.requested",
      subjectType: "profile",
      subjectId: actor.userId,
      details: { rpps: updated.rpps, practice_postcode: updated.practice_postcode },
    });
    return updated;
  });
  await sessionsChanged(db, actor.userId);
  return updated;
}
