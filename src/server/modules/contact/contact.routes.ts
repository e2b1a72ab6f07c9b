import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorBodySchema } from "../../../shared/schemas/common";
import { CONTACT_MESSAGES, contactCreatedSchema, contactFormSchema } from "../../../shared/schemas/contact";
import { AppError } from "../../errors";
import { type FormRules, readMultipart } from "../../http/multipart";
import { UPLOAD_CONTENT_TYPES } from "../../http/uploads";
import { announceTeamWork } from "../../realtime/team";
import { insertContactSubmission } from "./contact.repo";

/** Spam guard: a hidden field that people never fill in. */
export const HONEYPOT_FIELD = "website";

/** The contact form: its fields and one optional file, of the formats the upload accepts. */
const CONTACT_FORM: FormRules = {
  notMultipart: "Le formulaire doit être envoyé en multipart/form-data.",
  fields: 10,
  files: {
    field: "file",
    max: 1,
    accepted: UPLOAD_CONTENT_TYPES,
    keyPrefix: "contact",
    tooLarge: () => CONTACT_MESSAGES.fileTooLarge,
    badContent: () => CONTACT_MESSAGES.fileContent,
    tooMany: "Un seul fichier peut être joint au message.",
  },
};

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
          "multipart/form-data : name et email (obligatoires ; name de 200 caractères au plus), treatment_type, message (obligatoire sans fichier ; 5 000 caractères au plus), et un fichier optionnel `file` (PDF, JPG, PNG, MP4, MOV, AVI, MKV ; 10 Mo au plus ; type vérifié sur le contenu).",
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
      const form = await readMultipart(request, app.storage, CONTACT_FORM);
      if (form.raw[HONEYPOT_FIELD]) {
        // Looks like success to the robot; nothing is kept.
        await form.discard();
        request.log.info("formulaire de contact : pot de miel rempli, message ignoré");
        return reply.status(201).send({ id: randomUUID(), message: CONTACT_MESSAGES.success });
      }
      // Without a file the message is required: the schema is chosen by what came.
      const id = await form.use(contactFormSchema(form.files.length > 0), (fields, [file]) =>
        insertContactSubmission(app.db, { ...fields, file }),
      );
      announceTeamWork({ bus: app.bus, log: request.log });
      return reply.status(201).send({ id, message: CONTACT_MESSAGES.success });
    },
  );
}
