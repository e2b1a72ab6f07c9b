import { normalizeRole, type Role } from "../../../shared/domain/roles";
import { fullNameOf, splitFullName } from "../../../shared/format/names";
import { holdOwnAccount } from "../../access/own-account";
import { sessionsChanged } from "../../access/session-cache";
import type { Db } from "../../db/index";
import type { ProfileRow, ProfileUpdate } from "../../db/types";

/**
 * Profiles. Functions named system* are the explicit bypass used by sign-up, the session loader,
 * the admin bootstrap and the demo seed; they are never called with input from another person.
 */

export interface NewProfileInput {
  id: string;
  email: string;
  role: unknown;
  firstName: string;
  lastName: string;
  phoneNumber?: string | null | undefined;
  city?: string | null | undefined;
  /** Dentists at sign-up (ADR 019), already checked against the communes dataset. */
  practicePostcode?: string | null | undefined;
  isAdmin?: boolean;
  isVerified?: boolean;
}

/**
 * The profile's rules: role normalised, names trimmed, full_name derived, empty phone/city stored as null.
 * Only an admin may have no role (null): admins are not patients unless they chose to be (issue 13).
 */
export function profileValues(input: NewProfileInput) {
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  const role: Role | null = input.role === null && input.isAdmin ? null : normalizeRole(input.role);
  return {
    id: input.id,
    email: input.email.trim().toLowerCase(),
    role,
    first_name: firstName,
    last_name: lastName,
    full_name: fullNameOf(firstName, lastName),
    phone_number: input.phoneNumber?.trim() || null,
    city: input.city?.trim() || null,
    ...(role === "dentist" && input.practicePostcode ? { practice_postcode: input.practicePostcode } : {}),
    bio: "",
    specialties: [] as string[],
    is_admin: input.isAdmin ?? false,
    // Only a dentist can be verified, and only by an admin (issue 7); the bootstrap may pass true.
    is_verified: role === "dentist" ? (input.isVerified ?? false) : false,
  };
}

export async function systemInsertProfile(db: Db, input: NewProfileInput): Promise<ProfileRow> {
  return db.insertInto("profiles").values(profileValues(input)).returningAll().executeTakeFirstOrThrow();
}

export async function systemFindProfile(db: Db, userId: string): Promise<ProfileRow | undefined> {
  return db.selectFrom("profiles").selectAll().where("id", "=", userId).executeTakeFirst();
}

/**
 * Fallback: a signed-in user without a profile gets one, role patient, first name from the
 * account name (default 'User'); nothing is created when the account has no e-mail.
 */
export async function systemEnsureProfile(
  db: Db,
  user: { id: string; email: string | null | undefined; name: string | null | undefined },
): Promise<ProfileRow | undefined> {
  const existing = await systemFindProfile(db, user.id);
  if (existing) return existing;
  if (!user.email) return undefined;
  const { firstName, lastName } = splitFullName(user.name ?? "");
  await db
    .insertInto("profiles")
    .values(
      profileValues({
        id: user.id,
        email: user.email,
        role: "patient",
        firstName: firstName || "User",
        lastName,
      }),
    )
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  return systemFindProfile(db, user.id);
}

/**
 * Updates the actor's own profile (never anyone else's) and returns it, inside the caller's
 * transaction: the caller drops the actor's cached sessions once it has committed (ADR 026).
 */
export async function updateOwnProfile(
  db: Db,
  actor: { userId: string },
  values: ProfileUpdate,
): Promise<ProfileRow> {
  return db
    .updateTable("profiles")
    .set({ ...values, updated_at: new Date() })
    .where("id", "=", actor.userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Sets the actor's avatar (a file already stored under `avatars/{userId}/`), or 401 when the account
 * was erased while the image was streaming (access/own-account): the caller removes the file.
 */
export async function updateOwnAvatar(
  db: Db,
  actor: { userId: string },
  avatarUrl: string,
): Promise<ProfileRow> {
  const row = await db.transaction().execute(async (trx) => {
    await holdOwnAccount(trx, actor);
    return trx
      .updateTable("profiles")
      .set({ avatar_url: avatarUrl, updated_at: new Date() })
      .where("id", "=", actor.userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  await sessionsChanged(db, actor.userId);
  return row;
}

/** The actor's own profile, locked until the end of the transaction. */
export async function findOwnProfileForUpdate(db: Db, actor: { userId: string }): Promise<ProfileRow> {
  return db
    .selectFrom("profiles")
    .selectAll()
    .where("id", "=", actor.userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * Marks the actor's verification request as sent, only while they are neither verified nor already
 * waiting (the condition holds even if two requests race). Undefined when it did not apply.
 */
export async function markOwnVerificationRequested(
  db: Db,
  actor: { userId: string },
  at: Date,
): Promise<ProfileRow | undefined> {
  return db
    .updateTable("profiles")
    .set({ verification_requested_at: at, updated_at: at })
    .where("id", "=", actor.userId)
    .where("role", "=", "dentist")
    .where("is_verified", "=", false)
    .where("verification_requested_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}
