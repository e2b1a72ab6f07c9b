import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import { CONTACT_MESSAGES, contactCreatedSchema, contactFieldsSchema } from "../../../shared/schemas/contact";
import { AppError, validationError } from "../../errors";
import { multipartField } from "../../plugins/input-guard";
import { DOCUMENT_TYPES, isFileTooLarge, type StoredFile, storeUpload } from "../../uploads";
import { insertContactSubmission } from "./contact.repo";

/** Spam guard: a hidden field that people never fill in. */
export const HONEYPOT_FIELD = "website";

export async function contactRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limit = app.rateLimit({
    max: app.config.contactRateLimitPerHour,
    timeWindow: 60 * 60 * 1000,
    errorResponseBuilder: () => new AppError(429, "RATE_LIMITED", CONTACT_MESSAGES.tooMany),
  });

  r.post(
    "/api/contact",
    {
      schema: {
        tags: ["contact"],
        summary: "Envoyer un message à l'équipe (formulaire de contact public)",
        description:
          "multipart/form-data : name, email (obligatoires), treatment_type, message, et un fichier optionnel `file` (PDF, JPG, PNG, MP4, MOV, AVI, MKV ; 10 Mo au plus ; type vérifié sur le contenu).",
        consumes: ["multipart/form-data"],
        response: {
          201: contactCreatedSchema,
          400: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
        },
      },
      onRequest: limit,
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError(
          415,
          "UNSUPPORTED_MEDIA_TYPE",
          "Le formulaire doit être envoyé en multipart/form-data.",
        );
      }
      const fields: Record<string, string> = {};
      let stored: StoredFile | undefined;
      try {
        for await (const part of request.parts({ limits: { files: 1, fields: 10, fieldSize: 20_000 } })) {
          if (part.type === "field") {
            fields[part.fieldname] = multipartField(part);
          } else if (part.fieldname === "file" && part.filename && !stored) {
            stored = await storeUpload(part, app.storage, {
              accepted: DOCUMENT_TYPES,
              keyPrefix: "contact",
              messages: { tooLarge: CONTACT_MESSAGES.fileTooLarge, badContent: CONTACT_MESSAGES.fileContent },
            });
          } else {
            part.file.resume();
          }
        }
        if (fields[HONEYPOT_FIELD]) {
          // Looks like success to the robot; nothing is kept.
          if (stored) await app.storage.remove(stored.key);
          request.log.info("formulaire de contact : pot de miel rempli, message ignoré");
          return reply.status(201).send({ id: randomUUID(), message: CONTACT_MESSAGES.success });
        }
        const parsed = contactFieldsSchema.safeParse(fields);
        if (!parsed.success) throw validationError(parsed.error.issues);
        const id = await insertContactSubmission(app.db, { ...parsed.data, file: stored });
        return reply.status(201).send({ id, message: CONTACT_MESSAGES.success });
      } catch (error) {
        if (stored) await app.storage.remove(stored.key);
        if (isFileTooLarge(error)) {
          throw new AppError(413, "PAYLOAD_TOO_LARGE", CONTACT_MESSAGES.fileTooLarge, {
            file: CONTACT_MESSAGES.fileTooLarge,
          });
        }
        throw error;
      }
    },
  );
}
