import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import WebSocket from "ws";
import type { RealtimeEvent } from "../../shared/realtime";

/** A live channel (/api/realtime) as a browser would open it: resolves once 'ready', with every event received. */
export function openSocket(
  base: string,
  cookie?: string,
): Promise<{ ws: WebSocket; events: RealtimeEvent[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace("http", "ws")}/api/realtime`, {
      headers: cookie ? { cookie } : {},
    });
    const events: RealtimeEvent[] = [];
    ws.on("message", (data) => {
      const event = JSON.parse(String(data)) as RealtimeEvent;
      events.push(event);
      if (event.type === "ready") resolve({ ws, events });
    });
    ws.on("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on("error", reject);
  });
}

/** Listens on a free local port (for live channels and real HTTP clients); resolves to its base URL. */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
