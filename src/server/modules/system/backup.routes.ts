import { randomUUID } from "node:crypto";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ERROR_CODES } from "../../../shared/schemas/common";
import { snapshotEmbedded } from "../../backup/archive";
import { AppError, notFound } from "../../errors";
import { tokenMatches } from "../../plugins/metrics";

/**
 * POST /internal/backup (issue 37, ADR 047): the embedded database belongs to the server's process,
 * so `npm run backup` asks the running server for its snapshot. Only from this machine (the peer's
 * own address, never X-Forwarded-For) and with the token server.ts writes, 0600, in
 * DATA_DIR/backup-endpoint.json at each start; the dump goes to DATA_DIR/backup-work (0700), and the
 * answer says where, with the snapshot's migration level and row counts. The script removes the dump
 * once packed; one it left (killed before) goes with the next backup.
 */
export interface BackupRouteOptions {
  /** This start's token, or undefined: the route then refuses everyone. */
  token: () => string | undefined;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

function fromThisMachine(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress ?? "";
  return LOOPBACK.has(peer) || peer === request.socket.localAddress;
}

export async function backupRoutes(app: FastifyInstance, options: BackupRouteOptions): Promise<void> {
  app.post("/internal/backup", { schema: { hide: true } }, async (request, reply) => {
    const token = options.token();
    if (!token || !fromThisMachine(request) || !tokenMatches(request.headers.authorization, token))
      throw new AppError(401, ERROR_CODES.unauthenticated, "Réservé à npm run backup sur cette machine.");
    if (!app.database.embedded) throw notFound("La base n'est pas la base embarquée : pg_dump s'en charge.");
    const dir = path.join(app.config.dataDir, "backup-work");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await removeLeftovers(dir);
    const file = path.join(dir, `${randomUUID()}.tar.gz`);
    const snapshot = await snapshotEmbedded(app.database, file);
    return reply.header("cache-control", "no-store").send({ file, snapshot });
  });
}

/** Older than any backup's run: what is left this long was abandoned. */
const LEFT_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The dumps (and copies) of backups that never removed them (`npm run backup` killed, or its machine
 * stopped, before its cleanup): each a plaintext copy of the whole database, removed by the next
 * backup once a day old.
 */
async function removeLeftovers(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const entry = path.join(dir, name);
    const info = await stat(entry).catch(() => null);
    if (info && now - info.mtimeMs > LEFT_AFTER_MS) await rm(entry, { recursive: true, force: true });
  }
}
