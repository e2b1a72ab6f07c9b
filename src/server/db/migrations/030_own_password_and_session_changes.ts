import { type Kysely, sql } from "kysely";

/**
 * Issue 32 (ADR 039).
 *
 * - login_attempts gets the scope 'own_password': a signed-in person's wrong passwords when changing
 *   it or erasing the account, charged before the check like a login (modules/account/login-throttle.ts).
 * - The session cache (ADR 026) hears of every write that may end a session or change a person's
 *   rights, whoever wrote it (a service, an operator's SQL, a script): statement triggers on users,
 *   profiles and sessions notify `sourio_sessions` at commit with the ids of the people concerned
 *   (comma-separated; '*' for everyone: a truncate, or more ids than a notification holds). Updates
 *   and deletes only (a new row ends nothing); of a session's updates only those that end it sooner,
 *   change its token or its person (not Better Auth's renewal, which pushes its end later).
 *   Separate from `sourio_changes` (migration 028): sessions are written at each sign-in and must not
 *   empty the response cache.
 */

/** The tables whose updates and deletes concern a person's sessions, with the column naming the person. */
export const SESSION_TABLES = { users: "id", profiles: "id", sessions: "user_id" } as const;

/** The channel of those notifications (realtime/bus.ts listens to it). */
const SESSIONS_CHANNEL = "sourio_sessions";

/** A notification's payload is at most 8 000 bytes: past this length, '*' (everyone) instead. */
const MAX_IDS_LENGTH = 7900;
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table login_attempts drop constraint login_attempts_scope_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_scope_check
    check (scope in ('ip', 'ip_requests', 'account_ip', 'account', 'device', 'own_password'))`.execute(db);

  const notify = (ids: string) =>
    `perform pg_notify('${SESSIONS_CHANNEL}', case when length(${ids}) > ${MAX_IDS_LENGTH} then '*' else ${ids} end);`;
  // The people of the rows updated or deleted (column tg_argv[0]), or everyone for a truncate.
  await sql`
    create function sourio_people_changed() returns trigger language plpgsql as $$
    declare ids text;
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify(${sql.lit(SESSIONS_CHANNEL)}, '*');
        return null;
      end if;
      execute format('select string_agg(distinct %I::text, '','') from old_rows', tg_argv[0]) into ids;
      if ids is not null then ${sql.raw(notify("ids"))} end if;
      return null;
    end $$`.execute(db);
  // The people of the sessions ended sooner, given another token or person (not a renewal).
  await sql`
    create function sourio_sessions_updated() returns trigger language plpgsql as $$
    declare ids text;
    begin
      select string_agg(distinct o.user_id::text, ',') into ids
      from old_rows o left join new_rows n on n.id = o.id
      where n.id is null or n.user_id is distinct from o.user_id or n.token is distinct from o.token
        or n.expires_at < o.expires_at;
      if ids is not null then ${sql.raw(notify("ids"))} end if;
      return null;
    end $$`.execute(db);
  for (const [table, column] of Object.entries(SESSION_TABLES)) {
    const name = (event: string) => sql.raw(`${table}_${event}_sessions`);
    await sql`
      create trigger ${name("delete")} after delete on ${sql.table(table)}
      referencing old table as old_rows
      for each statement execute function sourio_people_changed(${sql.lit(column)})`.execute(db);
    await sql`
      create trigger ${name("truncate")} after truncate on ${sql.table(table)}
      for each statement execute function sourio_people_changed(${sql.lit(column)})`.execute(db);
    if (table === "sessions")
      await sql`
        create trigger ${name("update")} after update on sessions
        referencing old table as old_rows new table as new_rows
        for each statement execute function sourio_sessions_updated()`.execute(db);
    else
      await sql`
        create trigger ${name("update")} after update on ${sql.table(table)}
        referencing old table as old_rows
        for each statement execute function sourio_people_changed(${sql.lit(column)})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of Object.keys(SESSION_TABLES))
    for (const event of ["delete", "truncate", "update"])
      await sql`drop trigger if exists ${sql.raw(`${table}_${event}_sessions`)} on ${sql.table(table)}`.execute(
        db,
      );
  await sql`drop function if exists sourio_people_changed()`.execute(db);
  await sql`drop function if exists sourio_sessions_updated()`.execute(db);
  await sql`delete from login_attempts where scope = 'own_password'`.execute(db);
  await sql`alter table login_attempts drop constraint login_attempts_scope_check`.execute(db);
  await sql`alter table login_attempts add constraint login_attempts_scope_check
    check (scope in ('ip', 'ip_requests', 'account_ip', 'account', 'device'))`.execute(db);
}
