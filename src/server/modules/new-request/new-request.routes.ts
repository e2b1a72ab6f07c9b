import type { FastifyInstance } from "fastify";
import { errorBodySchema } from "../../../shared/schemas/common";
import { requestCreatedSchema, requestFieldsSchema, UPLOAD_MESSAGES } from "../../../shared/schemas/requests";
import { guardedRoutes } from "../../access/route";
import { readMultipart } from "../../http/multipart";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { announceOpenRequests, announceRequestChange } from "../requests/request.events";
import { AlreadySent, createRequest, requestForm } from "./new-request.service";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** A patient sends a new request with its documents (the patient's other request routes: modules/requests). */
export async function newRequestRoutes(app: FastifyInstance): Promise<void> {
  // Responses written by compiled serializers: only the schema's fields (plugins/fast-serializer.ts).
  app.setSerializerCompiler(fastSerializerCompiler);
  const patient = guardedRoutes(app, "patient", { tags: ["patient"], errors });

  patient.post("/api/patient/requests", {
    summary: "Créer une demande avec ses documents (multipart)",
    description:
      "multipart/form-data : treatment_type (obligatoire), description, budget, quote_amount (euros), quote_lines (tableau JSON des lignes du devis : code, act, tooth, fee_cents), quote_date (date du devis, AAAA-MM-JJ : ses lignes sont estimées aux tarifs de ce jour), urgency (high|medium|low), recipient ('all' ou l'id d'un dentiste vérifié), consent ('true'), submission_id (un UUID tiré par le formulaire pour cet envoi, le même à chaque nouvel essai : une demande déjà enregistrée sous cet id est renvoyée, pas créée deux fois), document_types (tableau JSON, un type par fichier : xray|quote|photo|other), puis un ou plusieurs fichiers `files` (10 Mo chacun, 10 au plus).",
    consumes: ["multipart/form-data"],
    response: { 201: requestCreatedSchema, 413: errorBodySchema, 415: errorBodySchema },
    handler: async (request, reply, actor) => {
      const form = await readMultipart(request, app.storage, requestForm(actor.userId));
      const deps = { db: app.db, brandName: app.config.brandName, clock: app.clock };
      let id: string;
      try {
        id = await form.use(requestFieldsSchema, (input, files) => createRequest(deps, actor, input, files));
      } catch (error) {
        // A retry of a sending already saved (its answer was lost): that request again, nothing new
        // (the retry's files are already removed).
        if (error instanceof AlreadySent)
          return reply.status(201).send({ id: error.requestId, message: UPLOAD_MESSAGES.success });
        throw error;
      }
      // A devis queued for reading (issue 17) is read off the request path.
      app.readings.wake();
      // The dentists' "À faire" counters follow live (the event carries nothing but its kind); the
      // patient's other tabs list it.
      announceOpenRequests({ bus: app.bus, log: request.log });
      announceRequestChange({ bus: app.bus, log: request.log }, id, [actor.userId]);
      return reply.status(201).send({ id, message: UPLOAD_MESSAGES.success });
    },
  });
}
