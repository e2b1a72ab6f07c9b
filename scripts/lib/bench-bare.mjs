// The bench's reference (issue 19): a bare Fastify route, same Fastify as the app, answering 20 rows
// of JSON like a list page, with nothing else registered (no logger, no hooks). Started by
// `npm run bench` in its own process; prints its port on stdout once listening.
import Fastify from "fastify";

const rows = Array.from({ length: 20 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  patient_name: `Patient ${i}`,
  treatment_type: "implant",
  created_at: new Date(Date.UTC(2026, 10, 1, 8, i)).toISOString(),
  budget: "1000-2000",
  urgency: "medium",
  my_status: "new",
  is_new: i % 2 === 0,
  quote_amount_cents: null,
  appointment_status: null,
  appointment_starts_at: null,
}));
const app = Fastify({ logger: false });
app.get("/rows", async () => ({ items: rows, page: 1, page_size: 20, has_more: false }));
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(app.server.address().port);
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
