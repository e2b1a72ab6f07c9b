// Fills a database with synthetic load for `npm run bench`: dentists, patients and requests
// (no documents), other dentists' own rows on about a third of the requests, and the measured
// dentist's activity: requests sent to them by name, about 200 opened, some answered or confirmed,
// each answer a conversation with a few messages (some unread).
// Usage: tsx scripts/bench-seed.ts --data-dir DIR --requests 100000 --dentists 1000
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { loadConfig } from "../src/server/config";
import { setPrivateUmask } from "../src/server/files/private-dir";
import { openMigratedDatabase, standaloneAuth } from "../src/server/runtime";

const { values } = parseArgs({
  options: { "data-dir": { type: "string" }, requests: { type: "string" }, dentists: { type: "string" } },
});
const requests = Number(values.requests ?? 1000);
const dentists = Number(values.dentists ?? 100);
const patients = Math.max(1, Math.round(requests / 5));
setPrivateUmask();
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
       d as (select id, row_number() over (order by email) as n from profiles where email like 'bench-dentist-%')
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
// One dentist who can log in, for the measurements (the first by e-mail: d.n = 1 above, so some
// requests are sent to them by name).
const first = await db
  .selectFrom("profiles")
  .select(["id", "email"])
  .where("email", "like", "bench-dentist-%")
  .orderBy("email")
  .limit(1)
  .executeTakeFirstOrThrow();
// Other dentists' own state: about a third of the requests opened by one of them, some answered.
await sql`
  with d as (select id, row_number() over (order by email) as n from profiles where email like 'bench-dentist-%'),
       r as (select id, created_at, row_number() over (order by created_at) as n from requests where status <> 'cancelled')
  insert into request_dentists (request_id, dentist_id, status, opened_at, replied_at, created_at, updated_at)
  select r.id, d.id,
         (array['pending','pending','responded','confirmed'])[1 + (r.n % 4)],
         r.created_at + interval '10 minutes',
         case when r.n % 4 >= 2 then r.created_at + interval '1 hour' end,
         r.created_at + interval '10 minutes',
         r.created_at + interval '1 hour'
  from r join d on d.n = 2 + (r.n % ${Math.max(1, dentists - 1)})
  where r.n % 2 = 0 and ${dentists} > 1
`.execute(db);
// The measured dentist: one visible request in five among the newest 1 000 opened; of those, one
// in three answered and one in thirteen confirmed, each answer a conversation of three messages.
await sql`
  with v as (
    select r.id, r.patient_id, r.created_at, row_number() over (order by r.created_at desc, r.id desc) as n
    from requests r
    where r.status <> 'cancelled' and (r.recipient_dentist_id is null or r.recipient_dentist_id = ${first.id})
    order by r.created_at desc, r.id desc
    limit 1000
  )
  insert into request_dentists (request_id, dentist_id, status, opened_at, assigned_at, replied_at, created_at, updated_at)
  select v.id, ${first.id},
         case when v.n % 13 = 1 then 'confirmed' when v.n % 3 = 1 then 'responded' else 'pending' end,
         v.created_at + interval '5 minutes',
         case when v.n % 3 = 1 or v.n % 13 = 1 then v.created_at + interval '5 minutes' end,
         case when v.n % 3 = 1 or v.n % 13 = 1 then least(now(), v.created_at + (1 + v.n % 90) * interval '1 minute') end,
         v.created_at + interval '5 minutes',
         least(now(), v.created_at + (1 + v.n % 90) * interval '1 minute')
  from v
  where v.n % 5 = 1
  on conflict (request_id, dentist_id) do nothing
`.execute(db);
await sql`
  insert into conversations (request_id, patient_id, dentist_id, last_message_at, created_at)
  select rd.request_id, r.patient_id, rd.dentist_id, rd.replied_at + interval '2 hours', rd.replied_at
  from request_dentists rd join requests r on r.id = rd.request_id
  where rd.dentist_id = ${first.id} and rd.status <> 'pending'
`.execute(db);
await sql`
  insert into messages (conversation_id, sender_id, body, read_at, created_at)
  select c.id, m.sender, m.body, m.read_at, m.created_at
  from conversations c
  cross join lateral (values
    (c.dentist_id, 'Bonjour, je peux vous proposer un rendez-vous la semaine prochaine.', c.created_at, c.created_at),
    (c.patient_id, 'Merci, quels sont vos horaires ?', c.created_at + interval '1 hour',
     case when extract(minute from c.created_at)::int % 2 = 0 then c.created_at + interval '90 minutes' end),
    (c.patient_id, 'Le mardi matin me conviendrait.', c.created_at + interval '2 hours', null::timestamptz)
  ) as m(sender, body, created_at, read_at)
  where c.dentist_id = ${first.id}
`.execute(db);
// Offers (issue 8): one with each answer, accepted where the dentist is confirmed (one per
// request: the unique index drops a second), and a confirmed appointment on each accepted one (on a
// database with the demo already, its accepted offers keep the appointment they have: the soak).
await sql`
  insert into offers (request_id, dentist_id, amount_cents, valid_until, status, decided_at, created_at, updated_at)
  select rd.request_id, rd.dentist_id, 50000 + abs(hashtext(rd.request_id::text)) % 200000,
         (rd.replied_at + interval '30 days')::date,
         case when rd.status = 'confirmed' then 'accepted' else 'sent' end,
         case when rd.status = 'confirmed' then rd.replied_at end,
         rd.replied_at, rd.replied_at
  from request_dentists rd
  where rd.status in ('responded', 'confirmed') and rd.replied_at is not null
  on conflict do nothing
`.execute(db);
await sql`
  insert into appointments (request_id, offer_id, patient_id, dentist_id, status, starts_at, created_at, updated_at)
  select o.request_id, o.id, r.patient_id, o.dentist_id, 'confirmed',
         now() + (abs(hashtext(o.id::text)) % 90 - 30) * interval '1 day', o.decided_at, o.decided_at
  from offers o join requests r on r.id = o.request_id
  where o.status = 'accepted'
  -- Two offers of one dentist may hash to the same day: one appointment a time (appointments_dentist_time_idx).
  on conflict do nothing
`.execute(db);
await sql`analyze`.execute(db);
const ctx = await standaloneAuth(config, database).$context;
await ctx.internalAdapter.linkAccount({
  userId: first.id,
  providerId: "credential",
  accountId: first.id,
  password: await ctx.password.hash("bench-password"),
});
// One admin (a patient account with the flag), for the admin users tables (issue 7).
const admin = await db
  .updateTable("profiles")
  .set({ is_admin: true })
  .where("email", "=", "bench-patient-1@example.com")
  .returning(["id", "email"])
  .executeTakeFirstOrThrow();
await ctx.internalAdapter.linkAccount({
  userId: admin.id,
  providerId: "credential",
  accountId: admin.id,
  password: await ctx.password.hash("bench-password"),
});
console.log(
  JSON.stringify({
    requests,
    dentists,
    patients,
    dentistEmail: first.email,
    adminEmail: admin.email,
    password: "bench-password",
  }),
);
await database.close();
