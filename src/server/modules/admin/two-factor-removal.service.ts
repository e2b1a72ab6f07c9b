import { formatDetailDateTime } from "../../../shared/format/dates";
import { securityPath } from "../../../shared/schemas/account";
import { ADMIN_MESSAGES } from "../../../shared/schemas/admin";
import type { Actor } from "../../access/actor";
import { writeAudit } from "../../access/audit";
import { sessionsChanged } from "../../access/session-cache";
import { forgetSecondFactor } from "../../auth";
import type { AppConfig } from "../../config";
import type { Db } from "../../db/index";
import { AppError, forbidden, notFound } from "../../errors";
import { type MailAfterCommit, mailAfterCommit } from "../../mail/mailer";
import { twoFactorRemovedMail } from "../../mail/templates";

interface Deps extends MailAfterCommit {
  db: Db;
  config: AppConfig;
  clock: () => Date;
}

/**
 * « Retirer la double authentification » (ADR 098): a patient or a dentist who lost both
 * their phone and their recovery codes asks the team, who check who they are off the platform (a
 * call to the account's number, the dentist's practice), then remove it here. In one transaction
 * with its audit row: the plugin's row and flag, the devices remembered for 30 days, and every
 * session of the person (a lost phone may hold one). Then the person is e-mailed. Never an
 * administrator's account, nor one without it (409).
 */
export async function removeTwoFactor(deps: Deps, admin: Actor, userId: string): Promise<void> {
  if (!admin.profile.is_admin) throw forbidden();
  const now = deps.clock();
  const person = await deps.db.transaction().execute(async (trx) => {
    const person = await trx
      .selectFrom("profiles")
      .innerJoin("users", "users.id", "profiles.id")
      .select([
        "profiles.id",
        "profiles.role",
        "profiles.is_admin",
        "profiles.email",
        "profiles.first_name",
        "users.two_factor_enabled",
      ])
      .where("profiles.id", "=", userId)
      // Pseudonyms of erased accounts are nobody's account.
      .where("profiles.erased_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!person) throw notFound(ADMIN_MESSAGES.userNotFound);
    if (person.is_admin || person.role === null)
      throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.twoFactorNotHere);
    if (!person.two_factor_enabled) throw new AppError(409, "CONFLICT", ADMIN_MESSAGES.twoFactorNotOn);
    await forgetSecondFactor(trx, userId, now);
    await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
    await writeAudit(trx, {
      actorId: admin.userId,
      action: "account.two_factor_removed",
      subjectType: "profile",
      subjectId: userId,
      at: now,
    });
    return person;
  });
  // The person's next request, on any instance, finds no session (ADR 026).
  await sessionsChanged(deps.db, userId);
  mailAfterCommit(
    deps,
    {
      to: person.email,
      ...twoFactorRemovedMail({
        brandName: deps.config.brandName,
        firstName: person.first_name,
        when: formatDetailDateTime(now),
        securityLink: new URL(securityPath({ role: person.role, is_admin: false }), deps.config.publicUrl)
          .href,
        contactLink: new URL("/contact", deps.config.publicUrl).href,
      }),
    },
    "e-mail de retrait de la double authentification non envoyé",
  );
}
