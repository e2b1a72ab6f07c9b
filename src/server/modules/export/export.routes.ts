import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ZipFile } from "yazl";
import { DATA_EXPORT_MESSAGES, DATA_EXPORT_PER_HOUR, DATA_EXPORT_URL } from "../../../shared/schemas/account";
import { ERROR_CODES, errorBodySchema } from "../../../shared/schemas/common";
import { actorOf, requireArea } from "../../access/actor";
import { AppError } from "../../errors";
import { sendPrivateFile } from "../../http/files";
import { buildExport, DATA_FILE, README_FILE } from "./export.service";

/**
 * GET /api/account/export: "Télécharger mes données", for every signed-in person (patient,
 * dentist, and the team's administrators, who get their own profile, sessions and account events:
 * they have no requests or conversations of their own). The archive is streamed: the JSON and
 * the README are small buffers, each file is opened from storage only when the zip reaches it.
 */
export async function exportRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Per person (the area guard has resolved the actor before): an archive reads every file the
  // person ever sent, so a loop cannot make the server re-read them endlessly.
  const limit = app.rateLimit({
    max: DATA_EXPORT_PER_HOUR,
    timeWindow: 60 * 60 * 1000,
    keyGenerator: async (request) => `export:${(await request.actorPromise)?.userId ?? request.ip}`,
    errorResponseBuilder: () => new AppError(429, ERROR_CODES.rateLimited, DATA_EXPORT_MESSAGES.tooMany),
  });

  r.get(
    DATA_EXPORT_URL,
    {
      schema: {
        tags: ["account"],
        summary:
          "Télécharger mes données (RGPD art. 15 et 20) : une archive zip avec un JSON de toutes mes données, les fichiers que j'ai envoyés et un README en français",
        response: { 401: errorBodySchema, 429: errorBodySchema },
      },
      onRequest: [requireArea("signed-in"), limit],
      // Stored files are already compressed; the JSON is deflated inside the zip.
      compress: false,
    },
    async (request, reply) => {
      const actor = await actorOf(request, reply);
      const bundle = await buildExport(
        {
          db: app.db,
          storage: app.storage,
          clock: app.clock,
          brandName: app.config.brandName,
          log: request.log,
        },
        actor,
      );
      const zip = new ZipFile();
      const mtime = app.clock();
      zip.addBuffer(Buffer.from(bundle.readme, "utf8"), README_FILE, { mtime });
      zip.addBuffer(Buffer.from(`${JSON.stringify(bundle.data, null, 2)}\n`, "utf8"), DATA_FILE, { mtime });
      // Stored, not deflated; opened one at a time, when the archive reaches it.
      for (const file of bundle.files)
        zip.addReadStreamLazy(file.path, { compress: false, mtime: file.mtime }, (cb) =>
          cb(null, app.storage.read(file.key)),
        );
      zip.end();
      return sendPrivateFile(reply, zip.outputStream, {
        type: "application/zip",
        name: bundle.fileName,
        disposition: "attachment",
      });
    },
  );
}
