// Realtime part of `npm run bench` (issue 6): two app instances on one throwaway PostgreSQL server.
//  - delivery latency: a dentist sends a message through instance A; the patient's socket is on
//    instance B (LISTEN/NOTIFY between them). p95 from the send to the push, budget ≤ 100 ms.
//  - 500 idle sockets on one instance: the server's RSS increase (reported).
import { readFileSync } from "node:fs";
import pg from "pg";
import WebSocket from "ws";
import { startTempPostgres } from "./lib/temp-postgres.mjs";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

function cookieOf(response) {
  return (response.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
}

async function json(response) {
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function signUp(base, body) {
  const response = await fetch(`${base}/api/account/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: "bench-password", accept_terms: true, ...body }),
  });
  const { profile } = await json(response.clone());
  return { id: profile.id, cookie: cookieOf(response) };
}

function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function openSocket(base, cookie, onEvent = () => {}) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace("http", "ws")}/api/realtime`, { headers: { cookie } });
    ws.on("message", (data) => {
      const event = JSON.parse(String(data));
      if (event.type === "ready") resolve(ws);
      onEvent(event);
    });
    ws.on("error", reject);
  });
}

export async function realtimeBench({ startServer, record, mkDataDir }) {
  const postgres = await startTempPostgres();
  if (!postgres) {
    record("Temps réel : latence entre deux instances", "PostgreSQL absent", "≤ 100 ms", false);
    return;
  }
  // One secret for both instances: a session made on A is valid on B.
  const env = {
    ...postgres.env,
    DEMO_DATA: "false",
  };
  let a;
  let b;
  try {
    a = await startServer(mkDataDir(), env);
    b = await startServer(mkDataDir(), env);
    const stamp = Date.now().toString(36);
    const patient = await signUp(a.base, {
      role: "patient",
      first_name: "Paul",
      last_name: "Bench",
      email: `rt-patient-${stamp}@example.com`,
    });
    const dentist = await signUp(a.base, {
      role: "dentist",
      first_name: "Denise",
      last_name: "Bench",
      city: "Lyon",
      phone_number: "0400000000",
      email: `rt-dentist-${stamp}@example.com`,
      password_confirmation: "bench-password",
      accept_terms: true,
    });
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    await client.query("update profiles set is_verified = true where id = $1", [dentist.id]);
    await client.end();
    const form = new FormData();
    form.set("treatment_type", "implant");
    form.set("consent", "true");
    form.append("files", new Blob([PDF], { type: "application/pdf" }), "devis.pdf");
    const request = await json(
      await fetch(`${a.base}/api/patient/requests`, {
        method: "POST",
        headers: { cookie: patient.cookie },
        body: form,
      }),
    );
    const reply = await json(
      await fetch(`${a.base}/api/dentist/requests/${request.id}/reply`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: dentist.cookie },
        body: JSON.stringify({ message: "Bonjour" }),
      }),
    );

    // 1. Latency A → B.
    const waiting = new Map();
    const socket = await openSocket(b.base, patient.cookie, (event) => {
      if (event.type !== "message") return;
      waiting.get(event.message.body)?.(performance.now());
    });
    const send = async (body) => {
      const message = new FormData();
      message.set("body", body);
      const started = performance.now();
      const arrived = new Promise((resolve) => waiting.set(body, resolve));
      const response = await fetch(`${a.base}/api/conversations/${reply.conversation_id}/messages`, {
        method: "POST",
        headers: { cookie: dentist.cookie },
        body: message,
      });
      if (response.status !== 201) throw new Error(`message: ${response.status}`);
      const at = await Promise.race([arrived, new Promise((r) => setTimeout(() => r(null), 5000))]);
      if (at === null) throw new Error("message jamais reçu sur l'instance B");
      return at - started;
    };
    for (let i = 0; i < 10; i++) await send(`warm-up ${i}`);
    const times = [];
    for (let i = 0; i < 100; i++) times.push(await send(`mesure ${i}`));
    socket.close();
    times.sort((x, y) => x - y);
    const p95 = times[94];
    record(
      "Temps réel : envoi sur A → socket sur B, p95",
      `${p95.toFixed(1)} ms (médiane ${times[49].toFixed(1)})`,
      "≤ 100 ms",
      p95 <= 100,
    );

    // 2. 500 idle sockets on instance A.
    await new Promise((r) => setTimeout(r, 500));
    const before = rssKb(a.pid);
    const sockets = [];
    for (let i = 0; i < 500; i += 50)
      sockets.push(
        ...(await Promise.all(Array.from({ length: 50 }, () => openSocket(a.base, patient.cookie)))),
      );
    await new Promise((r) => setTimeout(r, 1500));
    const after = rssKb(a.pid);
    for (const s of sockets) s.close();
    const mb = (after - before) / 1024;
    record(
      "Temps réel : 500 sockets inactives (RSS du serveur)",
      `+${mb.toFixed(1)} Mo (${((after - before) / 500).toFixed(1)} Ko/socket)`,
      "mesuré",
      true,
    );
  } finally {
    await a?.stop();
    await b?.stop();
    postgres.stop();
  }
}
