// Soak part of `npm run bench` (issue 37): `npm run bench -- --soak` runs only this, for 10 minutes
// (`--soak-minutes N` for a shorter or longer run). Not in CI, not in `npm test`.
// Two app instances on one throwaway PostgreSQL (scripts/lib/temp-postgres.mjs), the demo data seeded
// by the first one and the bench's synthetic load (scripts/bench-seed.ts) added to it, then a mixed
// load where every virtual user alternates between the two instances:
//  - patients upload real files (a JPEG X-ray, sometimes a text PDF devis, which is queued for
//    reading), list their requests and write in their conversations;
//  - dentists list the requests, open the new ones and answer them with an offer, list their offers
//    and write to patients;
//  - administrators search the users.
// Every minute: p50/p99 per route (its pattern, never an id), the RSS of each instance, the errors.
// Budgets: 0 errors (a transport failure or any unexpected status); each instance's RSS flat after the
// first two minutes (every later minute's mean within ± 10 % of the third minute's); p99 stable (for
// every route, the p99 over the second half of the steady minutes ≤ 1.5 × the p99 over the first half).
import { randomBytes } from "node:crypto";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import sharp from "sharp";
import { login, seedBench, signUpPatient } from "./lib/bench-accounts.mjs";
import { rssOf } from "./lib/local-server.mjs";
import { startTempPostgres } from "./lib/temp-postgres.mjs";

const MINUTE = 60_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TREATMENTS = ["implant", "crown", "veneer", "bridge", "denture", "rootcanal", "whitening", "other"];
const DEMO_PASSWORD = "sourio-demo";
const SOAK_PASSWORD = "Sourire-Endurant-2026";
/** Soak patients signed up at the start (the demo patient makes one more). */
const NEW_PATIENTS = 4;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const think = () => sleep(150 + Math.random() * 350);

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
}

/** Real files, made once: JPEG X-rays (noise, so each compresses differently) and text PDF devis. */
async function makeFiles() {
  const jpegs = [];
  for (let i = 0; i < 6; i += 1) {
    const width = 480;
    const height = 360;
    jpegs.push(
      await sharp(randomBytes(width * height), { raw: { width, height, channels: 1 } })
        .blur(2)
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  }
  const pdfs = [];
  for (let i = 0; i < 3; i += 1) {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    page.drawText(`Devis dentaire n° ${1000 + i}`, { x: 72, y: 760, size: 18, font });
    page.drawText("Couronne céramo-métallique sur la dent 36 : 650,00 €", { x: 72, y: 720, size: 11, font });
    pdfs.push(Buffer.from(await doc.save()));
  }
  return { jpegs, pdfs };
}

/** Latencies per route and minute, errors, RSS samples per instance. */
function makeStats(instances) {
  const minutes = [];
  const errors = [];
  let current = new Map();
  const rss = instances.map(() => []);
  return {
    minutes,
    errors,
    rss,
    add(route, ms) {
      if (!current.has(route)) current.set(route, []);
      current.get(route).push(ms);
    },
    error(route, what) {
      errors.push({ at: minutes.length + 1, route, what });
    },
    sampleRss() {
      instances.forEach((instance, i) => {
        rss[i][minutes.length] ??= [];
        rss[i][minutes.length].push(rssOf(instance.pid) / (1024 * 1024));
      });
    },
    closeMinute() {
      minutes.push(current);
      current = new Map();
    },
  };
}

/** One signed-in person: calls alternate between the instances; each call timed under its route. */
function makeUser(stats, instances, cookie) {
  let turn = Math.floor(Math.random() * 2);
  return {
    cookie,
    async call(method, url, { json, form, expect = [200] } = {}) {
      const base = instances[turn++ % instances.length].base;
      const route = `${method} ${url.split("?")[0].replace(UUID, ":id")}`;
      const headers = { cookie: this.cookie, origin: base };
      let body;
      if (json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(json);
      } else if (form) body = form;
      const started = performance.now();
      try {
        const response = await fetch(base + url, { method, headers, body });
        const text = await response.text();
        stats.add(route, performance.now() - started);
        if (!expect.includes(response.status)) {
          stats.error(route, `${response.status} ${text.slice(0, 200)}`);
          return null;
        }
        return response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
      } catch (error) {
        stats.add(route, performance.now() - started);
        stats.error(route, error.message);
        return null;
      }
    },
  };
}

/** A patient: uploads, lists, writes. New requests go to every dentist's queue. */
async function patientLoop(user, files, queues, until) {
  let uploads = 0;
  while (Date.now() < until) {
    const roll = Math.random();
    if (roll < 0.2) {
      const form = new FormData();
      form.set("treatment_type", pick(TREATMENTS));
      form.set("consent", "true");
      const types = ["xray"];
      form.append("files", new Blob([pick(files.jpegs)], { type: "image/jpeg" }), "radio-panoramique.jpg");
      if (uploads % 3 === 0) {
        types.push("quote");
        form.append("files", new Blob([pick(files.pdfs)], { type: "application/pdf" }), "devis.pdf");
      }
      form.set("document_types", JSON.stringify(types));
      uploads += 1;
      const created = await user.call("POST", "/api/patient/requests", { form, expect: [201] });
      if (created?.id) for (const queue of queues) queue.push(created.id);
    } else if (roll < 0.45) {
      await user.call("GET", "/api/patient/requests");
    } else if (roll < 0.6) {
      await user.call("GET", "/api/patient/dashboard");
    } else {
      const list = await user.call("GET", "/api/conversations");
      const conversation = list?.items?.length ? pick(list.items) : null;
      if (conversation) {
        await user.call("GET", `/api/conversations/${conversation.id}/messages`);
        const form = new FormData();
        form.set("body", `Merci pour votre proposition, est-ce possible un mardi matin ? (${Date.now()})`);
        await user.call("POST", `/api/conversations/${conversation.id}/messages`, { form, expect: [201] });
      }
    }
    await think();
  }
}

/** Today + `days` as a calendar day (YYYY-MM-DD) in Paris. */
function parisDay(days) {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString("sv-SE", { timeZone: "Europe/Paris" });
}

/** A dentist: lists, answers the soak's new requests with an offer (each once), writes back. */
async function dentistLoop(user, queue, until) {
  while (Date.now() < until) {
    const roll = Math.random();
    if (roll < 0.25 && queue.length > 0) {
      const id = queue.shift();
      const detail = await user.call("GET", `/api/dentist/requests/${id}`);
      if (detail)
        await user.call("POST", `/api/dentist/requests/${id}/offers`, {
          json: {
            amount_cents: 50_000 + Math.floor(Math.random() * 150_000),
            comment: "Proposition établie d'après votre radiographie.",
            valid_until: parisDay(30),
          },
          expect: [201],
        });
    } else if (roll < 0.6) {
      await user.call(
        "GET",
        pick([
          "/api/dentist/requests",
          "/api/dentist/requests?status=pending",
          "/api/dentist/requests?treatment=crown",
        ]),
      );
    } else if (roll < 0.7) {
      await user.call("GET", "/api/dentist/dashboard");
    } else if (roll < 0.8) {
      await user.call("GET", "/api/dentist/offers");
    } else {
      const list = await user.call("GET", "/api/conversations");
      const conversation = list?.items?.length ? pick(list.items) : null;
      if (conversation) {
        const form = new FormData();
        form.set("body", `Bonjour, je vous propose mardi à 9 h. (${Date.now()})`);
        await user.call("POST", `/api/conversations/${conversation.id}/messages`, { form, expect: [201] });
      }
    }
    await think();
  }
}

/** An administrator: searches the users. */
async function adminLoop(user, until) {
  while (Date.now() < until) {
    const search = pick(["bench-patient-12", "endurance", "patient", "martin", "dr"]);
    await user.call(
      "GET",
      pick([
        `/api/admin/users?role=patient&search=${search}`,
        `/api/admin/users?role=dentist&search=${search}`,
        "/api/admin/users?role=patient&page=2",
      ]),
    );
    await think();
  }
}

function printMinute(stats, instances, minute) {
  const routes = stats.minutes[minute - 1];
  const width = Math.max(...[...routes.keys()].map((r) => r.length), 10);
  const rss = instances.map((instance, i) => {
    const samples = stats.rss[i][minute - 1] ?? [];
    return `${instance.name} ${(samples.at(-1) ?? 0).toFixed(0)} Mo`;
  });
  const errors = stats.errors.filter((e) => e.at === minute).length;
  console.log(`\nMinute ${minute} — RSS ${rss.join(", ")} — erreurs : ${errors}`);
  for (const route of [...routes.keys()].sort()) {
    const times = routes.get(route).sort((a, b) => a - b);
    console.log(
      `  ${route.padEnd(width)}  n=${String(times.length).padStart(4)}  p50 ${percentile(times, 0.5).toFixed(1).padStart(6)} ms  p99 ${percentile(times, 0.99).toFixed(1).padStart(7)} ms`,
    );
  }
}

/** Latencies of `route` over minutes [from, to) (1-based minutes, `to` excluded). */
function timesOver(stats, route, from, to) {
  const times = [];
  for (let m = from; m < to; m += 1) times.push(...(stats.minutes[m - 1].get(route) ?? []));
  return times.sort((a, b) => a - b);
}

/**
 * `startServer(dataDir, env)` and `record(name, value, budget, ok)` are bench.mjs's; `mkDataDir` a
 * fresh directory removed afterwards; `minutes` the load's length.
 */
export async function soakBench({ startServer, record, mkDataDir, minutes = 10 }) {
  const postgres = await startTempPostgres();
  if (!postgres) {
    record("Endurance : deux instances", "PostgreSQL absent", "", false);
    return;
  }
  const stops = [() => postgres.stop()];
  try {
    const files = await makeFiles();
    const env = { ...postgres.env, LOG_LEVEL: "error" };
    // The first instance migrates and seeds the demo (accounts, requests, reviews); the bench's
    // synthetic load comes on top (dentists, patients, 2 000 requests, offers, conversations).
    const a = await startServer(mkDataDir(), { ...env, DEMO_DATA: "true" });
    stops.unshift(a.stop);
    const seeded = seedBench(mkDataDir(), { requests: 2000, dentists: 50, env });
    const b = await startServer(mkDataDir(), { ...env, DEMO_DATA: "false" });
    stops.unshift(b.stop);
    const instances = [
      { name: "A", ...a },
      { name: "B", ...b },
    ];
    const stats = makeStats(instances);

    const patients = [
      makeUser(stats, instances, await login(a.base, "patient@demo.sourio.fr", DEMO_PASSWORD)),
    ];
    for (let n = 0; n < NEW_PATIENTS; n += 1)
      patients.push(
        makeUser(
          stats,
          instances,
          await signUpPatient(n % 2 ? b.base : a.base, {
            firstName: "Endurance",
            lastName: `Patient${n}`,
            emailPrefix: `soak-patient-${n}`,
            password: SOAK_PASSWORD,
          }),
        ),
      );
    const dentists = [];
    for (const email of ["dr.martin@demo.sourio.fr", "dr.leroy@demo.sourio.fr"])
      dentists.push(makeUser(stats, instances, await login(b.base, email, DEMO_PASSWORD)));
    dentists.push(makeUser(stats, instances, await login(a.base, seeded.dentistEmail, seeded.password)));
    const admins = [
      makeUser(stats, instances, await login(a.base, "admin@demo.sourio.fr", DEMO_PASSWORD)),
      makeUser(stats, instances, await login(b.base, seeded.adminEmail, seeded.password)),
    ];
    const queues = dentists.map(() => []);

    console.log(
      `\nEndurance : ${minutes} min, 2 instances, ${patients.length} patients, ${dentists.length} dentistes, ${admins.length} administrateurs.`,
    );
    const started = Date.now();
    const until = started + minutes * MINUTE;
    const loops = [
      ...patients.map((user) => patientLoop(user, files, queues, until)),
      ...dentists.map((user, i) => dentistLoop(user, queues[i], until)),
      ...admins.map((user) => adminLoop(user, until)),
    ];
    const sampler = setInterval(() => stats.sampleRss(), 5000);
    stats.sampleRss();
    for (let minute = 1; minute <= minutes; minute += 1) {
      await sleep(Math.max(0, started + minute * MINUTE - Date.now()));
      stats.sampleRss();
      stats.closeMinute();
      printMinute(stats, instances, minute);
    }
    clearInterval(sampler);
    await Promise.all(loops);

    // Budgets.
    const requests = stats.minutes.reduce((n, m) => n + [...m.values()].reduce((s, t) => s + t.length, 0), 0);
    record(
      `Endurance ${minutes} min : erreurs`,
      `${stats.errors.length} sur ${requests} requêtes`,
      "0",
      stats.errors.length === 0,
    );
    for (const e of stats.errors.slice(0, 5)) console.error(`  minute ${e.at}, ${e.route} : ${e.what}`);
    const warmUp = Math.min(2, minutes - 1);
    instances.forEach((instance, i) => {
      const means = stats.rss[i]
        .slice(0, minutes)
        .map((samples) => samples.reduce((s, v) => s + v, 0) / samples.length);
      const steady = means.slice(warmUp);
      const reference = steady[0];
      const drift = Math.max(...steady.map((v) => Math.abs(v / reference - 1)));
      record(
        `Endurance : RSS de l'instance ${instance.name} (moyenne par minute, après ${warmUp} min)`,
        `${means.map((v) => v.toFixed(0)).join(" → ")} Mo (écart ${(drift * 100).toFixed(1)} %)`,
        "± 10 %",
        drift <= 0.1,
      );
    });
    const firstSteady = warmUp + 1;
    const half = firstSteady + Math.floor((minutes - warmUp) / 2);
    if (half > firstSteady && half <= minutes) {
      let worst = { ratio: 0, route: "" };
      const routes = new Set(stats.minutes.flatMap((m) => [...m.keys()]));
      for (const route of routes) {
        const early = timesOver(stats, route, firstSteady, half);
        const late = timesOver(stats, route, half, minutes + 1);
        // Too few samples make a p99 that is one request's time: not a trend.
        if (early.length < 50 || late.length < 50) continue;
        const ratio = percentile(late, 0.99) / percentile(early, 0.99);
        if (ratio > worst.ratio) worst = { ratio, route };
      }
      record(
        "Endurance : p99 stable (2e moitié / 1re moitié, pire route)",
        `${worst.ratio.toFixed(2)} (${worst.route})`,
        "≤ 1,5",
        worst.ratio <= 1.5,
      );
    } else record("Endurance : p99 stable", "durée trop courte pour comparer", "≤ 1,5", true);
  } catch (error) {
    record("Endurance : deux instances", `échec : ${error.message}`.slice(0, 160), "", false);
  } finally {
    for (const stop of stops) await stop();
  }
}
