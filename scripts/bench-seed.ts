// Fills a database with synthetic load for `npm run bench`: dentists, patients and requests
// (no documents). Usage: tsx scripts/bench-seed.ts --data-dir DIR --requests 100000 --dentists 1000
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { loadConfig } from "../src/server/config";
import { openMigratedDatabase, standaloneAuth } from "../src/server/runtime";

const { values } = parseArgs({
  options: { "data-dir": { type: "string" }, requests: { type: "string" }, dentists: { type: "string" } },
});
const requests = Number(values.requests ?? 1000);
const dentists = Number(values.dentists ?? 100);
const patients = Math.max(1, Math.round(requests / 5));
const config = loadConfig({ ...process.env, DATA_DIR: values["data-dir"] ?? "./data", DEMO_DATA: "false" });
const database = await openMigratedDatabase(config);
const db = database.db;

await sql`
  insert into users (id, name, email, email_verified)
  select gen_random_uuid(), 'Bench ' || g, 'bench-dentist-' || g || '@example.com', false from generate_series(1, ${dentists}) g
`.execute(db);
await sql`
  insert into profiles (id, email, role, first_name, last_name, full_name, city, is_verified)
  select id, email, 'dentist', 'Bench', split_part(email, '@', 1), 'Bench ' || split_part(email, '@', 1), 'Lyon', true
  from users where email like 'bench-dentist-%'
`.execute(db);
await sql`
  insert into users (id, name, email, email_verified)
  select gen_random_uuid(), 'Patient ' || g, 'bench-patient-' || g || '@example.com', false from generate_series(1, ${patients}) g
`.execute(db);
await sql`
  insert into profiles (id, email, role, first_name, last_name, full_name)
  select id, email, 'patient', 'Patient', split_part(email, '@', 1), 'Patient ' || split_part(email, '@', 1)
  from users where email like 'bench-patient-%'
`.execute(db);
// One request in ten is addressed to one dentist, the others to every verified dentist.
await sql`
  with p as (select id, row_number() over () as n from profiles where email like 'bench-patient-%'),
       d as (select id, row_number() over () as n from profiles where email like 'bench-dentist-%')
  insert into requests (patient_id, treatment_type, urgency, recipient_dentist_id, status, created_at, updated_at)
  select p.id,
         (array['implant','crown','veneer','bridge','denture','rootcanal','whitening','other'])[1 + (g % 8)],
         (array['high','medium','low'])[1 + (g % 3)],
         case when g % 10 = 0 then d.id else null end,
         (array['new','in_review','completed','cancelled'])[1 + (g % 4)],
         now() - (g || ' minutes')::interval,
         now() - (g || ' minutes')::interval
  from generate_series(1, ${requests}) g
  join p on p.n = 1 + (g % ${patients})
  join d on d.n = 1 + (g % ${dentists})
`.execute(db);
await sql`analyze`.execute(db);
// One dentist who can log in, for the measurements.
const first = await db
  .selectFrom("profiles")
  .select(["id", "email"])
  .where("email", "like", "bench-dentist-%")
  .orderBy("email")
  .limit(1)
  .executeTakeFirstOrThrow();
const ctx = await standaloneAuth(config, database).$context;
await ctx.internalAdapter.linkAccount({
  userId: first.id,
  providerId: "credential",
  accountId: first.id,
  password: await ctx.password.hash("bench-password"),
});
console.log(
  JSON.stringify({ requests, dentists, patients, dentistEmail: first.email, password: "bench-password" }),
);
await database.close();
