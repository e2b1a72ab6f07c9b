import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import WebSocket from "ws";
import type { RealtimeEvent } from "../../shared/realtime";
import type { PersonName, World } from "./world";

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
    // Closed before 'ready' (a change of the person's sessions during the upgrade): said, not a hang.
    ws.on("close", (code) => reject(new Error(`fermé avant « ready » (${code})`)));
  });
}

/**
 * Listens on a free local port (for live channels and real HTTP clients); resolves to its base URL.
 * An app already listening gives its own.
 */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

type Socket = Awaited<ReturnType<typeof openSocket>>;

/**
 * The live channels of these people (by the name the test gives them) on the app, listening on a
 * free local port; `use` runs with them open, and they are closed after it, whatever happens.
 */
export async function withSockets<Name extends string>(
  app: FastifyInstance,
  cookies: Record<Name, string>,
  use: (sockets: Record<Name, Socket>) => Promise<void>,
): Promise<void> {
  const base = await listenLocally(app);
  const sockets = {} as Record<Name, Socket>;
  try {
    for (const [name, cookie] of Object.entries(cookies) as [Name, string][])
      sockets[name] = await openSocket(base, cookie);
    await use(sockets);
  } finally {
    for (const socket of Object.values<Socket>(sockets)) socket.ws.close();
  }
}

/** The live channels of people of a test world, each under the role the test gives them
 * (`{ dentist: "notChosen" }`): withSockets on the world's app with their cookies. */
export function withPeopleSockets<Role extends string>(
  w: World,
  roles: Record<Role, PersonName>,
  use: (sockets: Record<Role, Socket>) => Promise<void>,
): Promise<void> {
  const entries = Object.entries(roles) as [Role, PersonName][];
  const cookies = Object.fromEntries(entries.map(([role, name]) => [role, w.people[name].cookie]));
  return withSockets(w.ctx.app, cookies as Record<Role, string>, use);
}
