import { writeAudit } from "./access/audit";
import { type Auth, forgetResetLinks, forgetSecondFactor } from "./auth";
import { credentialOf } from "./db/credentials";
import type { Db } from "./db/index";
import { systemFindProfile, systemInsertProfile } from "./modules/profiles/profiles.repo";

interface Deps {
  db: Db;
  auth: Auth;
}

export interface NewAccount {
  email: string;
  password: string;
  /** null: an administrator who is neither patient nor dentist. */
  role: "patient" | "dentist" | null;
  firstName: string;
  lastName: string;
  city?: string;
  phoneNumber?: string;
  isAdmin?: boolean;
  isVerified?: boolean;
  specialties?: string[];
  bio?: string;
}

/** Creates an account with its profile, outside any HTTP request (admin bootstrap, demo seed). */
export async function systemCreateAccount(deps: Deps, account: NewAccount): Promise<string> {
  const email = account.email.trim().toLowerCase();
  const { user } = await deps.auth.api.signUpEmail({
    body: { name: `${account.firstName} ${account.lastName}`.trim(), email, password: account.password },
  });
  // The sign-up signs in (autoSignIn, for people signing up): here nobody holds that session, which
  // would sit 30 days in the account's « Appareils connectés » as an « Appareil inconnu ».
  await (await deps.auth.$context).internalAdapter.deleteUserSessions(user.id);
  await systemInsertProfile(deps.db, {
    id: user.id,
    email,
    role: account.role,
    firstName: account.firstName,
    lastName: account.lastName,
    city: account.city ?? null,
    phoneNumber: account.phoneNumber ?? null,
    isAdmin: account.isAdmin ?? false,
    isVerified: account.isVerified ?? false,
  });
  if (account.specialties || account.bio) {
    await deps.db
      .updateTable("profiles")
      .set({ specialties: account.specialties ?? [], bio: account.bio ?? "" })
      .where("id", "=", user.id)
      .execute();
  }
  return user.id;
}

/**
 * Makes sure an administrator account exists with this e-mail and password (ADMIN_EMAIL /
 * ADMIN_PASSWORD at start-up, `npm run create-admin`). An existing account keeps its data, gets the
 * admin flag and the given password. The grant is written to the audit log.
 */
export async function ensureAdmin(
  deps: Deps,
  email: string,
  password: string,
): Promise<"created" | "updated"> {
  const normalized = email.trim().toLowerCase();
  const existing = await deps.db
    .selectFrom("users")
    .select(["id", "name"])
    .where("email", "=", normalized)
    .executeTakeFirst();
  let userId: string;
  let outcome: "created" | "updated";
  if (!existing) {
    userId = await systemCreateAccount(deps, {
      email: normalized,
      password,
      role: null,
      firstName: "Administrateur",
      lastName: "",
      isAdmin: true,
    });
    outcome = "created";
  } else {
    userId = existing.id;
    const ctx = await deps.auth.$context;
    const credential = await credentialOf(deps.db, userId);
    const samePassword = credential?.password
      ? await ctx.password.verify({ hash: credential.password, password })
      : false;
    const wasAdmin = (await systemFindProfile(deps.db, userId))?.is_admin === true;
    if (!samePassword) {
      const hash = await ctx.password.hash(password);
      if (credential) await ctx.internalAdapter.updatePassword(userId, hash);
      else
        await ctx.internalAdapter.linkAccount({
          userId,
          providerId: "credential",
          accountId: userId,
          password: hash,
        });
    }
    // A promotion or a new password ends the account's sessions and reset links: whoever signed up
    // with that address, or signed in with the old password, does not become an administrator. An
    // administrator whose password is already this one (every start with ADMIN_PASSWORD) keeps his.
    if (!samePassword || !wasAdmin) {
      await ctx.internalAdapter.deleteUserSessions(userId);
      await forgetResetLinks(deps.db, userId);
    }
    if (!(await systemFindProfile(deps.db, userId))) {
      await systemInsertProfile(deps.db, {
        id: userId,
        email: normalized,
        role: null,
        isAdmin: true,
        firstName: existing.name.split(" ")[0] || "Administrateur",
        lastName: existing.name.split(" ").slice(1).join(" "),
      });
    }
    await deps.db
      .updateTable("profiles")
      .set({ is_admin: true, updated_at: new Date() })
      .where("id", "=", userId)
      .execute();
    outcome = "updated";
  }
  await writeAudit(deps.db, {
    actorId: null,
    action: "admin.ensured",
    subjectType: "profile",
    subjectId: userId,
    details: { outcome },
  });
  return outcome;
}

/**
 * `npm run create-admin -- … --remove-two-factor` (ADR 098, addendum of 06/12): the way back for an
 * administrator who lost both phone and recovery codes. No administrator can take it off another's
 * account from the screens; whoever runs this holds the server and its configuration. Same as the
 * team's removal for a patient or a dentist (the flag, the secret, the remembered devices, every
 * session), audited without an actor. False when the account did not have it.
 */
export async function systemRemoveTwoFactor(deps: Deps, email: string, now = new Date()): Promise<boolean> {
  const userId = await deps.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "two_factor_enabled"])
      .where("email", "=", email.trim().toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!user?.two_factor_enabled) return null;
    await forgetSecondFactor(trx, user.id, now);
    await writeAudit(trx, {
      actorId: null,
      action: "account.two_factor_removed_on_server",
      subjectType: "profile",
      subjectId: user.id,
      at: now,
    });
    return user.id;
  });
  if (userId === null) return false;
  // Through Better Auth, as the password's change above: the session cache forgets them (ADR 026).
  await (await deps.auth.$context).internalAdapter.deleteUserSessions(userId);
  return true;
}
