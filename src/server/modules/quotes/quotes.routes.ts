import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { parisToday } from "../../../shared/policies/offers";
import { errorBodySchema } from "../../../shared/schemas/common";
import {
  COVER_MESSAGES,
  coverResponseSchema,
  coverSavedSchema,
  coverSchema,
  QUOTE_MESSAGES,
  quoteDateIssue,
  quoteLineIssues,
  quoteSavedSchema,
  quoteUpdateSchema,
  resolveLine,
} from "../../../shared/schemas/quotes";
import { READING_MESSAGES } from "../../../shared/schemas/reading";
import { REQUEST_NOT_FOUND } from "../../../shared/schemas/requests";
import { requireVisible } from "../../access/guards";
import { guardedRoutes } from "../../access/route";
import { AppError, notFound, validationError } from "../../errors";
import { patientQuotesRepo } from "./quotes.repo";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The patient's structured devis and 'Ma mutuelle' (issue 15). */
export async function quoteRoutes(app: FastifyInstance): Promise<void> {
  const patient = guardedRoutes(app, "patient", { tags: ["patient"], errors });
  const params = z.object({ id: z.string() });
  const visible = requireVisible("request", REQUEST_NOT_FOUND);

  patient.get("/api/patient/cover", {
    summary: "Ma mutuelle (couverture des prothèses dentaires), ou null",
    response: { 200: coverResponseSchema },
    handler: async (_request, _reply, actor) => ({
      cover: await patientQuotesRepo(app.db, actor).cover(),
    }),
  });

  patient.put("/api/patient/cover", {
    summary:
      "Enregistrer ma mutuelle (pourcentage de la BR, RO inclus ou non, plafonds, contrat responsable)",
    body: coverSchema,
    response: { 200: coverSavedSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const repo = patientQuotesRepo(app.db, actor);
      await repo.saveCover(request.body, app.clock());
      return { cover: await repo.cover(), message: COVER_MESSAGES.saved };
    },
  });

  patient.delete("/api/patient/cover", {
    summary: "Retirer ma mutuelle (les estimations ne comptent plus que l'Assurance Maladie)",
    response: { 200: coverSavedSchema },
    handler: async (_request, _reply, actor) => {
      await patientQuotesRepo(app.db, actor).removeCover();
      return { cover: null, message: COVER_MESSAGES.removed };
    },
  });

  patient.put("/api/patient/requests/:id/quote", {
    summary: "Saisir les lignes de mon devis (dent, acte, honoraires) ; une liste vide les efface",
    params,
    body: quoteUpdateSchema,
    response: { 200: quoteSavedSchema, 400: errorBodySchema, 409: errorBodySchema },
    preValidation: visible,
    handler: async (request, _reply, actor) => {
      const repo = patientQuotesRepo(app.db, actor);
      const now = app.clock();
      // The devis's own date chooses the tariffs (2025's for a devis of 2025); today when not given.
      const day = request.body.quote_date ?? parisToday(now);
      const dateIssue = quoteDateIssue(day, parisToday(now));
      if (dateIssue) throw validationError([{ path: ["quote_date"], message: dateIssue }]);
      const lines = request.body.lines.map((line) => resolveLine(line, day));
      // The patient's own quote: a fee above a ceiling is flagged, not refused (it is their dentist's).
      const issues = quoteLineIssues(lines, { refuseAboveCeiling: false, prefix: ["lines"] });
      if (issues.length > 0) throw validationError(issues);
      const result = await repo.replace(
        request.params.id,
        lines,
        day,
        now,
        request.body.reading_id,
        request.body.reading_choices ?? [],
      );
      if (result === "not_found") throw notFound(REQUEST_NOT_FOUND);
      if (result === "no_reading") throw notFound(READING_MESSAGES.readingNotFound);
      if (result === "closed") throw new AppError(409, "CONFLICT", QUOTE_MESSAGES.notEditable);
      return {
        lines,
        quote_date: lines.length > 0 ? day : null,
        quote_amount_cents: result.amount,
        message: lines.length > 0 ? QUOTE_MESSAGES.saved : QUOTE_MESSAGES.cleared,
      };
    },
  });
}
