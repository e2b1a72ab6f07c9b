import { type Kysely, sql } from "kysely";
import { belongsTo, createdAt, idKey, timestamps } from "./columns";

/** Auth tables (Better Auth, snake_case columns), profiles and the audit log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .$call(idKey)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("email_verified", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("image", "text")
    .$call(timestamps)
    .execute();

  await db.schema
    .createTable("sessions")
    .$call(idKey)
    .$call(belongsTo("user_id", "users"))
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .$call(timestamps)
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("accounts")
    .$call(idKey)
    .$call(belongsTo("user_id", "users"))
    .addColumn("account_id", "text", (c) => c.notNull())
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("access_token", "text")
    .addColumn("refresh_token", "text")
    .addColumn("id_token", "text")
    .addColumn("access_token_expires_at", "timestamptz")
    .addColumn("refresh_token_expires_at", "timestamptz")
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .$call(timestamps)
    .execute();
  await db.schema.createIndex("accounts_user_id_idx").on("accounts").column("user_id").execute();

  await db.schema
    .createTable("verifications")
    .$call(idKey)
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await db.schema
    .createIndex("verifications_identifier_idx")
    .on("verifications")
    .column("identifier")
    .execute();

  await db.schema
    .createTable("profiles")
    .addColumn("id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) =>
      c.notNull().defaultTo("patient").check(sql`role in ('patient', 'dentist')`),
    )
    .addColumn("first_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("last_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("full_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("phone_number", "text")
    .addColumn("city", "text")
    .addColumn("bio", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("specialties", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("avatar_url", "text")
    .addColumn("is_admin", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_verified", "boolean", (c) => c.notNull().defaultTo(false))
    .$call(timestamps)
    .execute();
  // Admin lists: newest first by role; verified-dentist lookups.
  await db.schema
    .createIndex("profiles_role_created_idx")
    .on("profiles")
    .columns(["role", "created_at"])
    .execute();
  await db.schema
    .createIndex("profiles_verified_dentists_idx")
    .on("profiles")
    .column("id")
    .where(sql.ref("role"), "=", "dentist")
    .where(sql.ref("is_verified"), "=", true)
    .execute();

  await db.schema
    .createTable("audit_log")
    .$call(idKey)
    .addColumn("actor_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("subject_type", "text", (c) => c.notNull())
    .addColumn("subject_id", "uuid")
    .addColumn("details", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .$call(createdAt)
    .execute();
  await db.schema
    .createIndex("audit_log_subject_idx")
    .on("audit_log")
    .columns(["subject_type", "subject_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["audit_log", "profiles", "verifications", "accounts", "sessions", "users"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
