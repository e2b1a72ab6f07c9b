import {
  VERIFIED_FIELDS,
  verificationRequestProblem,
  verificationStateOf,
} from "../../../shared/policies/verification";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { dentistProfileIssues, PROFILE_MESSAGES, type Profile } from "../../../shared/schemas/profile";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { sessionsChanged } from "../../access/session-cache";
import type { Db } from "../../db/index";
import type { ProfileRow, ProfileUpdate } from "../../db/types";
import { AppError, forbidden } from "../../errors";
import { findOwnProfileForUpdate, markOwnVerificationRequested, updateOwnProfile } from "./profiles.repo";

/** A profile row as the API shows it (the profile and account routes). */
export function toProfileDto(row: ProfileRow): Profile {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: row.full_name,
    phone_number: row.phone_number,
    city: row.city,
    bio: row.bio,
    specialties: row.specialties ?? [],
    avatar_url: row.avatar_url,
    is_admin: row.is_admin,
    is_verified: row.is_verified,
    rpps: row.rpps,
    practice_address: row.practice_address,
    practice_postcode: row.practice_postcode,
    postal_code: row.postal_code ?? null,
    verification_requested_at: row.verification_requested_at
      ? new Date(row.verification_requested_at).toISOString()
      : null,
    birth_date: row.birth_date ?? null,
    verification_refusal_reason: row.verification_refusal_reason ?? null,
    verification_state: verificationStateOf(row),
    email_preferences: {
      messages: row.email_messages,
      reminders: row.email_reminders,
      reviews: row.email_reviews,
      new_requests: row.email_new_requests,
    },
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

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
export async function requestVerification(db: Db, actor: Actor, now = new Date()): Promise<ProfileRow> {
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
    const updated = await markOwnVerificationRequested(trx, actor, now);
    if (!updated) throw new AppError(409, ERROR_CODES.conflict, PROFILE_MESSAGES.alreadyRequested);
    await writeAudit(trx, {
      actorId: actor.userId,
      action: "verification.requested",
      subjectType: "profile",
      subjectId: actor.userId,
      details: { rpps: updated.rpps, practice_postcode: updated.practice_postcode },
      at: now,
    });
    return updated;
  });
  await sessionsChanged(db, actor.userId);
  return updated;
}

/**
 * 'Enregistrer' on one's own profile, in one transaction on the locked row. A verified dentist's RPPS
 * number and practice (VERIFIED_FIELDS) stay as the team checked them (ADR 075): a change is refused
 * (400 naming each field), the same values are accepted, so the form saves everything else.
 */
export async function updateProfile(db: Db, actor: Actor, values: ProfileUpdate): Promise<ProfileRow> {
  const updated = await db.transaction().execute(async (trx) => {
    const current = await findOwnProfileForUpdate(trx, actor);
    const missing = current.role === "dentist" ? dentistProfileIssues(values) : {};
    if (Object.keys(missing).length > 0)
      throw new AppError(400, ERROR_CODES.validation, Object.values(missing)[0] ?? "", missing);
    if (current.role === "dentist" && current.is_verified) {
      const changed = VERIFIED_FIELDS.filter((f) => values[f] !== undefined && values[f] !== current[f]);
      if (changed.length > 0)
        throw new AppError(
          400,
          ERROR_CODES.validation,
          PROFILE_MESSAGES.verifiedFieldsLocked,
          Object.fromEntries(changed.map((f) => [f, PROFILE_MESSAGES.verifiedFieldLocked])),
        );
    }
    return updateOwnProfile(trx, actor, values);
  });
  await sessionsChanged(db, actor.userId);
  return updated;
}
