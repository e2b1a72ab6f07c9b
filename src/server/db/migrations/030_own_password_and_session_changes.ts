import { type Kysely, sql } from "kysely";

/**
 * Issue 32 (ADR 039).
 *
 * - login_attempts gets the scope 'own_password': a signed-in person's wrong passwords when changing
 *   it or erasing the account, charged before the check like a login (modules/account/login-throttle.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table login_attempts drop constraint login_attempts_scope_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_scope_check
    check (scope in ('ip', 'ip_requests', 'account_ip', 'account', 'device', 'own_password'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from login_attempts where scope = 'own_password'`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_scope_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_scope_check
    check (scope in ('ip', 'ip_requests', 'account_ip', 'account', 'device'))`.execute(db);
}
